//! The matmul kernels: one line per kernel, and `Algo`, generated from those lines.
//!
//! Each line names the kernel function (its PTX entry name is the function's name), a short label
//! for tables, and the kernel's own launch constant. Everything else — `Algo::ALL`, labels, entry
//! names, launch geometry, launch bounds, the emulator's dispatch, the parity tests, the scorecard
//! and the benches — is read from here.
use tessera_kernels::launch::TileConfig;
use tessera_kernels::matmul::{
    k01_naive, k02_tiled, k03_blocktile_1d, k04_blocktile_2d, k05_vectorized, k06_conflict_free, k07_warptile, k08_double_buffer,
    k09_async_pipeline, k10_split_k,
};

/// The host build of an FP32 matmul entry: `(a, b, c, m, n, k)`, as the emulator calls it.
pub type MatmulFn = unsafe fn(*const f32, *const f32, *mut f32, u32, u32, u32);

/// One matmul kernel of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct MatmulKernel {
    pub algo: Algo,
    /// The PTX entry name (the kernel function's name).
    pub entry: &'static str,
    /// A short label for tables and command lines ("naive", "dbuf-128x256x16", …).
    pub label: &'static str,
    /// Launch geometry, from the kernel file's own constant.
    pub config: TileConfig,
    /// The same kernel compiled for the host, for the CPU executor (crate `tessera-emulator`).
    pub host: MatmulFn,
}

macro_rules! matmul_catalogue {
    ($( $(#[$doc:meta])* $variant:ident = $module:ident :: $entry:ident, $label:literal, $config:expr; )*) => {
        /// Which matmul kernel to run: the rungs of the ladder in `kernels/src/matmul/`, or `Auto`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Algo {
            $( $(#[$doc])* $variant, )*
            /// Picks a kernel for the shape (see [`crate::tuning`]).
            Auto,
        }

        /// Every matmul kernel, in ladder order (`MATMUL_KERNELS[i].algo as usize == i`).
        pub const MATMUL_KERNELS: &[MatmulKernel] = &[
            $( MatmulKernel { algo: Algo::$variant, entry: stringify!($entry), label: $label, config: $config, host: $module::$entry }, )*
        ];

        impl Algo {
            /// Every algorithm, in ladder order, then `Auto`.
            pub const ALL: [Algo; MATMUL_KERNELS.len() + 1] = [$( Algo::$variant, )* Algo::Auto];
        }
    };
}

matmul_catalogue! {
    /// `k01_naive`: one thread per element, operands from global memory.
    Naive = k01_naive::matmul_naive, "naive", k01_naive::CONFIG;
    /// `k02_tiled`: 16×16 tiles staged in shared memory.
    Tiled = k02_tiled::matmul_tiled, "tiled", k02_tiled::CONFIG;
    /// `k03_blocktile_1d`: 64×64 block tile, 16 outputs per thread along M.
    Blocktile1d = k03_blocktile_1d::matmul_blocktile_1d, "blocktile-1d", k03_blocktile_1d::CONFIG;
    /// `k04_blocktile_2d`: 128×128 block tile, 8×8 register block per thread.
    Blocktile2d = k04_blocktile_2d::matmul_blocktile_2d, "blocktile-2d", k04_blocktile_2d::CONFIG;
    /// `k05_vectorized`: kernel 4 with float4 global/shared accesses, `A` transposed in shared memory.
    Vectorized = k05_vectorized::matmul_vectorized, "vectorized", k05_vectorized::CONFIG;
    /// `k06_conflict_free`: kernel 5 with a bank-conflict-free shared layout.
    ConflictFree = k06_conflict_free::matmul_conflict_free, "conflict-free", k06_conflict_free::CONFIG;
    /// `k07_warptile`: warp tiling (8 warps of 64×32 in a 128×128×8 block tile).
    Warptile = k07_warptile::matmul_warptile, "warptile", k07_warptile::CONFIG;
    /// `k08_double_buffer` 128×128×8: double-buffered shared tiles, `cp.async` for `B`.
    Dbuf128x128x8 = k08_double_buffer::matmul_dbuf_128x128x8, "dbuf-128x128x8", k08_double_buffer::DBUF_128X128X8;
    /// `k08_double_buffer` 128×128×16.
    Dbuf128x128x16 = k08_double_buffer::matmul_dbuf_128x128x16, "dbuf-128x128x16", k08_double_buffer::DBUF_128X128X16;
    /// `k08_double_buffer` 128×64×16 (128 threads).
    Dbuf128x64x16 = k08_double_buffer::matmul_dbuf_128x64x16, "dbuf-128x64x16", k08_double_buffer::DBUF_128X64X16;
    /// `k08_double_buffer` 64×64×16 (128 threads).
    Dbuf64x64x16 = k08_double_buffer::matmul_dbuf_64x64x16, "dbuf-64x64x16", k08_double_buffer::DBUF_64X64X16;
    /// `k08_double_buffer` 128×256×16 (8×16 outputs per thread): the fastest tile on large outputs.
    Dbuf128x256x16 = k08_double_buffer::matmul_dbuf_128x256x16, "dbuf-128x256x16", k08_double_buffer::DBUF_128X256X16;
    /// `k08_double_buffer` 128×256×16 with its K-step loop kept rolled by 4 (a measured lesson: slower).
    Dbuf128x256x16Rolled = k08_double_buffer::matmul_dbuf_128x256x16_rolled, "dbuf-128x256x16-rolled", k08_double_buffer::DBUF_128X256X16_ROLLED;
    /// `k09_async_pipeline` 64×64×16, 3 stages: every tile copy asynchronous and element-wise, the
    /// path for N or K not multiples of 4.
    Async64x64x16s3 = k09_async_pipeline::matmul_async_64x64x16_s3, "async-64x64x16-s3", k09_async_pipeline::ASYNC_64X64X16_S3;
    /// `k10_split_k`: kernel 8's 128×128×16 tile with K divided among `tuning::splits` blocks per tile.
    SplitK128x128x16 = k10_split_k::matmul_splitk_128x128x16, "splitk-128x128x16", k10_split_k::SPLITK_128X128X16;
    /// `k10_split_k` over the 64×64×16 tile (128 threads), for the smallest outputs.
    SplitK64x64x16 = k10_split_k::matmul_splitk_64x64x16, "splitk-64x64x16", k10_split_k::SPLITK_64X64X16;
}

impl Algo {
    /// The catalogue line of a concrete kernel; `None` for `Auto` (resolve it for a shape first).
    pub fn kernel(self) -> Option<&'static MatmulKernel> {
        MATMUL_KERNELS.get(self as usize)
    }

    /// The PTX entry name; `Auto` has none and reports "matmul_auto".
    pub fn kernel_name(self) -> &'static str {
        self.kernel().map_or("matmul_auto", |k| k.entry)
    }

    /// A short label for tables ("naive", "tiled", …, "auto").
    pub fn label(self) -> &'static str {
        self.kernel().map_or("auto", |k| k.label)
    }

    /// The kernel's launch geometry; `None` for `Auto`.
    pub fn config(self) -> Option<TileConfig> {
        self.kernel().map(|k| k.config)
    }

    /// The algorithm whose label is `label` (as printed by [`Algo::label`]).
    pub fn from_label(label: &str) -> Option<Algo> {
        Algo::ALL.into_iter().find(|a| a.label() == label)
    }
}
