//! Kernel 27: kernel 16 finishing its sums in its own store — `D = act(α·A·B + bias)`, `D` in `f32`,
//! BF16 or FP16 — for BF16, FP16 and TF32 inputs (sm_90a).
//!
//! **Why in the kernel**: a linear layer is `act(x·W + b)`, usually with a 16-bit output. As a pass
//! after the product, the bias and activation read `C` (4 bytes an element) and write it again: at
//! 8192×4096×4096 BF16, 128 MiB of `f32` `C` each way, ~60 µs at the H200's copy rate beside the
//! product's ~300 µs. Here each sum is finished on its way out: the store stages a warp's 16 rows
//! through shared memory a 32-column chunk at a time (kernel 15's epilogue), and each element read
//! back from there goes through `α`, the bias and the activation before its row is written
//! (`k15_tma::store_by_rows`, `store_half`: a 16-bit `D` halves the store's bytes). Not in
//! registers before the store, as kernel 25 does: a 128×256 tile keeps 128 accumulators a thread,
//! and an activation applied to them all at once — a call per element, or 128 inlined copies — made
//! ptxas spill 13 KB a thread and serialise the `wgmma`s (C7511). Staged, at most one chunk's values
//! are in flight, the activation is inlined once per row loop (kept a loop), and nothing spills. An `f32` `D` is stored by the threads too (the TMA's store writes a staged
//! chunk as it is).
//!
//! **Tiles**: kernel 16's — 128×256, 128×192, 128×128, 64×256 and 64×128 (TF32 without 128×192).
//! The first form of the finishing store (IEEE divisions in GELU and SiLU, a bias load an element,
//! BF16 rounded by integer code: 3,632 SASS instructions at 128×128) left the wide tiles no
//! registers: ptxas spilled 1.7–3.4 KB a thread at 128×256 and 64×256 and kept 128×192's
//! accumulators in local memory (C7514). With `rcp.approx`, a chunk's column biases read once and two
//! elements rounded by one `cvt` (2,224 instructions), every tile compiles without a spill
//! (`docs/ladder/k27-fused.md`).
//!
//! **Everything else is kernel 16's** — the walk ([`WorkUnits`], never split: 16-bit sums are not
//! added, and an activation is not additive), the pipeline, the tiles — through its
//! `Finish` step (`k16_persistent`): kernel 16's entries store the plain sums
//! (`Plain`), these finish them (`Finished`). They are separate entries so that the plain ones stay
//! as measured.
use super::k14_wgmma::WgmmaTile;
use super::k15_tma::{self, Staging, TmaArgs, WG_ROWS};
use super::k16_persistent::{walk_gemm, Finish, TmaFeed, WorkUnits};
use super::k24_cluster::{ClusterUnits, CLUSTER};
use crate::activation::Fused;
use crate::device::tma::TensorMap;
use crate::launch::TileConfig;

/// The output element types an entry takes (its `out` argument).
pub mod out {
    /// `f32`.
    pub const F32: u32 = 0;
    /// BF16, each sum rounded once to nearest.
    pub const BF16: u32 = 1;
    /// FP16, each sum rounded once to nearest (overflow to ±∞).
    pub const F16: u32 = 2;

    /// Bytes of one element of `out`.
    pub const fn bytes(out: u32) -> usize {
        if out == F32 {
            4
        } else {
            2
        }
    }
}

/// The launch of a kernel-27 entry: kernel 16's, finishing its sums.
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    super::k16_persistent::config(bm, bn, stages, elem).fused_epilogue()
}

/// Sums finished before they are stored: scaled by `alpha`, through `fused`, written as `out`; with
/// `PREFETCH`, each chunk's column biases loaded during the chunk before (`k15_tma::store_finished`).
#[derive(Clone, Copy)]
pub(crate) struct Finished<const PREFETCH: bool = true> {
    fused: Fused,
    alpha: f32,
    out: u32,
}

impl<const PREFETCH: bool> Finished<PREFETCH> {
    /// Sums scaled by `alpha`, through `fused`, written as `out` ([`out`]).
    #[inline(always)]
    pub(crate) fn new(fused: Fused, alpha: f32, out: u32) -> Self {
        Finished { fused, alpha, out }
    }
}

impl<const PREFETCH: bool> Finish for Finished<PREFETCH> {
    #[inline(always)]
    unsafe fn store<O: WgmmaTile>(
        self,
        acc: &O::Acc,
        c: *mut f32,
        at: usize,
        _map: *const TensorMap,
        staging: Staging,
        (rows, n): (u32, u32),
        (row0, col0): (u32, u32),
        cw: u32,
        _adds: bool,
    ) {
        // Applied to each element as its staged row goes out, the activation inlined: the
        // accumulators not yet staged stay live in registers meanwhile.
        // SAFETY: `c + at` holds rows · n elements of the entry's `out` type (the caller's
        // contract), `fused` was made for the rows × n output; finished sums are stored, never
        // added (the walk is unsplit).
        unsafe {
            k15_tma::store_finished::<O, PREFETCH>(
                acc,
                c.cast::<u8>().wrapping_add(at * out::bytes(self.out)).cast(),
                staging,
                (rows, n),
                (row0, col0),
                cw,
                self.out,
                (self.fused, self.alpha),
            )
        }
    }
}

/// `D = act(α·A·B + bias)` as [`super::k16_persistent::persistent_gemm`] computes `A·B`, unsplit.
///
/// # Safety
/// As [`super::k16_persistent::persistent_gemm`] with `gridDim.y = 1`; `c` holds `m·n` elements of
/// `out`'s type ([`out`]) and `map_c` is null unless `out` is [`out::F32`]; `bias` holds what
/// `epilogue`'s bias kind needs ([`Fused::new`]).
#[inline(always)]
pub unsafe fn fused_gemm<O: WgmmaTile, const S: u32, const NC: u32>(args: TmaArgs, alpha: f32, out: u32, bias: *const f32, epilogue: u32) {
    let TmaArgs { map_a, map_b, map_c, c, flags, m, n, k } = args;
    // SAFETY: the bias as the caller states.
    let fused = unsafe { Fused::new(bias, epilogue, m, n) };
    let finish = Finished { fused, alpha, out };
    // SAFETY: forwarded contract.
    unsafe { walk_gemm::<O, S, NC, 1, WorkUnits, TmaFeed, Finished>(TmaFeed { map_a, map_b }, (), finish, map_c, c, flags, m, n, k) }
}

/// The launch of a kernel-27 entry in kernel 24's clusters of [`CLUSTER`] blocks along M.
pub const fn cluster_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    config(bm, bn, stages, elem).clustered(CLUSTER)
}

/// `D = act(α·A·B + bias)` as [`fused_gemm`], walked by kernel 24's clusters of two blocks whose B
/// tiles are shared (each loads half, multicast into both): kernel 24's product, finished.
///
/// # Safety
/// As [`fused_gemm`], launched in clusters of [`CLUSTER`] blocks along `x` (the entry's
/// `.reqnctapercluster`; `gridDim.x` a multiple of it).
#[inline(always)]
pub unsafe fn fused_cluster_gemm<O: WgmmaTile, const S: u32, const NC: u32>(
    args: TmaArgs,
    alpha: f32,
    out: u32,
    bias: *const f32,
    epilogue: u32,
) {
    let TmaArgs { map_a, map_b, map_c, c, flags, m, n, k } = args;
    // SAFETY: the bias as the caller states.
    let fused = unsafe { Fused::new(bias, epilogue, m, n) };
    let finish = Finished { fused, alpha, out };
    // SAFETY: forwarded contract.
    unsafe {
        walk_gemm::<O, S, NC, CLUSTER, ClusterUnits<CLUSTER>, TmaFeed, Finished>(
            TmaFeed { map_a, map_b },
            (),
            finish,
            map_c,
            c,
            flags,
            m,
            n,
            k,
        )
    }
}

/// Declares a kernel-27 entry and its launch constant; the `@entry` form (kernel 31's) any entry
/// with kernel 27's arguments: its launch `$cfg`, its body `$body` (a function of `(TmaArgs, alpha,
/// out, bias, epilogue)` with kernel 27's contract) and the doc of its `# Safety`.
macro_rules! fused_entry {
    ($name:ident, $config:ident, $tile:ident, $elem:ty, stages $s:literal, consumers $c:literal, $doc:literal) => {
        fused_entry!(@entry $name, $config =
            config(WG_ROWS * $c, <super::k14_wgmma::$tile as WgmmaTile>::N, $s, core::mem::size_of::<$elem>() as u32),
            fused_gemm::<super::k14_wgmma::$tile, $s, $c>, "As [`fused_gemm`]", $doc);
    };
    ($name:ident, $config:ident, $tile:ident, stages $s:literal, clusters, $doc:literal) => {
        fused_entry!(@entry $name, $config = cluster_config(2 * WG_ROWS, <super::k14_wgmma::$tile as WgmmaTile>::N, $s, 2),
            fused_cluster_gemm::<super::k14_wgmma::$tile, $s, 2>, "As [`fused_cluster_gemm`]", $doc);
    };
    (@entry $name:ident, $config:ident = $cfg:expr, $body:path, $safety:literal, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: TileConfig = $cfg;

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            #[doc = concat!($safety, ", with the launch its `TileConfig` constant states.")]
            #[allow(clippy::too_many_arguments)] // the entry's parameters are its ABI, one per launch argument
            pub unsafe fn $name(
                map_a: *const TensorMap,
                map_b: *const TensorMap,
                map_c: *const TensorMap,
                c: *mut f32,
                flags: *mut u32,
                m: u32,
                n: u32,
                k: u32,
                alpha: f32,
                out: u32,
                bias: *const f32,
                epilogue: u32,
            ) {
                let args = TmaArgs { map_a, map_b, map_c, c, flags, m, n, k };
                // SAFETY: forwarded contract.
                unsafe { $body(args, alpha, out, bias, epilogue) }
            }
        }
    };
}

fused_entry!(matmul_fused_bf16_128x128, FUSED_BF16_128X128, Bf16N128, u16, stages 6, consumers 2,
    "Kernel 27 on BF16 inputs (sm_90a): kernel 16's 128×128×64 tiles, each sum finished in the store \
     (`α`, bias, activation; `f32`, BF16 or FP16 output).");
fused_entry!(matmul_fused_bf16_64x128, FUSED_BF16_64X128, Bf16N128, u16, stages 9, consumers 1,
    "Kernel 27 on BF16 inputs: kernel 16's 64×128 tiles (one consumer warpgroup), for few rows.");
fused_entry!(matmul_fused_f16_128x128, FUSED_F16_128X128, F16N128, u16, stages 6, consumers 2,
    "Kernel 27 on FP16 inputs: as [`matmul_fused_bf16_128x128`].");
fused_entry!(matmul_fused_f16_64x128, FUSED_F16_64X128, F16N128, u16, stages 9, consumers 1,
    "Kernel 27 on FP16 inputs: as [`matmul_fused_bf16_64x128`].");
fused_entry!(matmul_fused_tf32_128x128, FUSED_TF32_128X128, Tf32RegsN128, f32, stages 6, consumers 2,
    "Kernel 27 in TF32 (A rounded in registers, `Bᵀ` prepared: kernel 16's TF32 entries), 128×128×32 tiles.");
fused_entry!(matmul_fused_tf32_64x128, FUSED_TF32_64X128, Tf32RegsN128, f32, stages 9, consumers 1,
    "Kernel 27 in TF32: kernel 16's 64×128×32 tiles.");
fused_entry!(matmul_fused_bf16_128x256, FUSED_BF16_128X256, Bf16N256, u16, stages 4, consumers 2,
    "Kernel 27 on BF16 inputs: kernel 16's 128×256×64 tiles, 4 stages.");
fused_entry!(matmul_fused_bf16_128x192, FUSED_BF16_128X192, Bf16N192, u16, stages 5, consumers 2,
    "Kernel 27 on BF16 inputs: kernel 16's 128×192×64 tiles, 5 stages.");
fused_entry!(matmul_fused_bf16_64x256, FUSED_BF16_64X256, Bf16N256, u16, stages 5, consumers 1,
    "Kernel 27 on BF16 inputs: kernel 16's 64×256×64 tiles (one consumer warpgroup), 5 stages.");
fused_entry!(matmul_fused_f16_128x256, FUSED_F16_128X256, F16N256, u16, stages 4, consumers 2,
    "Kernel 27 on FP16 inputs: as [`matmul_fused_bf16_128x256`].");
fused_entry!(matmul_fused_f16_128x192, FUSED_F16_128X192, F16N192, u16, stages 5, consumers 2,
    "Kernel 27 on FP16 inputs: as [`matmul_fused_bf16_128x192`].");
fused_entry!(matmul_fused_f16_64x256, FUSED_F16_64X256, F16N256, u16, stages 5, consumers 1,
    "Kernel 27 on FP16 inputs: as [`matmul_fused_bf16_64x256`].");
fused_entry!(matmul_fused_tf32_128x256, FUSED_TF32_128X256, Tf32RegsN256, f32, stages 4, consumers 2,
    "Kernel 27 in TF32: kernel 16's 128×256×32 tiles, 4 stages.");
fused_entry!(matmul_fused_tf32_64x256, FUSED_TF32_64X256, Tf32RegsN256, f32, stages 5, consumers 1,
    "Kernel 27 in TF32: kernel 16's 64×256×32 tiles, 5 stages.");
fused_entry!(matmul_fused_cluster_bf16_128x256, FUSED_CLUSTER_BF16_128X256, Bf16N256, stages 4, clusters,
    "Kernel 27 on BF16 inputs in kernel 24's clusters (sm_90a): 128×256×64 tiles, two blocks along M sharing B's \
     tiles, each sum finished in the store.");
fused_entry!(matmul_fused_cluster_f16_128x256, FUSED_CLUSTER_F16_128X256, F16N256, stages 4, clusters,
    "Kernel 27 on FP16 inputs in kernel 24's clusters: as [`matmul_fused_cluster_bf16_128x256`].");
fused_entry!(matmul_fused_cluster_bf16_128x192, FUSED_CLUSTER_BF16_128X192, Bf16N192, stages 5, clusters,
    "Kernel 27 on BF16 inputs in kernel 24's clusters: 128×192×64 tiles, 5 stages.");
fused_entry!(matmul_fused_cluster_f16_128x192, FUSED_CLUSTER_F16_128X192, F16N192, stages 5, clusters,
    "Kernel 27 on FP16 inputs in kernel 24's clusters: as [`matmul_fused_cluster_bf16_128x192`].");
fused_entry!(matmul_fused_cluster_bf16_128x128, FUSED_CLUSTER_BF16_128X128, Bf16N128, stages 6, clusters,
    "Kernel 27 on BF16 inputs in kernel 24's clusters: 128×128×64 tiles, 6 stages.");
fused_entry!(matmul_fused_cluster_f16_128x128, FUSED_CLUSTER_F16_128X128, F16N128, stages 6, clusters,
    "Kernel 27 on FP16 inputs in kernel 24's clusters: as [`matmul_fused_cluster_bf16_128x128`].");
