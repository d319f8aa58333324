//! The matmul kernels: one line per kernel, and `Algo`, generated from those lines.
//!
//! Each line names the kernel function (its PTX entry name is the function's name), a short label
//! for tables, the precision it computes in, and the kernel's own launch constant. Everything else — `Algo::ALL`, labels, entry
//! names, launch geometry, launch bounds, the emulator's dispatch, the parity tests, the scorecard
//! and the benches — is read from here.
use tessera_kernels::device::tma::TensorMap;
use tessera_kernels::launch::TileConfig;
use tessera_kernels::matmul::{
    k01_naive, k02_tiled, k03_blocktile_1d, k04_blocktile_2d, k05_vectorized, k06_conflict_free, k07_warptile, k08_double_buffer,
    k09_async_pipeline, k10_split_k, k11_mma_naive, k12_mma_shared, k13_mma_pipeline, k14_wgmma, k15_tma, k16_persistent, k17_stream_k,
    k18_few_rows, k19_few_cols, k20_mma_split_k, k21_widened, k22_tma_stream_k, k23_copy_fed, k24_cluster, k25_fp8, k27_fused,
    k29_fused_f32, k31_pingpong,
};

use crate::precision::Precision::{self, Bf16, Fp16, Fp32, Fp8E4m3, Fp8E5m2, Tf32};

/// The host build of a matmul entry on `f32` inputs (FP32 or TF32): `(a, b, c, m, n, k)`.
pub type MatmulFn = unsafe fn(*const f32, *const f32, *mut f32, u32, u32, u32);
/// The host build of a matmul entry on 16-bit inputs (BF16 or FP16 bit patterns), `f32` output.
pub type HalfMatmulFn = unsafe fn(*const u16, *const u16, *mut f32, u32, u32, u32);

/// The host build of a matmul entry that reads A and B through TMA tensor maps (kernels 15, 16, 22,
/// 24): `(map_a, map_b, map_c, c, flags, m, n, k)`; A's and B's maps of the kernel's precision's
/// element type, `C`'s (or null) of `f32` ([`crate::registry::tma::c_operand`]), `flags` the stream-K
/// kernels' counters.
pub type TmaMatmulFn = unsafe fn(*const TensorMap, *const TensorMap, *const TensorMap, *mut f32, *mut u32, u32, u32, u32);

/// The host build of an FP8 entry (kernel 25): a TMA entry's arguments, then the scales of A and B
/// (per tensor: device `f32` scalars, or null for 1; per block for the block-scaled entries),
/// whether `C` is BF16 (then the `*mut f32` points at BF16 elements), and the fused epilogue's bias
/// (or null) and code (`tessera_kernels::activation`); B's map is over `Bᵀ` (`n × k` bytes).
pub type Fp8MatmulFn = unsafe fn(
    *const TensorMap,
    *const TensorMap,
    *const TensorMap,
    *mut f32,
    *mut u32,
    u32,
    u32,
    u32,
    *const f32,
    *const f32,
    u32,
    *const f32,
    u32,
);

/// The host build of a kernel-27 entry: a TMA entry's arguments, then `α`, the output type's code
/// (`k27_fused::out`: then the `*mut f32` points at elements of that type), and the fused epilogue's
/// bias (or null) and code (`tessera_kernels::activation`).
pub type FusedMatmulFn =
    unsafe fn(*const TensorMap, *const TensorMap, *const TensorMap, *mut f32, *mut u32, u32, u32, u32, f32, u32, *const f32, u32);

/// The host build of a kernel-29 entry (FP32 on pointers): `(a, b, c, m, n, k)`, then `α`, the output
/// type's code and the fused epilogue's bias and code, as kernel 27's.
pub type FusedF32Fn = unsafe fn(*const f32, *const f32, *mut f32, u32, u32, u32, f32, u32, *const f32, u32);

/// A kernel's host build, for the CPU executor: its signature depends on the input element type.
#[derive(Debug, Clone, Copy)]
pub enum HostKernel {
    F32(MatmulFn),
    Half(HalfMatmulFn),
    Tma(TmaMatmulFn),
    Fp8(Fp8MatmulFn),
    Fused(FusedMatmulFn),
    FusedF32(FusedF32Fn),
}

/// The `HostKernel` of an entry of `precision` (the macro's way to pick the variant).
macro_rules! host_kernel {
    ($precision:ident via fp8, $f:path) => {
        HostKernel::Fp8($f)
    };
    ($precision:ident via tma, $f:path) => {
        HostKernel::Tma($f)
    };
    ($precision:ident via fused, $f:path) => {
        HostKernel::Fused($f)
    };
    ($precision:ident via fused_f32, $f:path) => {
        HostKernel::FusedF32($f)
    };
    (Fp32, $f:path) => {
        HostKernel::F32($f)
    };
    (Tf32, $f:path) => {
        HostKernel::F32($f)
    };
    (Bf16, $f:path) => {
        HostKernel::Half($f)
    };
    (Fp16, $f:path) => {
        HostKernel::Half($f)
    };
}

/// A catalogue line's [`ByRows`] twin, if it names one (`entry / twin`).
macro_rules! by_rows {
    ($precision:ident, $module:ident) => {
        None
    };
    ($precision:ident, $module:ident, $twin:ident) => {
        Some(ByRows { entry: stringify!($twin), host: host_kernel!($precision, $module::$twin) })
    };
}

/// One matmul kernel of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct MatmulKernel {
    pub algo: Algo,
    /// The PTX entry name (the kernel function's name).
    pub entry: &'static str,
    /// A short label for tables and command lines ("naive", "dbuf-128x256x16", …).
    pub label: &'static str,
    /// The precision the kernel computes in (its inputs' type: `f32` for FP32 and TF32).
    pub precision: Precision,
    /// Launch geometry, from the kernel file's own constant.
    pub config: TileConfig,
    /// The same kernel compiled for the host, for the CPU executor (crate `tessera-emulator`).
    pub host: HostKernel,
    /// Its `…_by_rows` twin, launched instead where N is not a multiple of 4 ([`Self::launched`]):
    /// the same kernel whose epilogue writes `C` a row at a time through shared memory (the
    /// warp-tiled kernels 7–10 and 17 but `dbuf-128x128x8`; `by_rows_twin!` in `tessera-kernels`).
    pub by_rows: Option<ByRows>,
}

/// A kernel's twin entry for N not a multiple of 4 ([`MatmulKernel::by_rows`]).
#[derive(Debug, Clone, Copy)]
pub struct ByRows {
    /// Its PTX entry name.
    pub entry: &'static str,
    /// Its host build.
    pub host: HostKernel,
}

impl MatmulKernel {
    /// The entry and host build that run a product with `n` columns: the [`ByRows`] twin where
    /// `n % 4 != 0` and the kernel has one, the kernel's own entry otherwise.
    pub fn launched(&self, n: u32) -> (&'static str, HostKernel) {
        match self.by_rows {
            Some(twin) if !n.is_multiple_of(4) => (twin.entry, twin.host),
            _ => (self.entry, self.host),
        }
    }
}

macro_rules! matmul_catalogue {
    ($( $(#[$doc:meta])* $variant:ident = $module:ident :: $entry:ident $(/ $by_rows:ident)?, $label:literal, $precision:ident $(via $via:ident)?, $config:expr; )*) => {
        /// Which matmul kernel to run: the rungs of the ladder in `kernels/src/matmul/`, or `Auto`.
        ///
        /// Each kernel computes in one [`Precision`]; `Auto` picks a kernel of the precision the
        /// caller's inputs (or explicit TF32 request) ask for.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Algo {
            $( $(#[$doc])* $variant, )*
            /// Picks a kernel for the shape (see [`crate::select::tuning`]).
            Auto,
        }

        /// Every matmul kernel, in ladder order (`MATMUL_KERNELS[i].algo as usize == i`).
        pub const MATMUL_KERNELS: &[MatmulKernel] = &[
            $( MatmulKernel {
                algo: Algo::$variant,
                entry: stringify!($entry),
                label: $label,
                precision: $precision,
                config: $config,
                host: host_kernel!($precision $(via $via)?, $module::$entry),
                by_rows: by_rows!($precision, $module $(, $by_rows)?),
            }, )*
        ];

        impl Algo {
            /// Every algorithm, in ladder order, then `Auto`.
            pub const ALL: [Algo; MATMUL_KERNELS.len() + 1] = [$( Algo::$variant, )* Algo::Auto];
        }
    };
}

matmul_catalogue! {
    /// `k01_naive`: one thread per element, operands from global memory.
    Naive = k01_naive::matmul_naive, "naive", Fp32, k01_naive::CONFIG;
    /// `k02_tiled`: 16×16 tiles staged in shared memory.
    Tiled = k02_tiled::matmul_tiled, "tiled", Fp32, k02_tiled::CONFIG;
    /// `k03_blocktile_1d`: 64×64 block tile, 16 outputs per thread along M.
    Blocktile1d = k03_blocktile_1d::matmul_blocktile_1d, "blocktile-1d", Fp32, k03_blocktile_1d::CONFIG;
    /// `k04_blocktile_2d`: 128×128 block tile, 8×8 register block per thread.
    Blocktile2d = k04_blocktile_2d::matmul_blocktile_2d, "blocktile-2d", Fp32, k04_blocktile_2d::CONFIG;
    /// `k05_vectorized`: kernel 4 with float4 global/shared accesses, `A` transposed in shared memory.
    Vectorized = k05_vectorized::matmul_vectorized, "vectorized", Fp32, k05_vectorized::CONFIG;
    /// `k06_conflict_free`: kernel 5 with a bank-conflict-free shared layout.
    ConflictFree = k06_conflict_free::matmul_conflict_free, "conflict-free", Fp32, k06_conflict_free::CONFIG;
    /// `k07_warptile`: warp tiling (8 warps of 64×32 in a 128×128×8 block tile).
    Warptile = k07_warptile::matmul_warptile / matmul_warptile_by_rows, "warptile", Fp32, k07_warptile::CONFIG;
    /// `k08_double_buffer` 128×128×8: double-buffered shared tiles, `cp.async` for `B`.
    Dbuf128x128x8 = k08_double_buffer::matmul_dbuf_128x128x8, "dbuf-128x128x8", Fp32, k08_double_buffer::DBUF_128X128X8;
    /// `k08_double_buffer` 128×128×16.
    Dbuf128x128x16 = k08_double_buffer::matmul_dbuf_128x128x16 / matmul_dbuf_128x128x16_by_rows, "dbuf-128x128x16", Fp32, k08_double_buffer::DBUF_128X128X16;
    /// `k08_double_buffer` 128×64×16 (128 threads).
    Dbuf128x64x16 = k08_double_buffer::matmul_dbuf_128x64x16 / matmul_dbuf_128x64x16_by_rows, "dbuf-128x64x16", Fp32, k08_double_buffer::DBUF_128X64X16;
    /// `k08_double_buffer` 64×64×16 (128 threads).
    Dbuf64x64x16 = k08_double_buffer::matmul_dbuf_64x64x16 / matmul_dbuf_64x64x16_by_rows, "dbuf-64x64x16", Fp32, k08_double_buffer::DBUF_64X64X16;
    /// `k08_double_buffer` 128×256×16 (8×16 outputs per thread): the fastest tile on large outputs.
    Dbuf128x256x16 = k08_double_buffer::matmul_dbuf_128x256x16 / matmul_dbuf_128x256x16_by_rows, "dbuf-128x256x16", Fp32, k08_double_buffer::DBUF_128X256X16;
    /// `k08_double_buffer` 128×256×16 with its K-step loop kept rolled by 4 (a measured lesson: slower).
    Dbuf128x256x16Rolled = k08_double_buffer::matmul_dbuf_128x256x16_rolled / matmul_dbuf_128x256x16_rolled_by_rows, "dbuf-128x256x16-rolled", Fp32, k08_double_buffer::DBUF_128X256X16_ROLLED;
    /// `k09_async_pipeline` 64×64×16, 3 stages: every tile copy asynchronous and element-wise, the
    /// path for N or K not multiples of 4.
    Async64x64x16s3 = k09_async_pipeline::matmul_async_64x64x16_s3 / matmul_async_64x64x16_s3_by_rows, "async-64x64x16-s3", Fp32, k09_async_pipeline::ASYNC_64X64X16_S3;
    /// `k10_split_k`: kernel 8's 128×128×16 tile with K divided among `tuning::splits_for` blocks per tile.
    SplitK128x128x16 = k10_split_k::matmul_splitk_128x128x16 / matmul_splitk_128x128x16_by_rows, "splitk-128x128x16", Fp32, k10_split_k::SPLITK_128X128X16;
    /// `k10_split_k` over the 64×64×16 tile (128 threads), for the smallest outputs.
    SplitK64x64x16 = k10_split_k::matmul_splitk_64x64x16 / matmul_splitk_64x64x16_by_rows, "splitk-64x64x16", Fp32, k10_split_k::SPLITK_64X64X16;
    /// `k10_split_k` over a 128×32 tile (128 threads), for outputs at most 32 columns wide.
    SplitK128x32x16 = k10_split_k::matmul_splitk_128x32x16 / matmul_splitk_128x32x16_by_rows, "splitk-128x32x16", Fp32, k10_split_k::SPLITK_128X32X16;
    /// `k10_split_k` over a 32×128 tile (128 threads), for outputs at most 32 rows tall.
    SplitK32x128x16 = k10_split_k::matmul_splitk_32x128x16 / matmul_splitk_32x128x16_by_rows, "splitk-32x128x16", Fp32, k10_split_k::SPLITK_32X128X16;
    /// `k10_split_k` over kernel 8's 128×256 tile (8×16 outputs per thread), for deep K on a few dozen tiles.
    SplitK128x256x16 = k10_split_k::matmul_splitk_128x256x16 / matmul_splitk_128x256x16_by_rows, "splitk-128x256x16", Fp32, k10_split_k::SPLITK_128X256X16;
    /// `k10_split_k` over a 256×128 tile (8×16 outputs per thread), for deep K on outputs about 128 wide.
    SplitK256x128x16 = k10_split_k::matmul_splitk_256x128x16 / matmul_splitk_256x128x16_by_rows, "splitk-256x128x16", Fp32, k10_split_k::SPLITK_256X128X16;
    /// `k17_stream_k` over kernel 8's 128×128×16 tile: every tile's K-steps shared evenly by the
    /// blocks that fit at once.
    StreamK128x128x16 = k17_stream_k::matmul_streamk_128x128x16 / matmul_streamk_128x128x16_by_rows, "streamk-128x128x16", Fp32, k17_stream_k::STREAMK_128X128X16;
    /// `k17_stream_k` over kernel 8's 128×256×16 tile.
    StreamK128x256x16 = k17_stream_k::matmul_streamk_128x256x16 / matmul_streamk_128x256x16_by_rows, "streamk-128x256x16", Fp32, k17_stream_k::STREAMK_128X256X16;
    /// `k17_stream_k` over kernel 8's 64×64×16 tile (four blocks per SM).
    StreamK64x64x16 = k17_stream_k::matmul_streamk_64x64x16 / matmul_streamk_64x64x16_by_rows, "streamk-64x64x16", Fp32, k17_stream_k::STREAMK_64X64X16;
    /// `k18_few_rows`: 16 rows × 128 columns per block, K split across warps and blocks, one slice
    /// storing `C` — products of up to 16 rows, bound by reading `B` once.
    FewRows = k18_few_rows::matmul_few_rows, "few-rows", Fp32, k18_few_rows::CONFIG;
    /// `k19_few_cols`: 32 rows × 4 columns per block, each warp streaming its rows of `A` (four runs
    /// in flight), one slice storing `C` — products up to 32 columns wide in `⌈N/4⌉` blocks of 4 (N = 1: a GEMV), bound by
    /// reading `A` once.
    FewCols4 = k19_few_cols::matmul_few_cols_4, "few-cols-4", Fp32, k19_few_cols::CONFIG;
    /// `k11_mma_naive` on BF16: one warp per 16×8 tile, fragments from global memory.
    MmaNaiveBf16 = k11_mma_naive::matmul_mma_naive_bf16, "mma-naive-bf16", Bf16, k11_mma_naive::CONFIG;
    /// `k11_mma_naive` on FP16.
    MmaNaiveF16 = k11_mma_naive::matmul_mma_naive_f16, "mma-naive-f16", Fp16, k11_mma_naive::CONFIG;
    /// `k11_mma_naive` in TF32 (on `f32` data; the caller's explicit choice).
    MmaNaiveTf32 = k11_mma_naive::matmul_mma_naive_tf32, "mma-naive-tf32", Tf32, k11_mma_naive::CONFIG;
    /// `k12_mma_shared` on BF16: shared tiles, ldmatrix, one stage.
    MmaSharedBf16 = k12_mma_shared::matmul_mma_shared_bf16, "mma-shared-bf16", Bf16, k12_mma_shared::MMA_SHARED_BF16;
    /// `k12_mma_shared` on FP16.
    MmaSharedF16 = k12_mma_shared::matmul_mma_shared_f16, "mma-shared-f16", Fp16, k12_mma_shared::MMA_SHARED_F16;
    /// `k12_mma_shared` in TF32.
    MmaSharedTf32 = k12_mma_shared::matmul_mma_shared_tf32, "mma-shared-tf32", Tf32, k12_mma_shared::MMA_SHARED_TF32;
    /// `k13_mma_pipeline` on BF16, 128×256 tile: multi-stage cp.async, swizzled, 64×64 warp tiles.
    MmaPipeBf16x256 = k13_mma_pipeline::matmul_mma_pipe_bf16_128x256, "mma-pipe-bf16-128x256", Bf16, k13_mma_pipeline::MMA_PIPE_BF16_128X256;
    /// `k13_mma_pipeline` on BF16, 128×128 tile.
    MmaPipeBf16x128 = k13_mma_pipeline::matmul_mma_pipe_bf16_128x128, "mma-pipe-bf16-128x128", Bf16, k13_mma_pipeline::MMA_PIPE_BF16_128X128;
    /// `k13_mma_pipeline` on FP16, 128×256 tile.
    MmaPipeF16x256 = k13_mma_pipeline::matmul_mma_pipe_f16_128x256, "mma-pipe-f16-128x256", Fp16, k13_mma_pipeline::MMA_PIPE_F16_128X256;
    /// `k13_mma_pipeline` on FP16, 128×128 tile.
    MmaPipeF16x128 = k13_mma_pipeline::matmul_mma_pipe_f16_128x128, "mma-pipe-f16-128x128", Fp16, k13_mma_pipeline::MMA_PIPE_F16_128X128;
    /// `k13_mma_pipeline` in TF32, 128×128 tile, 8 warps of 64×32, 3 stages.
    MmaPipeTf32 = k13_mma_pipeline::matmul_mma_pipe_tf32_128x128, "mma-pipe-tf32-128x128", Tf32, k13_mma_pipeline::MMA_PIPE_TF32_128X128;
    /// Kernel 14: `wgmma` on BF16 inputs (sm_90a), 128×256×64, 4 `cp.async` stages.
    WgmmaBf16 = k14_wgmma::matmul_wgmma_bf16_128x256, "wgmma-bf16-128x256", Bf16, k14_wgmma::WGMMA_BF16_128X256;
    /// Kernel 14: `wgmma` on FP16 inputs (sm_90a), 128×256×64, 4 `cp.async` stages.
    WgmmaF16 = k14_wgmma::matmul_wgmma_f16_128x256, "wgmma-f16-128x256", Fp16, k14_wgmma::WGMMA_F16_128X256;
    /// Kernel 14: `wgmma` on BF16 inputs (sm_90a), 128×128×64, 3 stages, 2 blocks per SM.
    WgmmaBf16Narrow = k14_wgmma::matmul_wgmma_bf16_128x128, "wgmma-bf16-128x128", Bf16, k14_wgmma::WGMMA_BF16_128X128;
    /// Kernel 14: `wgmma` on FP16 inputs (sm_90a), 128×128×64, 3 stages, 2 blocks per SM.
    WgmmaF16Narrow = k14_wgmma::matmul_wgmma_f16_128x128, "wgmma-f16-128x128", Fp16, k14_wgmma::WGMMA_F16_128X128;
    /// Kernel 14 in TF32 (sm_90a), 128×256×32, on operands the host prepares (A rounded, Bᵀ rounded).
    WgmmaTf32 = k14_wgmma::matmul_wgmma_tf32_128x256, "wgmma-tf32-128x256", Tf32, k14_wgmma::WGMMA_TF32_128X256;
    /// Kernel 15: `wgmma` on BF16 inputs (sm_90a) fed by TMA, a producer and two consumer
    /// warpgroups, 128×256×64, 4 stages.
    TmaBf16 = k15_tma::matmul_tma_bf16_128x256, "tma-bf16-128x256", Bf16 via tma, k15_tma::TMA_BF16_128X256;
    /// Kernel 15 on FP16 inputs (sm_90a).
    TmaF16 = k15_tma::matmul_tma_f16_128x256, "tma-f16-128x256", Fp16 via tma, k15_tma::TMA_F16_128X256;
    /// Kernel 15 in TF32 (sm_90a), 128×256×32: A rounded in registers by the kernel, `Bᵀ` rounded by
    /// the host.
    TmaTf32 = k15_tma::matmul_tma_tf32_128x256, "tma-tf32-128x256", Tf32 via tma, k15_tma::TMA_TF32_128X256;
    /// Kernel 15 on BF16, 128×128 tiles, 6 stages: one tile per block, small products.
    TmaBf16Narrow = k15_tma::matmul_tma_bf16_128x128, "tma-bf16-128x128", Bf16 via tma, k15_tma::TMA_BF16_128X128;
    /// Kernel 15 on FP16, 128×128 tiles, 6 stages.
    TmaF16Narrow = k15_tma::matmul_tma_f16_128x128, "tma-f16-128x128", Fp16 via tma, k15_tma::TMA_F16_128X128;
    /// Kernel 15 on BF16, 64×128 tiles (one consumer warpgroup), 9 stages: one tile per block, small products.
    TmaBf16Rows64 = k15_tma::matmul_tma_bf16_64x128, "tma-bf16-64x128", Bf16 via tma, k15_tma::TMA_BF16_64X128;
    /// Kernel 15 on FP16, 64×128 tiles, 9 stages.
    TmaF16Rows64 = k15_tma::matmul_tma_f16_64x128, "tma-f16-64x128", Fp16 via tma, k15_tma::TMA_F16_64X128;
    /// Kernel 15 in TF32, 64×128 tiles, 9 stages.
    TmaTf32Rows64 = k15_tma::matmul_tma_tf32_64x128, "tma-tf32-64x128", Tf32 via tma, k15_tma::TMA_TF32_64X128;
    /// Kernel 16: kernel 15 persistent (one block per SM over the grouped tile order), BF16.
    PersistentBf16 = k16_persistent::matmul_persistent_bf16_128x256, "persistent-bf16-128x256", Bf16 via tma, k16_persistent::PERSISTENT_BF16_128X256;
    /// Kernel 16 on FP16.
    PersistentF16 = k16_persistent::matmul_persistent_f16_128x256, "persistent-f16-128x256", Fp16 via tma, k16_persistent::PERSISTENT_F16_128X256;
    /// Kernel 16 in TF32 (A rounded by the kernel, `Bᵀ` prepared).
    PersistentTf32 = k16_persistent::matmul_persistent_tf32_128x256, "persistent-tf32-128x256", Tf32 via tma, k16_persistent::PERSISTENT_TF32_128X256;
    /// Kernel 16 on BF16, 128×128 tiles, 6 stages: for outputs of few tiles or few columns.
    PersistentBf16Narrow = k16_persistent::matmul_persistent_bf16_128x128, "persistent-bf16-128x128", Bf16 via tma, k16_persistent::PERSISTENT_BF16_128X128;
    /// Kernel 16 on FP16, 128×128 tiles, 6 stages.
    PersistentF16Narrow = k16_persistent::matmul_persistent_f16_128x128, "persistent-f16-128x128", Fp16 via tma, k16_persistent::PERSISTENT_F16_128X128;
    /// Kernel 16 on BF16, 128×192 tiles, 5 stages: a third tile count, for the last wave's fill.
    PersistentBf16Mid = k16_persistent::matmul_persistent_bf16_128x192, "persistent-bf16-128x192", Bf16 via tma, k16_persistent::PERSISTENT_BF16_128X192;
    /// Kernel 16 on FP16, 128×192 tiles, 5 stages.
    PersistentF16Mid = k16_persistent::matmul_persistent_f16_128x192, "persistent-f16-128x192", Fp16 via tma, k16_persistent::PERSISTENT_F16_128X192;
    /// Kernel 16 on BF16, 64×128 tiles (one consumer warpgroup), 9 stages: few rows, few tiles.
    PersistentBf16Rows64 = k16_persistent::matmul_persistent_bf16_64x128, "persistent-bf16-64x128", Bf16 via tma, k16_persistent::PERSISTENT_BF16_64X128;
    /// Kernel 16 on FP16, 64×128 tiles, 9 stages.
    PersistentF16Rows64 = k16_persistent::matmul_persistent_f16_64x128, "persistent-f16-64x128", Fp16 via tma, k16_persistent::PERSISTENT_F16_64X128;
    /// Kernel 16 in TF32, 64×128 tiles, 9 stages.
    PersistentTf32Rows64 = k16_persistent::matmul_persistent_tf32_64x128, "persistent-tf32-64x128", Tf32 via tma, k16_persistent::PERSISTENT_TF32_64X128;
    /// Kernel 16 on BF16, 64×256 tiles (one consumer warpgroup), 5 stages: a few rows, wide outputs.
    PersistentBf16Rows64Wide = k16_persistent::matmul_persistent_bf16_64x256, "persistent-bf16-64x256", Bf16 via tma, k16_persistent::PERSISTENT_BF16_64X256;
    /// Kernel 16 on FP16, 64×256 tiles, 5 stages.
    PersistentF16Rows64Wide = k16_persistent::matmul_persistent_f16_64x256, "persistent-f16-64x256", Fp16 via tma, k16_persistent::PERSISTENT_F16_64X256;
    /// Kernel 16 in TF32, 64×256 tiles, 5 stages.
    PersistentTf32Rows64Wide = k16_persistent::matmul_persistent_tf32_64x256, "persistent-tf32-64x256", Tf32 via tma, k16_persistent::PERSISTENT_TF32_64X256;
    /// Kernel 16 in TF32 (A rounded by the kernel, `Bᵀ` prepared), 128×128 tiles, 6 stages.
    PersistentTf32Narrow = k16_persistent::matmul_persistent_tf32_128x128, "persistent-tf32-128x128", Tf32 via tma, k16_persistent::PERSISTENT_TF32_128X128;
    /// Kernel 22: kernel 16 walked stream-K (every tile's K-steps dealt evenly to one block per SM), BF16.
    StreamKTmaBf16 = k22_tma_stream_k::matmul_streamk_tma_bf16_128x256, "streamk-tma-bf16-128x256", Bf16 via tma, k22_tma_stream_k::STREAMK_TMA_BF16_128X256;
    /// Kernel 22 on FP16.
    StreamKTmaF16 = k22_tma_stream_k::matmul_streamk_tma_f16_128x256, "streamk-tma-f16-128x256", Fp16 via tma, k22_tma_stream_k::STREAMK_TMA_F16_128X256;
    /// Kernel 22 in TF32 (A rounded by the kernel, `Bᵀ` prepared).
    StreamKTmaTf32 = k22_tma_stream_k::matmul_streamk_tma_tf32_128x256, "streamk-tma-tf32-128x256", Tf32 via tma, k22_tma_stream_k::STREAMK_TMA_TF32_128X256;
    /// Kernel 24: kernel 16 in clusters of two blocks sharing B's tile (each loads half, TMA multicast into both), BF16, 128×256.
    ClusterBf16 = k24_cluster::matmul_cluster_bf16_128x256, "cluster-bf16-128x256", Bf16 via tma, k24_cluster::CLUSTER_BF16_128X256;
    /// Kernel 24 on FP16, 128×256.
    ClusterF16 = k24_cluster::matmul_cluster_f16_128x256, "cluster-f16-128x256", Fp16 via tma, k24_cluster::CLUSTER_F16_128X256;
    /// Kernel 24 on BF16, 128×192 tiles, 5 stages.
    ClusterBf16Mid = k24_cluster::matmul_cluster_bf16_128x192, "cluster-bf16-128x192", Bf16 via tma, k24_cluster::CLUSTER_BF16_128X192;
    /// Kernel 24 on FP16, 128×192 tiles.
    ClusterF16Mid = k24_cluster::matmul_cluster_f16_128x192, "cluster-f16-128x192", Fp16 via tma, k24_cluster::CLUSTER_F16_128X192;
    /// Kernel 24 on BF16, 192×192 tiles (three consumer warpgroups), 4 stages.
    ClusterBf16Square = k24_cluster::matmul_cluster_bf16_192x192, "cluster-bf16-192x192", Bf16 via tma, k24_cluster::CLUSTER_BF16_192X192;
    /// Kernel 24 on FP16, 192×192 tiles.
    ClusterF16Square = k24_cluster::matmul_cluster_f16_192x192, "cluster-f16-192x192", Fp16 via tma, k24_cluster::CLUSTER_F16_192X192;
    /// Kernel 24 on BF16, 64×128 tiles (one consumer warpgroup), 9 stages.
    ClusterBf16Rows64 = k24_cluster::matmul_cluster_bf16_64x128, "cluster-bf16-64x128", Bf16 via tma, k24_cluster::CLUSTER_BF16_64X128;
    /// Kernel 24 on FP16, 64×128 tiles.
    ClusterF16Rows64 = k24_cluster::matmul_cluster_f16_64x128, "cluster-f16-64x128", Fp16 via tma, k24_cluster::CLUSTER_F16_64X128;
    /// Kernel 24 on BF16, 64×256 tiles (one consumer warpgroup), 5 stages.
    ClusterBf16Rows64Wide = k24_cluster::matmul_cluster_bf16_64x256, "cluster-bf16-64x256", Bf16 via tma, k24_cluster::CLUSTER_BF16_64X256;
    /// Kernel 24 on FP16, 64×256 tiles.
    ClusterF16Rows64Wide = k24_cluster::matmul_cluster_f16_64x256, "cluster-f16-64x256", Fp16 via tma, k24_cluster::CLUSTER_F16_64X256;
    /// Kernel 24 on BF16, 128×128 tiles, 6 stages.
    ClusterBf16Narrow = k24_cluster::matmul_cluster_bf16_128x128, "cluster-bf16-128x128", Bf16 via tma, k24_cluster::CLUSTER_BF16_128X128;
    /// Kernel 24 on FP16, 128×128 tiles.
    ClusterF16Narrow = k24_cluster::matmul_cluster_f16_128x128, "cluster-f16-128x128", Fp16 via tma, k24_cluster::CLUSTER_F16_128X128;
    /// Kernel 24 on BF16, 128×160 tiles, 5 stages.
    ClusterBf16N160 = k24_cluster::matmul_cluster_bf16_128x160, "cluster-bf16-128x160", Bf16 via tma, k24_cluster::CLUSTER_BF16_128X160;
    /// Kernel 24 on FP16, 128×160 tiles.
    ClusterF16N160 = k24_cluster::matmul_cluster_f16_128x160, "cluster-f16-128x160", Fp16 via tma, k24_cluster::CLUSTER_F16_128X160;
    /// Kernel 24 on BF16, 128×224 tiles, 4 stages.
    ClusterBf16N224 = k24_cluster::matmul_cluster_bf16_128x224, "cluster-bf16-128x224", Bf16 via tma, k24_cluster::CLUSTER_BF16_128X224;
    /// Kernel 24 on FP16, 128×224 tiles.
    ClusterF16N224 = k24_cluster::matmul_cluster_f16_128x224, "cluster-f16-128x224", Fp16 via tma, k24_cluster::CLUSTER_F16_128X224;
    /// Kernel 24 on BF16, 192×160 tiles (three consumer warpgroups), 4 stages.
    ClusterBf16Tall160 = k24_cluster::matmul_cluster_bf16_192x160, "cluster-bf16-192x160", Bf16 via tma, k24_cluster::CLUSTER_BF16_192X160;
    /// Kernel 24 on FP16, 192×160 tiles.
    ClusterF16Tall160 = k24_cluster::matmul_cluster_f16_192x160, "cluster-f16-192x160", Fp16 via tma, k24_cluster::CLUSTER_F16_192X160;
    /// `k24_cluster` walked stream-K (`StreamK<2>`): the 128×256 pairs' K-steps dealt out evenly to the clusters.
    ClusterStreamKBf16 = k24_cluster::matmul_cluster_sk_bf16_128x256, "cluster-sk-bf16-128x256", Bf16 via tma, k24_cluster::CLUSTER_SK_BF16_128X256;
    /// `k24_cluster` walked stream-K on FP16, 128×256 pairs.
    ClusterStreamKF16 = k24_cluster::matmul_cluster_sk_f16_128x256, "cluster-sk-f16-128x256", Fp16 via tma, k24_cluster::CLUSTER_SK_F16_128X256;
    /// `k24_cluster` walked stream-K on BF16, 128×192 pairs.
    ClusterStreamKBf16Mid = k24_cluster::matmul_cluster_sk_bf16_128x192, "cluster-sk-bf16-128x192", Bf16 via tma, k24_cluster::CLUSTER_SK_BF16_128X192;
    /// `k24_cluster` walked stream-K on FP16, 128×192 pairs.
    ClusterStreamKF16Mid = k24_cluster::matmul_cluster_sk_f16_128x192, "cluster-sk-f16-128x192", Fp16 via tma, k24_cluster::CLUSTER_SK_F16_128X192;
    /// Kernel 23: kernel 16 with the operands copied by its producer warpgroup (`cp.async`), not the TMA: rows off a 32-byte sector without kernel 16's loss; BF16, 64×128 tiles.
    CopyFedBf16Rows64 = k23_copy_fed::matmul_copyfeed_bf16_64x128, "copyfeed-bf16-64x128", Bf16, k23_copy_fed::COPYFEED_BF16_64X128;
    /// Kernel 23, 64×128 tiles, FP16.
    CopyFedF16Rows64 = k23_copy_fed::matmul_copyfeed_f16_64x128, "copyfeed-f16-64x128", Fp16, k23_copy_fed::COPYFEED_F16_64X128;
    /// Kernel 20: kernel 13's pipeline on a 16×128 tile, K split over `gridDim.z` (BF16).
    MmaSplitKBf16Rows16 = k20_mma_split_k::matmul_mma_splitk_bf16_16x128, "mma-splitk-bf16-16x128", Bf16, k20_mma_split_k::MMA_SPLITK_BF16_16X128;
    /// Kernel 20, 16×128, FP16.
    MmaSplitKF16Rows16 = k20_mma_split_k::matmul_mma_splitk_f16_16x128, "mma-splitk-f16-16x128", Fp16, k20_mma_split_k::MMA_SPLITK_F16_16X128;
    /// Kernel 20, 16×128, TF32.
    MmaSplitKTf32Rows16 = k20_mma_split_k::matmul_mma_splitk_tf32_16x128, "mma-splitk-tf32-16x128", Tf32, k20_mma_split_k::MMA_SPLITK_TF32_16X128;
    /// Kernel 20 on a 64×128 tile (BF16).
    MmaSplitKBf16Rows64 = k20_mma_split_k::matmul_mma_splitk_bf16_64x128, "mma-splitk-bf16-64x128", Bf16, k20_mma_split_k::MMA_SPLITK_BF16_64X128;
    /// Kernel 20, 64×128, FP16.
    MmaSplitKF16Rows64 = k20_mma_split_k::matmul_mma_splitk_f16_64x128, "mma-splitk-f16-64x128", Fp16, k20_mma_split_k::MMA_SPLITK_F16_64X128;
    /// Kernel 20, 64×128, TF32.
    MmaSplitKTf32Rows64 = k20_mma_split_k::matmul_mma_splitk_tf32_64x128, "mma-splitk-tf32-64x128", Tf32, k20_mma_split_k::MMA_SPLITK_TF32_64X128;
    /// Kernel 20 on a 128×32 tile (BF16): products up to 32 columns wide, `A` read once.
    MmaSplitKBf16Cols32 = k20_mma_split_k::matmul_mma_splitk_bf16_128x32, "mma-splitk-bf16-128x32", Bf16, k20_mma_split_k::MMA_SPLITK_BF16_128X32;
    /// Kernel 20, 128×32, FP16.
    MmaSplitKF16Cols32 = k20_mma_split_k::matmul_mma_splitk_f16_128x32, "mma-splitk-f16-128x32", Fp16, k20_mma_split_k::MMA_SPLITK_F16_128X32;
    /// Kernel 20, 128×32, TF32.
    MmaSplitKTf32Cols32 = k20_mma_split_k::matmul_mma_splitk_tf32_128x32, "mma-splitk-tf32-128x32", Tf32, k20_mma_split_k::MMA_SPLITK_TF32_128X32;
    /// Kernel 20 on a 128×64 tile (BF16): products 33–64 columns wide, `A` read once.
    MmaSplitKBf16Cols64 = k20_mma_split_k::matmul_mma_splitk_bf16_128x64, "mma-splitk-bf16-128x64", Bf16, k20_mma_split_k::MMA_SPLITK_BF16_128X64;
    /// Kernel 20, 128×64, FP16.
    MmaSplitKF16Cols64 = k20_mma_split_k::matmul_mma_splitk_f16_128x64, "mma-splitk-f16-128x64", Fp16, k20_mma_split_k::MMA_SPLITK_F16_128X64;
    /// Kernel 21: BF16 inputs widened to f32 on the CUDA cores, kernel 10's 64×64×16 tile, K split
    /// over `gridDim.z` (one slice stores `C`): small products, any alignment, one launch.
    WidenedBf16 = k21_widened::matmul_widened_bf16_64x64, "widened-bf16-64x64", Bf16, k21_widened::WIDENED_BF16_64X64;
    /// Kernel 21 on FP16 inputs, 64×64×16.
    WidenedF16 = k21_widened::matmul_widened_f16_64x64, "widened-f16-64x64", Fp16, k21_widened::WIDENED_F16_64X64;
    /// Kernel 21 on BF16, 128×32×16: small products a few columns wide.
    WidenedBf16Cols32 = k21_widened::matmul_widened_bf16_128x32, "widened-bf16-128x32", Bf16, k21_widened::WIDENED_BF16_128X32;
    /// Kernel 21 on FP16, 128×32×16.
    WidenedF16Cols32 = k21_widened::matmul_widened_f16_128x32, "widened-f16-128x32", Fp16, k21_widened::WIDENED_F16_128X32;
    /// Kernel 21 on BF16, 32×128×16: small products a few rows tall.
    WidenedBf16Rows32 = k21_widened::matmul_widened_bf16_32x128, "widened-bf16-32x128", Bf16, k21_widened::WIDENED_BF16_32X128;
    /// Kernel 21 on FP16, 32×128×16.
    WidenedF16Rows32 = k21_widened::matmul_widened_f16_32x128, "widened-f16-32x128", Fp16, k21_widened::WIDENED_F16_32X128;
    /// Kernel 21 on BF16, kernel 8's 128×128×8 tile: short K over large outputs, where the product
    /// is its store of `C`.
    WidenedBf16Wide = k21_widened::matmul_widened_bf16_128x128, "widened-bf16-128x128", Bf16, k21_widened::WIDENED_BF16_128X128;
    /// Kernel 21 on FP16, 128×128×8.
    WidenedF16Wide = k21_widened::matmul_widened_f16_128x128, "widened-f16-128x128", Fp16, k21_widened::WIDENED_F16_128X128;
    /// Kernel 21's 64×64×16 BF16 tile under kernel 17's stream-K walk: small products with long K,
    /// every tile's K-steps over the blocks that fit at once.
    WidenedStreamKBf16 = k21_widened::matmul_widened_streamk_bf16_64x64, "widened-streamk-bf16-64x64", Bf16, k21_widened::WIDENED_STREAMK_BF16_64X64;
    /// Kernel 21's stream-K entry on FP16.
    WidenedStreamKF16 = k21_widened::matmul_widened_streamk_f16_64x64, "widened-streamk-f16-64x64", Fp16, k21_widened::WIDENED_STREAMK_F16_64X64;
    /// Kernel 18 on BF16 inputs widened to f32 (exact): products of up to 16 rows, bound by reading
    /// `B` once.
    FewRowsBf16 = k18_few_rows::matmul_few_rows_bf16, "few-rows-bf16", Bf16, k18_few_rows::CONFIG_HALF;
    /// Kernel 18 on FP16 inputs widened to f32.
    FewRowsF16 = k18_few_rows::matmul_few_rows_f16, "few-rows-f16", Fp16, k18_few_rows::CONFIG_HALF;
    /// Kernel 19 on BF16 inputs widened to f32 (exact): products a few columns wide, bound by reading
    /// `A` once.
    FewColsBf16 = k19_few_cols::matmul_few_cols_bf16, "few-cols-bf16", Bf16, k19_few_cols::CONFIG;
    /// Kernel 19 on FP16 inputs widened to f32.
    FewColsF16 = k19_few_cols::matmul_few_cols_f16, "few-cols-f16", Fp16, k19_few_cols::CONFIG;
    /// Kernel 19 with K split inside the block, BF16 inputs widened to f32: 4-row blocks whose eight
    /// warps each take an eighth of K — one slice where its 32-row blocks need several.
    FewColsKsplitBf16 = k19_few_cols::matmul_few_cols_ksplit_bf16, "few-cols-ksplit-bf16", Bf16, k19_few_cols::KSPLIT_CONFIG;
    /// Kernel 19 with K split inside the block, FP16 inputs widened to f32.
    FewColsKsplitF16 = k19_few_cols::matmul_few_cols_ksplit_f16, "few-cols-ksplit-f16", Fp16, k19_few_cols::KSPLIT_CONFIG;
    /// Kernel 2 on BF16 inputs widened to f32 (exact): the tiniest products, where a block's fixed
    /// costs are the time.
    TiledBf16 = k02_tiled::matmul_tiled_bf16, "tiled-bf16", Bf16, k02_tiled::CONFIG;
    /// Kernel 2 on FP16 inputs widened to f32.
    TiledF16 = k02_tiled::matmul_tiled_f16, "tiled-f16", Fp16, k02_tiled::CONFIG;
    /// Kernel 25: FP8 E4M3 on kernel 16's pipeline (`Bᵀ` prepared), 128×128×128 tiles, sums promoted
    /// into `f32` every K-step, per-tensor scales.
    Fp8E4m3 = k25_fp8::matmul_fp8_e4m3_128x128, "fp8-e4m3-128x128", Fp8E4m3 via fp8, k25_fp8::FP8_E4M3_128X128;
    /// Kernel 25 on FP8 E5M2.
    Fp8E5m2 = k25_fp8::matmul_fp8_e5m2_128x128, "fp8-e5m2-128x128", Fp8E5m2 via fp8, k25_fp8::FP8_E5M2_128X128;
    /// Kernel 25 on FP8 E4M3, 64×128 tiles (one consumer warpgroup), 9 stages: few rows, few tiles.
    Fp8E4m3Rows64 = k25_fp8::matmul_fp8_e4m3_64x128, "fp8-e4m3-64x128", Fp8E4m3 via fp8, k25_fp8::FP8_E4M3_64X128;
    /// Kernel 25 on FP8 E5M2, 64×128 tiles.
    Fp8E5m2Rows64 = k25_fp8::matmul_fp8_e5m2_64x128, "fp8-e5m2-64x128", Fp8E5m2 via fp8, k25_fp8::FP8_E5M2_64X128;
    /// Kernel 25 on FP8 E4M3 with block scales (1 × 128 of A, 128 × 128 of `Bᵀ`: DeepSeek-V3's
    /// recipe), promoted every K-step.
    Fp8E4m3Blocks = k25_fp8::matmul_fp8_e4m3_blocks_128x128, "fp8-e4m3-blocks-128x128", Fp8E4m3 via fp8, k25_fp8::FP8_E4M3_BLOCKS_128X128;
    /// Kernel 25 on FP8 E5M2 with block scales.
    Fp8E5m2Blocks = k25_fp8::matmul_fp8_e5m2_blocks_128x128, "fp8-e5m2-blocks-128x128", Fp8E5m2 via fp8, k25_fp8::FP8_E5M2_BLOCKS_128X128;
    /// Kernel 25 on FP8 E4M3, promoted, in kernel 24's clusters of two blocks sharing `Bᵀ`'s tile.
    Fp8E4m3Pairs = k25_fp8::matmul_fp8_e4m3_pairs_128x128, "fp8-e4m3-pairs-128x128", Fp8E4m3 via fp8, k25_fp8::FP8_E4M3_PAIRS_128X128;
    /// Kernel 25 on FP8 E5M2, promoted, in pairs.
    Fp8E5m2Pairs = k25_fp8::matmul_fp8_e5m2_pairs_128x128, "fp8-e5m2-pairs-128x128", Fp8E5m2 via fp8, k25_fp8::FP8_E5M2_PAIRS_128X128;
    /// Kernel 25 on FP8 E4M3 with block scales, in pairs.
    Fp8E4m3BlocksPairs = k25_fp8::matmul_fp8_e4m3_blocks_pairs_128x128, "fp8-e4m3-blocks-pairs-128x128", Fp8E4m3 via fp8, k25_fp8::FP8_E4M3_BLOCKS_PAIRS_128X128;
    /// Kernel 25 on FP8 E5M2 with block scales, in pairs.
    Fp8E5m2BlocksPairs = k25_fp8::matmul_fp8_e5m2_blocks_pairs_128x128, "fp8-e5m2-blocks-pairs-128x128", Fp8E5m2 via fp8, k25_fp8::FP8_E5M2_BLOCKS_PAIRS_128X128;
    /// Kernel 25 on FP8 E4M3, unpromoted (the tensor core's FP8 accumulation over all of K: faster,
    /// less accurate; never `Auto`'s), 128×256 tiles.
    Fp8E4m3Fast = k25_fp8::matmul_fp8_e4m3_fast_128x256, "fp8-e4m3-fast-128x256", Fp8E4m3 via fp8, k25_fp8::FP8_E4M3_FAST_128X256;
    /// Kernel 25 on FP8 E5M2, unpromoted.
    Fp8E5m2Fast = k25_fp8::matmul_fp8_e5m2_fast_128x256, "fp8-e5m2-fast-128x256", Fp8E5m2 via fp8, k25_fp8::FP8_E5M2_FAST_128X256;
    /// Kernel 27: kernel 16 finishing its sums in its store (`α`, bias, activation, `f32`/BF16/FP16
    /// `C`), BF16, 128×128; `Auto`'s only where a product asks for that.
    FusedBf16 = k27_fused::matmul_fused_bf16_128x128, "fused-bf16-128x128", Bf16 via fused, k27_fused::FUSED_BF16_128X128;
    /// Kernel 27 on BF16, 64×128.
    FusedBf16Rows64 = k27_fused::matmul_fused_bf16_64x128, "fused-bf16-64x128", Bf16 via fused, k27_fused::FUSED_BF16_64X128;
    /// Kernel 27 on FP16, 128×128.
    FusedF16 = k27_fused::matmul_fused_f16_128x128, "fused-f16-128x128", Fp16 via fused, k27_fused::FUSED_F16_128X128;
    /// Kernel 27 on FP16, 64×128.
    FusedF16Rows64 = k27_fused::matmul_fused_f16_64x128, "fused-f16-64x128", Fp16 via fused, k27_fused::FUSED_F16_64X128;
    /// Kernel 27 in TF32, 128×128.
    FusedTf32 = k27_fused::matmul_fused_tf32_128x128, "fused-tf32-128x128", Tf32 via fused, k27_fused::FUSED_TF32_128X128;
    /// Kernel 27 in TF32, 64×128.
    FusedTf32Rows64 = k27_fused::matmul_fused_tf32_64x128, "fused-tf32-64x128", Tf32 via fused, k27_fused::FUSED_TF32_64X128;
    /// Kernel 27 on BF16, 128×256.
    FusedBf16Wide = k27_fused::matmul_fused_bf16_128x256, "fused-bf16-128x256", Bf16 via fused, k27_fused::FUSED_BF16_128X256;
    /// Kernel 27 on BF16, 128×192.
    FusedBf16Mid = k27_fused::matmul_fused_bf16_128x192, "fused-bf16-128x192", Bf16 via fused, k27_fused::FUSED_BF16_128X192;
    /// Kernel 27 on BF16, 64×256.
    FusedBf16Rows64Wide = k27_fused::matmul_fused_bf16_64x256, "fused-bf16-64x256", Bf16 via fused, k27_fused::FUSED_BF16_64X256;
    /// Kernel 27 on FP16, 128×256.
    FusedF16Wide = k27_fused::matmul_fused_f16_128x256, "fused-f16-128x256", Fp16 via fused, k27_fused::FUSED_F16_128X256;
    /// Kernel 27 on FP16, 128×192.
    FusedF16Mid = k27_fused::matmul_fused_f16_128x192, "fused-f16-128x192", Fp16 via fused, k27_fused::FUSED_F16_128X192;
    /// Kernel 27 on FP16, 64×256.
    FusedF16Rows64Wide = k27_fused::matmul_fused_f16_64x256, "fused-f16-64x256", Fp16 via fused, k27_fused::FUSED_F16_64X256;
    /// Kernel 27 in TF32, 128×256.
    FusedTf32Wide = k27_fused::matmul_fused_tf32_128x256, "fused-tf32-128x256", Tf32 via fused, k27_fused::FUSED_TF32_128X256;
    /// Kernel 27 in TF32, 64×256.
    FusedTf32Rows64Wide = k27_fused::matmul_fused_tf32_64x256, "fused-tf32-64x256", Tf32 via fused, k27_fused::FUSED_TF32_64X256;
    /// Kernel 27 in kernel 24's clusters of two blocks along M sharing B's tiles, BF16, 128×256.
    FusedClusterBf16Wide = k27_fused::matmul_fused_cluster_bf16_128x256, "fused-cluster-bf16-128x256", Bf16 via fused, k27_fused::FUSED_CLUSTER_BF16_128X256;
    /// Kernel 27 in clusters, FP16, 128×256.
    FusedClusterF16Wide = k27_fused::matmul_fused_cluster_f16_128x256, "fused-cluster-f16-128x256", Fp16 via fused, k27_fused::FUSED_CLUSTER_F16_128X256;
    /// Kernel 27 in clusters, BF16, 128×192.
    FusedClusterBf16Mid = k27_fused::matmul_fused_cluster_bf16_128x192, "fused-cluster-bf16-128x192", Bf16 via fused, k27_fused::FUSED_CLUSTER_BF16_128X192;
    /// Kernel 27 in clusters, FP16, 128×192.
    FusedClusterF16Mid = k27_fused::matmul_fused_cluster_f16_128x192, "fused-cluster-f16-128x192", Fp16 via fused, k27_fused::FUSED_CLUSTER_F16_128X192;
    /// Kernel 27 in clusters, BF16, 128×128.
    FusedClusterBf16 = k27_fused::matmul_fused_cluster_bf16_128x128, "fused-cluster-bf16-128x128", Bf16 via fused, k27_fused::FUSED_CLUSTER_BF16_128X128;
    /// Kernel 27 in clusters, FP16, 128×128.
    FusedClusterF16 = k27_fused::matmul_fused_cluster_f16_128x128, "fused-cluster-f16-128x128", Fp16 via fused, k27_fused::FUSED_CLUSTER_F16_128X128;
    /// Kernel 31: kernel 27 on a ping-pong schedule (two consumer warpgroups on alternate 64×256
    /// tiles: one finishes its sums while the other's `wgmma`s run), BF16. By name only: it ran at
    /// 0.83–0.91 of the 128×128 units (`tc_model::ping_pong_in_auto`).
    PingPongBf16 = k31_pingpong::matmul_pingpong_bf16_64x256, "pingpong-bf16-64x256", Bf16 via fused, k31_pingpong::PINGPONG_BF16_64X256;
    /// Kernel 31 on FP16.
    PingPongF16 = k31_pingpong::matmul_pingpong_f16_64x256, "pingpong-f16-64x256", Fp16 via fused, k31_pingpong::PINGPONG_F16_64X256;
    /// Kernel 31's schedule on kernel 16's plain product (`f32` sums stored by the threads behind the
    /// other warpgroup's `wgmma`s), BF16. By name only (0.82–0.85 of kernel 16's 128×256 tile).
    PingPongPlainBf16 = k31_pingpong::matmul_pingpong_plain_bf16_64x256, "pingpong-plain-bf16-64x256", Bf16 via tma, k31_pingpong::PINGPONG_PLAIN_BF16_64X256;
    /// Kernel 31's plain product on FP16.
    PingPongPlainF16 = k31_pingpong::matmul_pingpong_plain_f16_64x256, "pingpong-plain-f16-64x256", Fp16 via tma, k31_pingpong::PINGPONG_PLAIN_F16_64X256;
    /// Kernel 31 on 128×128 units (each warpgroup a whole tile, two `m64n128` slices), BF16,
    /// finishing its sums.
    PingPongBf16x128 = k31_pingpong::matmul_pingpong_bf16_128x128, "pingpong-bf16-128x128", Bf16 via fused, k31_pingpong::PINGPONG_BF16_128X128;
    /// Kernel 31 on 128×128 units, FP16, finishing its sums.
    PingPongF16x128 = k31_pingpong::matmul_pingpong_f16_128x128, "pingpong-f16-128x128", Fp16 via fused, k31_pingpong::PINGPONG_F16_128X128;
    /// Kernel 31 on 128×128 units, BF16, plain `f32` sums.
    PingPongPlainBf16x128 = k31_pingpong::matmul_pingpong_plain_bf16_128x128, "pingpong-plain-bf16-128x128", Bf16 via tma, k31_pingpong::PINGPONG_PLAIN_BF16_128X128;
    /// Kernel 31 on 128×128 units, FP16, plain `f32` sums.
    PingPongPlainF16x128 = k31_pingpong::matmul_pingpong_plain_f16_128x128, "pingpong-plain-f16-128x128", Fp16 via tma, k31_pingpong::PINGPONG_PLAIN_F16_128X128;
    /// Kernel 31's 128×128 units in kernel 24's clusters of two blocks along M sharing B's tiles
    /// (multicast), BF16, finishing its sums.
    PingPongPairsBf16x128 = k31_pingpong::matmul_pingpong_pairs_bf16_128x128, "pingpong-pairs-bf16-128x128", Bf16 via fused, k31_pingpong::PINGPONG_PAIRS_BF16_128X128;
    /// Kernel 31's pairs, FP16, finishing its sums.
    PingPongPairsF16x128 = k31_pingpong::matmul_pingpong_pairs_f16_128x128, "pingpong-pairs-f16-128x128", Fp16 via fused, k31_pingpong::PINGPONG_PAIRS_F16_128X128;
    /// Kernel 31's pairs, BF16, plain `f32` sums.
    PingPongPlainPairsBf16x128 = k31_pingpong::matmul_pingpong_plain_pairs_bf16_128x128, "pingpong-plain-pairs-bf16-128x128", Bf16 via tma, k31_pingpong::PINGPONG_PLAIN_PAIRS_BF16_128X128;
    /// Kernel 31's pairs, FP16, plain `f32` sums.
    PingPongPlainPairsF16x128 = k31_pingpong::matmul_pingpong_plain_pairs_f16_128x128, "pingpong-plain-pairs-f16-128x128", Fp16 via tma, k31_pingpong::PINGPONG_PLAIN_PAIRS_F16_128X128;
    /// Kernel 29: kernel 8's 128×128×16 tile (FP32) finishing its sums in its store, as kernel 27.
    FusedF32 = k29_fused_f32::matmul_fused_f32_128x128x16, "fused-f32-128x128x16", Fp32 via fused_f32, k29_fused_f32::FUSED_F32_128X128X16;
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

    /// The precision the kernel computes in; `None` for `Auto` (which takes the caller's).
    pub fn precision(self) -> Option<Precision> {
        self.kernel().map(|k| k.precision)
    }

    /// The algorithm whose label is `label` (as printed by [`Algo::label`]).
    pub fn from_label(label: &str) -> Option<Algo> {
        Algo::ALL.into_iter().find(|a| a.label() == label)
    }
}

/// Every product a test suite runs on its odd shapes: each kernel in its own precision, then `Auto`
/// in each precision of [`Precision::ALL`]. FP8 is not among them (its K must be a multiple of 16,
/// its inputs one byte): [`fp8_cases`].
pub fn matmul_cases() -> Vec<(Algo, Precision)> {
    let kernels = MATMUL_KERNELS.iter().filter(|k| !k.precision.is_fp8()).map(|k| (k.algo, k.precision));
    kernels.chain(Precision::ALL.into_iter().map(|p| (Algo::Auto, p))).collect()
}

/// The FP8 products a test suite runs: each FP8 kernel in its format (the block-scaled ones,
/// `TileConfig::fp8_block_scales`, take block scales), then `Auto` in each format.
pub fn fp8_cases() -> Vec<(Algo, Precision)> {
    let kernels = MATMUL_KERNELS.iter().filter(|k| k.precision.is_fp8()).map(|k| (k.algo, k.precision));
    kernels.chain([Precision::Fp8E4m3, Precision::Fp8E5m2].map(|p| (Algo::Auto, p))).collect()
}

/// The label of a case of [`matmul_cases`]: the kernel's label, or `auto-<precision>`.
pub fn case_label(algo: Algo, precision: Precision) -> String {
    match algo {
        Algo::Auto => format!("auto-{}", precision.label()),
        other => other.label().to_string(),
    }
}
