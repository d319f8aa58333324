//! One matmul kernel's launch on a target: its tile grid, with the K slices the models choose
//! ([`tuning::splits_on`]: split-K kernels, the persistent kernel) or stream-K's resident blocks, and
//! whether `C` must be zeroed first. Planning, not the registry: the grid follows the models.
use crate::registry::algo::MatmulKernel;
use crate::registry::launch::LaunchDims;
use crate::select::tuning;
use crate::shape::MatmulShape;
use crate::target::Target;

/// The most K slices of one output tile a caller may ask for ([`MatmulKernel::most_k_slices`]): the
/// grid's `y` (persistent kernel) or `z` (split-K) stays far below its limit of 65,535, and past a few
/// dozen slices the atomic additions into one tile are the product.
pub const MAX_K_SLICES: u32 = 256;

impl MatmulKernel {
    /// The launch of this kernel for `shape` on `target`: `⌈N/bn⌉ × ⌈M/bm⌉` blocks of the kernel's
    /// tile, times [`MatmulKernel::splits`] along z (stream-K, kernels 17 and 22:
    /// [`tuning::stream_k_blocks`]; persistent kernels: one block per SM at most), with the kernel's
    /// threads and shared memory.
    pub fn launch(&self, shape: MatmulShape, target: Target) -> LaunchDims {
        self.launch_sliced(shape, target, self.splits(shape, target))
    }

    /// [`MatmulKernel::launch`] with `splits` K slices for the split-K and persistent kernels (1: each
    /// tile whole, what a product whose `C` is not `f32` needs: its slices could not add in it).
    pub fn launch_sliced(&self, shape: MatmulShape, target: Target, splits: u32) -> LaunchDims {
        let (algo, cfg, sms) = (self.algo, self.config, target.sms);
        let splits = splits.max(1);
        if cfg.cluster > 1 {
            // Whole clusters, one block per SM, at most one cluster per group of `cluster` tiles
            // along M (kernel 24's walk) — per K-step of the groups when it walks them stream-K; no
            // K slices.
            let p = cfg.cluster;
            let groups = u64::from(shape.n.div_ceil(cfg.bn)) * u64::from(shape.m.div_ceil(cfg.bm).div_ceil(p));
            let most = if cfg.stream_k { groups * u64::from(shape.k.div_ceil(cfg.bk).max(1)) } else { groups };
            let grid = (most.clamp(1, u64::from((sms / p).max(1))) as u32 * p, 1, 1);
            return LaunchDims { grid, block: (cfg.block.0, cfg.block.1, 1), shared_bytes: cfg.shared_bytes };
        }
        if cfg.stream_k {
            let grid = (tuning::stream_k_blocks(algo, shape, sms), 1, 1);
            return LaunchDims { grid, block: (cfg.block.0, cfg.block.1, 1), shared_bytes: cfg.shared_bytes };
        }
        if cfg.persistent {
            // One block per SM, at most one per work unit (a tile, or a K slice of one): each block
            // walks units; gridDim.y carries the number of slices per tile.
            let units = shape.n.div_ceil(cfg.bn) * shape.m.div_ceil(cfg.bm) * splits;
            let grid = (units.clamp(1, sms.max(1)).div_ceil(splits), splits, 1);
            return LaunchDims { grid, block: (cfg.block.0, cfg.block.1, 1), shared_bytes: cfg.shared_bytes };
        }
        let (rows, cols) = (shape.m.div_ceil(cfg.bm), shape.n.div_ceil(cfg.bn));
        LaunchDims {
            grid: if cfg.rows_on_x { (rows, cols, splits) } else { (cols, rows, splits) },
            block: (cfg.block.0, cfg.block.1, 1),
            shared_bytes: cfg.shared_bytes,
        }
    }

    /// Blocks that share one output tile along K on `target`: the model's slice count for split-K
    /// kernels (`gridDim.z`), [`crate::select::tc_model::best_splits`] for the persistent kernel (`gridDim.y`),
    /// 1 for every other kernel.
    pub fn splits(&self, shape: MatmulShape, target: Target) -> u32 {
        tuning::splits_on(self.algo, shape, target.sms)
    }

    /// The most K slices a caller may ask of this kernel on `shape` ([`crate::plan::Planner::with_k_slices`]):
    /// one per K-step of its tile (a slice of no step would only add zeros), at most [`MAX_K_SLICES`];
    /// `None` for a kernel whose launch takes no slices (every kernel but the split-K ones and the
    /// persistent kernel outside clusters: stream-K deals its own K-steps, a cluster's pair walks
    /// whole tiles).
    pub fn most_k_slices(&self, shape: MatmulShape) -> Option<u32> {
        let cfg = self.config;
        let slices = cfg.split_k || (cfg.persistent && !cfg.stream_k && cfg.cluster <= 1);
        slices.then(|| shape.k.div_ceil(cfg.bk.max(1)).clamp(1, MAX_K_SLICES))
    }

    /// Whether the launch [`MatmulKernel::launch`] plans adds into `C` (split-K's and stream-K's
    /// atomic partial sums), so `C` must be zeroed first: every split-K kernel, except kernel 18
    /// (`stores_unsplit`) launched with one slice, kernel 17 (stream-K on the CUDA cores), and the
    /// persistent kernel when it splits K. The TMA stream-K kernels (22, 24's stream-K entries) store
    /// first and add after, through counters ([`MatmulKernel::flag_words`]).
    pub fn accumulates_into_c(&self, shape: MatmulShape, target: Target) -> bool {
        self.accumulates_sliced(self.splits(shape, target))
    }

    /// [`MatmulKernel::accumulates_into_c`] launched with `splits` slices ([`MatmulKernel::launch_sliced`]).
    pub fn accumulates_sliced(&self, splits: u32) -> bool {
        let t = self.config;
        let sliced = || splits > 1;
        (t.split_k && (!t.stores_unsplit || sliced())) || (t.stream_k && !t.tma) || (t.persistent && !t.stream_k && sliced())
    }

    /// Zeroed `u32` counters the launch [`MatmulKernel::launch`] plans needs for its shared tiles
    /// (`k22_tma_stream_k::flag_words` of its grid: the TMA stream-K kernels), 0 for every other kernel.
    /// A launch leaves them zero, so one zeroed buffer serves every launch queued after another.
    pub fn flag_words(&self, shape: MatmulShape, target: Target) -> u32 {
        if self.config.stream_k && self.config.tma {
            tessera_kernels::matmul::k22_tma_stream_k::flag_words(self.launch(shape, target).grid.0)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::algo::Algo;

    const H: Target = Target::H200;

    fn k(algo: Algo) -> &'static MatmulKernel {
        algo.kernel().expect("a concrete kernel")
    }

    #[test]
    fn matmul_launch_covers_odd_shapes() {
        let s = MatmulShape { m: 17, n: 33, k: 9 };
        let tiled = k(Algo::Tiled).launch(s, H);
        assert_eq!(tiled.grid, (3, 2, 1));
        assert_eq!(tiled.block, (16, 16, 1));
        assert_eq!(tiled.shared_bytes, 2048);
        assert_eq!(k(Algo::Naive).launch(s, H).shared_bytes, 0);
        // k07's hard-won figure, now derived: (8·132 + 8·128)·4.
        assert_eq!(k(Algo::Warptile).launch(s, H).shared_bytes, 8_320);
    }

    #[test]
    fn split_k_launches_slices_along_z() {
        let s = MatmulShape { m: 256, n: 4096, k: 4096 };
        let z = k(Algo::SplitK128x128x16).splits(s, H);
        assert!(z > 1);
        assert_eq!(k(Algo::SplitK128x128x16).launch(s, H).grid, (32, 2, z));
        assert!(k(Algo::SplitK128x128x16).accumulates_into_c(s, H));
        assert!(!k(Algo::Dbuf128x128x16).accumulates_into_c(s, H));
        assert_eq!(k(Algo::Dbuf128x128x16).splits(s, H), 1);
    }

    #[test]
    fn few_row_tiles_walk_the_grid_x() {
        // Kernel 19's K-split entries: 4-row tiles along x, so 300,000 rows (75,000 tiles, past y's
        // 65,535) launch; their column tiles along y, so a named launch that needs more is refused.
        let s = |m, n, k| MatmulShape { m, n, k };
        let tall = s(300_000, 5, 64);
        assert_eq!(k(Algo::FewColsKsplitBf16).launch(tall, H).grid, (75_000, 2, 1));
        assert!(crate::plan::KernelLaunch::new(Algo::FewColsKsplitBf16, tall, H).is_ok());
        let wide = s(4, 300_000, 64);
        assert_eq!(k(Algo::FewColsKsplitF16).launch(wide, H).grid, (1, 75_000, 1));
        let refused = crate::plan::KernelLaunch::new(Algo::FewColsKsplitF16, wide, H);
        assert!(matches!(refused, Err(crate::error::PlanError::Shape(crate::error::ShapeError::TooLarge { .. }))), "{refused:?}");
        // Kernel 19's 32-row entries keep their rows along y.
        assert_eq!(k(Algo::FewColsBf16).launch(s(3000, 5, 64), H).grid, (2, 94, 1));
    }

    #[test]
    fn stream_k_launches_the_blocks_that_fit_at_once() {
        let s = |m, n, k| MatmulShape { m, n, k };
        // 64×64 tiles, four blocks per SM (the launch bound): 528 blocks for 64 tiles × 32 steps.
        let small = k(Algo::StreamK64x64x16).launch(s(512, 512, 512), H);
        assert_eq!((small.grid, small.block), ((132 * 4, 1, 1), (128, 1, 1)));
        // One block per SM for the 128×256 tile; never more blocks than K-steps.
        assert_eq!(k(Algo::StreamK128x256x16).launch(s(4096, 4096, 4096), H).grid, (132, 1, 1));
        assert_eq!(k(Algo::StreamK128x256x16).launch(s(4096, 4096, 4096), Target::new(114, true)).grid, (114, 1, 1));
        assert_eq!(k(Algo::StreamK128x128x16).launch(s(100, 100, 40), H).grid, (3, 1, 1));
        assert_eq!(k(Algo::StreamK128x128x16).launch(s(1, 1, 0), H).grid, (1, 1, 1));
        assert!(k(Algo::StreamK128x128x16).accumulates_into_c(s(4096, 4096, 4096), H));
        assert_eq!(k(Algo::StreamK128x128x16).splits(s(4096, 4096, 4096), H), 1);
        assert_eq!(k(Algo::StreamK128x128x16).flag_words(s(4096, 4096, 4096), H), 0);
    }

    #[test]
    fn tma_stream_k_launches_need_counters_not_a_zeroed_c() {
        let s = |m, n, k| MatmulShape { m, n, k };
        for algo in [Algo::StreamKTmaBf16, Algo::ClusterStreamKBf16Mid] {
            let (shape, kernel) = (s(2200, 2200, 2200), k(algo));
            assert!(!kernel.accumulates_into_c(shape, H), "{algo:?}");
            assert_eq!(kernel.flag_words(shape, H), 2 * kernel.launch(shape, H).grid.0 * 12, "{algo:?}");
        }
        // Kernel 24's stream-K grid: whole clusters, at most one per K-step of its pairs.
        assert_eq!(k(Algo::ClusterStreamKBf16).launch(s(2200, 2200, 2200), H).grid, (132, 1, 1));
        assert_eq!(k(Algo::ClusterStreamKBf16).launch(s(100, 100, 64), H).grid, (2, 1, 1));
        assert_eq!(k(Algo::ClusterStreamKBf16).launch(s(300, 200, 128), H).grid, (8, 1, 1));
        assert_eq!(k(Algo::PersistentBf16).flag_words(s(2200, 2200, 2200), H), 0);
    }
}
