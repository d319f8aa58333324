//! `Algo::Auto`: which kernel configuration to run for a shape.
//!
//! The rule is derived from a measured table (`docs/tuning.md`, reproduced by the scorecard command
//! written there). The decisive quantity is how many blocks a tile gives relative to the GPU's 132
//! SMs: a 128×256 tile is the most efficient per block (8×16 outputs per thread, lowest traffic), but
//! shapes with a small output leave SMs idle with it; split-K then multiplies the blocks along K, and
//! rows that are not 16-byte aligned take the element-wise asynchronous copies of kernel 9.
use crate::algo::Algo;
use crate::precision::Precision;
use crate::shape::MatmulShape;

/// SMs of the H200 the table was measured on (the rule only uses it as a scale).
pub const SMS: u32 = 132;

/// Output tiles (blocks per K slice) `algo` launches for `shape`; `Auto` counts the kernel it resolves to.
pub fn blocks(algo: Algo, shape: MatmulShape) -> u32 {
    let t = algo.resolve(shape).config().unwrap_or(tessera_kernels::matmul::k01_naive::CONFIG);
    shape.m.div_ceil(t.bm) * shape.n.div_ceil(t.bn)
}

impl Algo {
    /// The concrete FP32 kernel for `shape`: `Auto` consults [`pick`], others are themselves.
    pub fn resolve(self, shape: MatmulShape) -> Algo {
        self.resolve_for(shape, Precision::Fp32)
    }

    /// The concrete kernel for `shape` in `precision`: `Auto` consults [`pick`] (FP32) or
    /// [`pick_tensor_core`], others are themselves (whether they compute in `precision` is the
    /// caller's check).
    pub fn resolve_for(self, shape: MatmulShape, precision: Precision) -> Algo {
        self.resolve_on(shape, precision, true)
    }

    /// As [`Algo::resolve_for`] on a GPU that runs the sm_90a (`wgmma`) kernels or not.
    pub fn resolve_on(self, shape: MatmulShape, precision: Precision, sm90a: bool) -> Algo {
        match (self, precision) {
            (Algo::Auto, Precision::Fp32) => pick(shape),
            (Algo::Auto, p) => pick_tensor_core(shape, p, sm90a),
            (other, _) => other,
        }
    }
}

/// The tensor-core kernel `Algo::Auto` runs for `shape` in `precision` (TF32, BF16, FP16).
///
/// On Hopper (`sm90a`), where the TMA takes the operands' rows (16-byte rows: K, and N for B, multiples
/// of 8 in BF16/FP16, K a multiple of 4 in TF32; [`crate::tma::fits`]): kernel 16 (persistent, TMA,
/// warp-specialised). Measured (docs/results/2026-11-30-persistent-probe, H200, ÷ cuBLAS of the same
/// precision): BF16 0.93 / 1.00 at 4096³ / 8192³, FP16 0.96 / 0.98, TF32 0.82 / 0.91; it matched or
/// beat kernels 14 and 15 on every size of that run but one: in TF32 with N ≤ 128, half of its
/// 256-wide tile idles and kernel 13's 128×128 tile wins (8192×128×8192: 70 against 45 TFLOP/s), so
/// TF32 takes kernel 13 there.
/// Unaligned rows on Hopper: kernel 14 (`cp.async` with guarded edges): the 128×256 tile when it gives
/// at least one block per SM, else BF16/FP16's 128×128 tile (2 blocks per SM); TF32 kernel 13.
/// Elsewhere kernel 13's 128×128 tile (docs/results/2026-11-30-tc-candidates: it beat the 128×256
/// tile by 15–25 %, two blocks of 4 warps per SM against one of 8).
pub fn pick_tensor_core(shape: MatmulShape, precision: Precision, sm90a: bool) -> Algo {
    let wide = |algo: Algo| blocks(algo, shape) >= SMS;
    let tma = |algo: Algo| algo.config().is_some_and(|c| crate::tma::fits(c, shape, precision.input_bytes()));
    match (precision, sm90a) {
        (Precision::Bf16, true) if tma(Algo::PersistentBf16) => Algo::PersistentBf16,
        (Precision::Fp16, true) if tma(Algo::PersistentF16) => Algo::PersistentF16,
        (Precision::Tf32, true) if tma(Algo::PersistentTf32) && shape.n > 128 => Algo::PersistentTf32,
        (Precision::Bf16, true) if wide(Algo::WgmmaBf16) => Algo::WgmmaBf16,
        (Precision::Bf16, true) => Algo::WgmmaBf16Narrow,
        (Precision::Fp16, true) if wide(Algo::WgmmaF16) => Algo::WgmmaF16,
        (Precision::Fp16, true) => Algo::WgmmaF16Narrow,
        (Precision::Bf16, false) => Algo::MmaPipeBf16x128,
        (Precision::Fp16, false) => Algo::MmaPipeF16x128,
        (Precision::Tf32, _) => Algo::MmaPipeTf32,
        (Precision::Fp32, _) => pick(shape),
    }
}

/// The kernel `Algo::Auto` runs for `shape`.
///
/// Measured (docs/tuning.md, H200, 2026-11-30, every candidate beside cuBLAS in one run):
/// - N or K not a multiple of 4 (rows not 16-byte aligned, so the float4 paths of kernels 5–8 and 10
///   cannot run): the element-wise asynchronous copies of `async-64x64x16-s3` (1000×1037×519: 1.15×
///   the best kernel-8 tile);
/// - at least 128 tiles of 128×256 (about one per SM: 2048³ and up, 4096×4096×256): `dbuf-128x256x16`,
///   0.90–0.93 of cuBLAS;
/// - fewer output tiles, at least 32 of 128×128 (1024³, 256×4096×4096, 8192×128×8192: 64 tiles):
///   split-K over 128×128×16, 0.82 (the best unsplit tile: 0.64–0.81);
/// - fewer still (512³: 16 tiles): split-K over 64×64×16.
pub fn pick(shape: MatmulShape) -> Algo {
    if !shape.n.is_multiple_of(4) || !shape.k.is_multiple_of(4) {
        Algo::Async64x64x16s3
    } else if blocks(Algo::Dbuf128x256x16, shape) >= 128 {
        Algo::Dbuf128x256x16
    } else if blocks(Algo::Dbuf128x128x16, shape) >= 32 {
        Algo::SplitK128x128x16
    } else {
        Algo::SplitK64x64x16
    }
}

/// Split-K's blocks per output tile of `bm × bn` for `shape`: as many as keep the grid within one
/// wave of [`SMS`] blocks, and at least 64 of K (4 K-steps of 16) per slice; 1 when the tiles
/// already fill the GPU.
pub fn splits(shape: MatmulShape, bm: u32, bn: u32) -> u32 {
    let tiles = shape.m.div_ceil(bm) * shape.n.div_ceil(bn);
    (SMS / tiles.max(1)).min(shape.k / 64).max(1)
}

/// K-steps a slice of the persistent kernel's split-K keeps at least (its pipeline of 4 stages).
pub const MIN_SLICE_STEPS: u32 = 4;

/// K slices per output tile for the persistent kernel (16) with tile `cfg` on `shape`: when the tiles
/// do not fill one wave of [`SMS`] blocks, as many slices as bring the work units to about one per
/// SM, each at least [`MIN_SLICE_STEPS`] K-steps long; 1 otherwise.
pub fn persistent_splits(shape: MatmulShape, cfg: tessera_kernels::launch::TileConfig) -> u32 {
    let tiles = shape.m.div_ceil(cfg.bm) * shape.n.div_ceil(cfg.bn);
    let steps = shape.k.div_ceil(cfg.bk);
    if tiles >= SMS {
        1
    } else {
        (SMS / tiles.max(1)).min(steps / MIN_SLICE_STEPS).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_fill_one_wave_with_slices_of_at_least_64() {
        let s = |m, n, k| MatmulShape { m, n, k };
        assert_eq!(splits(s(256, 4096, 4096), 128, 128), 2); // 64 tiles → 128 blocks
        assert_eq!(splits(s(512, 512, 512), 64, 64), 2); // 64 tiles
        assert_eq!(splits(s(512, 512, 512), 128, 128), 8); // 16 tiles → 8, K / 64 = 8
        assert_eq!(splits(s(130, 70, 300), 128, 128), 4); // 2 tiles → 66, capped by K / 64 = 4
        assert_eq!(splits(s(4096, 4096, 4096), 128, 128), 1); // 1024 tiles: already full
        assert_eq!(splits(s(64, 64, 63), 64, 64), 1); // K too short to split
    }

    #[test]
    fn tensor_core_auto_uses_wgmma_only_where_sm90a_runs() {
        let s = |m, n, k| MatmulShape { m, n, k };
        let (big, small, odd) = (s(4096, 4096, 4096), s(512, 512, 512), s(1000, 1037, 519));
        assert_eq!(Algo::Auto.resolve_on(big, Precision::Bf16, true), Algo::PersistentBf16);
        assert_eq!(Algo::Auto.resolve_on(small, Precision::Bf16, true), Algo::PersistentBf16);
        assert_eq!(Algo::Auto.resolve_on(big, Precision::Fp16, true), Algo::PersistentF16);
        assert_eq!(Algo::Auto.resolve_on(big, Precision::Tf32, true), Algo::PersistentTf32);
        // Rows the TMA cannot take: kernel 14 (wide or narrow tile by the block count), TF32 kernel 13.
        assert_eq!(Algo::Auto.resolve_on(odd, Precision::Bf16, true), Algo::WgmmaBf16Narrow);
        assert_eq!(Algo::Auto.resolve_on(s(4096, 4100, 4100), Precision::Fp16, true), Algo::WgmmaF16);
        assert_eq!(Algo::Auto.resolve_on(s(1000, 1037, 518), Precision::Tf32, true), Algo::MmaPipeTf32);
        assert_eq!(Algo::Auto.resolve_on(s(8192, 128, 8192), Precision::Tf32, true), Algo::MmaPipeTf32);
        for shape in [big, small, odd, s(8192, 128, 8192)] {
            for p in [Precision::Bf16, Precision::Fp16, Precision::Tf32] {
                let algo = Algo::Auto.resolve_on(shape, p, true);
                let cfg = algo.config().unwrap();
                assert!(!cfg.tma || crate::tma::fits(cfg, shape, p.input_bytes()), "{p:?} {shape:?}: {algo:?} cannot take it");
                assert_eq!(algo.precision(), Some(p));
            }
        }
        for p in [Precision::Bf16, Precision::Fp16, Precision::Tf32] {
            let portable = Algo::Auto.resolve_on(big, p, false);
            assert!(portable.config().is_some_and(|c| !c.sm90a), "{p:?} picked {portable:?} without sm_90a");
            assert_eq!(portable.precision(), Some(p));
        }
        // The default (`resolve_for`) is this library's target, Hopper.
        assert_eq!(Algo::Auto.resolve_for(big, Precision::Bf16), Algo::PersistentBf16);
        assert_eq!(Algo::Auto.resolve_for(big, Precision::Fp32), pick(big));
    }

    #[test]
    fn persistent_split_k_fills_one_wave_with_slices_of_four_steps() {
        let s = |m, n, k| MatmulShape { m, n, k };
        let cfg = Algo::PersistentBf16.config().unwrap();
        assert_eq!(persistent_splits(s(4096, 4096, 4096), cfg), 1); // 512 tiles
        assert_eq!(persistent_splits(s(1024, 1024, 1024), cfg), 4); // 32 tiles, 16 steps
        assert_eq!(persistent_splits(s(256, 4096, 4096), cfg), 4); // 32 tiles, 64 steps
        assert_eq!(persistent_splits(s(8192, 128, 8192), cfg), 2); // 64 tiles
        assert_eq!(persistent_splits(s(512, 512, 512), cfg), 2); // 8 tiles, 8 steps
        assert_eq!(persistent_splits(s(64, 64, 64), cfg), 1); // one step
        let launch = Algo::PersistentBf16.launch(s(1024, 1024, 1024));
        assert_eq!((launch.grid.0 * launch.grid.1, launch.grid.1), (128, 4));
        assert!(Algo::PersistentBf16.accumulates_into_c(s(1024, 1024, 1024)));
        assert!(!Algo::PersistentBf16.accumulates_into_c(s(4096, 4096, 4096)));
    }

    #[test]
    fn pick_matches_the_measured_table() {
        let s = |m, n, k| MatmulShape { m, n, k };
        for (shape, best) in [
            (s(4096, 4096, 4096), Algo::Dbuf128x256x16),
            (s(2048, 2048, 2048), Algo::Dbuf128x256x16),
            (s(8192, 8192, 8192), Algo::Dbuf128x256x16),
            (s(4096, 4096, 256), Algo::Dbuf128x256x16),
            (s(512, 512, 512), Algo::SplitK64x64x16),
            (s(1024, 1024, 1024), Algo::SplitK128x128x16),
            (s(256, 4096, 4096), Algo::SplitK128x128x16),
            (s(1000, 1037, 519), Algo::Async64x64x16s3),
            (s(8192, 128, 8192), Algo::SplitK128x128x16),
        ] {
            assert_eq!(pick(shape), best, "{shape:?}");
            assert_eq!(Algo::Auto.resolve(shape), best);
        }
    }

    #[test]
    fn tensor_core_auto_takes_the_caller_precision() {
        let s = MatmulShape { m: 4096, n: 4096, k: 4096 };
        for p in [Precision::Tf32, Precision::Bf16, Precision::Fp16] {
            let algo = Algo::Auto.resolve_for(s, p);
            assert_eq!(algo.precision(), Some(p), "{p:?} → {}", algo.label());
        }
        // f32 data never silently runs in TF32.
        assert_eq!(Algo::Auto.resolve_for(s, Precision::Fp32).precision(), Some(Precision::Fp32));
    }
}
