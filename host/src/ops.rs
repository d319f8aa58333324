//! The typed launches: argument checks, launch configuration, and the kernel call.
use cudarc::driver::{LaunchConfig, PushKernelArg};

use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceMatrix, HostMatrix};

/// Which matmul kernel to run (the rungs of the ladder in `kernels/src/matmul/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algo {
    /// `k01_naive`: one thread per element, operands from global memory.
    Naive,
    /// `k02_tiled`: 16×16 tiles staged in shared memory.
    Tiled,
    /// `k03_blocktile_1d`: 64×64 block tile, 16 outputs per thread along M.
    Blocktile1d,
    /// `k04_blocktile_2d`: 128×128 block tile, 8×8 register block per thread.
    Blocktile2d,
    /// `k05_vectorized`: kernel 4 with float4 global/shared accesses, `A` transposed in shared memory.
    Vectorized,
    /// `k06_conflict_free`: kernel 5 with a bank-conflict-free shared layout.
    ConflictFree,
    /// `k07_warptile`: warp tiling (8 warps of 64×32 in a 128×128×8 block tile).
    Warptile,
    /// `k08_double_buffer` 128×128×8: double-buffered shared tiles, `cp.async` for `B`.
    Dbuf128x128x8,
    /// `k08_double_buffer` 128×128×16.
    Dbuf128x128x16,
    /// `k08_double_buffer` 128×64×16 (128 threads).
    Dbuf128x64x16,
    /// `k08_double_buffer` 64×64×16 (128 threads).
    Dbuf64x64x16,
    /// `k08_double_buffer` 128×256×16 (8×16 outputs per thread): the fastest tile on large outputs.
    Dbuf128x256x16,
    /// `k08_double_buffer` 128×256×16 with its K-step loop kept rolled by 4 (a measured lesson: slower).
    Dbuf128x256x16Rolled,
    /// `k09_async_pipeline` 64×64×16, 3 stages: every tile copy asynchronous and element-wise, the
    /// path for N or K not multiples of 4.
    Async64x64x16s3,
    /// `k10_split_k`: kernel 8's 128×128×16 tile with K divided among `tuning::splits` blocks per tile.
    SplitK128x128x16,
    /// `k10_split_k` over the 64×64×16 tile (128 threads), for the smallest outputs.
    SplitK64x64x16,
    /// Picks the measured-best kernel for the shape (see [`crate::tuning`]).
    Auto,
}

/// A block-tiled kernel's geometry: block tile `bm × bn × bk`, threads, dynamic shared bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileConfig {
    pub bm: u32,
    pub bn: u32,
    pub bk: u32,
    pub threads: u32,
    pub shared_bytes: u32,
}

impl TileConfig {
    const fn new(bm: u32, bn: u32, bk: u32, threads: u32, shared_bytes: u32) -> Self {
        Self { bm, bn, bk, threads, shared_bytes }
    }
}

/// `kernels`' `k08_double_buffer::shared_bytes`: two stages of `a_tile[bk][bm + 4]`, `b_tile[bk][bn]`.
const fn dbuf_shared(bm: u32, bn: u32, bk: u32) -> u32 {
    2 * (bk * (bm + 4) + bk * bn) * 4
}

/// `kernels`' `k09_async_pipeline::shared_bytes`: `stages` stages of `a_tile[bk][bm + 4]`, `b_tile[bk][bn]`.
const fn async_shared(bm: u32, bn: u32, bk: u32, stages: u32) -> u32 {
    stages * (bk * (bm + 4) + bk * bn) * 4
}

impl Algo {
    /// Every algorithm, in ladder order, then `Auto`.
    pub const ALL: [Algo; 17] = [
        Algo::Naive,
        Algo::Tiled,
        Algo::Blocktile1d,
        Algo::Blocktile2d,
        Algo::Vectorized,
        Algo::ConflictFree,
        Algo::Warptile,
        Algo::Dbuf128x128x8,
        Algo::Dbuf128x128x16,
        Algo::Dbuf128x64x16,
        Algo::Dbuf64x64x16,
        Algo::Dbuf128x256x16,
        Algo::Dbuf128x256x16Rolled,
        Algo::Async64x64x16s3,
        Algo::SplitK128x128x16,
        Algo::SplitK64x64x16,
        Algo::Auto,
    ];

    /// The kernel's entry name in the PTX module (`Auto`: the name of no entry, "matmul_auto";
    /// [`Algo::resolve`] it first).
    pub fn kernel_name(self) -> &'static str {
        match self {
            Algo::Naive => "matmul_naive",
            Algo::Tiled => "matmul_tiled",
            Algo::Blocktile1d => "matmul_blocktile_1d",
            Algo::Blocktile2d => "matmul_blocktile_2d",
            Algo::Vectorized => "matmul_vectorized",
            Algo::ConflictFree => "matmul_conflict_free",
            Algo::Warptile => "matmul_warptile",
            Algo::Dbuf128x128x8 => "matmul_dbuf_128x128x8",
            Algo::Dbuf128x128x16 => "matmul_dbuf_128x128x16",
            Algo::Dbuf128x64x16 => "matmul_dbuf_128x64x16",
            Algo::Dbuf64x64x16 => "matmul_dbuf_64x64x16",
            Algo::Dbuf128x256x16 => "matmul_dbuf_128x256x16",
            Algo::Dbuf128x256x16Rolled => "matmul_dbuf_128x256x16_rolled",
            Algo::SplitK128x128x16 => "matmul_splitk_128x128x16",
            Algo::SplitK64x64x16 => "matmul_splitk_64x64x16",
            Algo::Async64x64x16s3 => "matmul_async_64x64x16_s3",
            Algo::Auto => "matmul_auto",
        }
    }

    /// A short label for tables ("naive", "tiled", …).
    pub fn label(self) -> &'static str {
        match self {
            Algo::Naive => "naive",
            Algo::Tiled => "tiled",
            Algo::Blocktile1d => "blocktile-1d",
            Algo::Blocktile2d => "blocktile-2d",
            Algo::Vectorized => "vectorized",
            Algo::ConflictFree => "conflict-free",
            Algo::Warptile => "warptile",
            Algo::Dbuf128x128x8 => "dbuf-128x128x8",
            Algo::Dbuf128x128x16 => "dbuf-128x128x16",
            Algo::Dbuf128x64x16 => "dbuf-128x64x16",
            Algo::Dbuf64x64x16 => "dbuf-64x64x16",
            Algo::Dbuf128x256x16 => "dbuf-128x256x16",
            Algo::Dbuf128x256x16Rolled => "dbuf-128x256x16-rolled",
            Algo::SplitK128x128x16 => "splitk-128x128x16",
            Algo::SplitK64x64x16 => "splitk-64x64x16",
            Algo::Async64x64x16s3 => "async-64x64x16-s3",
            Algo::Auto => "auto",
        }
    }

    /// The concrete kernel for `shape`: `Auto` consults [`crate::tuning::pick`], others are themselves.
    pub fn resolve(self, shape: MatmulShape) -> Algo {
        match self {
            Algo::Auto => crate::tuning::pick(shape),
            other => other,
        }
    }

    /// The block tile of the block-tiled kernels (k03 onwards); `None` for naive, tiled and `Auto`.
    pub fn tile(self) -> Option<TileConfig> {
        Some(match self {
            Algo::Naive | Algo::Tiled | Algo::Auto => return None,
            Algo::Blocktile1d => TileConfig::new(64, 64, 8, 256, (64 * 8 + 8 * 64) * 4),
            Algo::Blocktile2d | Algo::Vectorized => TileConfig::new(128, 128, 8, 256, (128 * 8 + 8 * 128) * 4),
            Algo::ConflictFree | Algo::Warptile => TileConfig::new(128, 128, 8, 256, (8 * 132 + 8 * 128) * 4),
            Algo::Dbuf128x128x8 => TileConfig::new(128, 128, 8, 256, dbuf_shared(128, 128, 8)),
            Algo::Dbuf128x128x16 => TileConfig::new(128, 128, 16, 256, dbuf_shared(128, 128, 16)),
            Algo::Dbuf128x64x16 => TileConfig::new(128, 64, 16, 128, dbuf_shared(128, 64, 16)),
            Algo::Dbuf64x64x16 => TileConfig::new(64, 64, 16, 128, dbuf_shared(64, 64, 16)),
            Algo::Dbuf128x256x16 | Algo::Dbuf128x256x16Rolled => TileConfig::new(128, 256, 16, 256, dbuf_shared(128, 256, 16)),
            Algo::SplitK128x128x16 => TileConfig::new(128, 128, 16, 256, dbuf_shared(128, 128, 16)),
            Algo::SplitK64x64x16 => TileConfig::new(64, 64, 16, 128, dbuf_shared(64, 64, 16)),
            Algo::Async64x64x16s3 => TileConfig::new(64, 64, 16, 128, async_shared(64, 64, 16, 3)),
        })
    }

    /// Bytes of global-memory loads and stores the kernel *issues* for `shape`, counted from its code
    /// (caches may serve part of them; this is the traffic the algorithm asks for):
    /// - naive: every thread loads a row of A and a column of B (`2·M·N·K` floats) and stores one float;
    /// - tiled: each 16×16 block loads its A and B tiles once per K-step (`2·M·N·K / 16` floats, counted
    ///   over padded tiles) and stores its outputs;
    /// - block-tiled (k03–k08), tile `BM×BN×BK`: every block loads its `BM×K` strip of A and `K×BN`
    ///   strip of B once (`M·N·K·(1/BN + 1/BM)` floats over padded extents) and stores its outputs
    ///   (split-K: `S` atomic additions per output).
    pub fn global_bytes(self, shape: MatmulShape) -> f64 {
        let (m, n, k) = (shape.m as f64, shape.n as f64, shape.k as f64);
        let stores = 4.0 * m * n;
        let pad = |x: f64, t: f64| (x / t).ceil() * t;
        match self.resolve(shape) {
            Algo::Naive => 4.0 * 2.0 * m * n * k + stores,
            Algo::Tiled => {
                let t = TILE as f64;
                let (mp, np, kp) = (pad(m, t), pad(n, t), pad(k, t));
                4.0 * 2.0 * mp * np * kp / t + stores
            }
            other => {
                let cfg = other.tile().expect("block-tiled kernels have a tile");
                let (bm, bn, bk) = (cfg.bm as f64, cfg.bn as f64, cfg.bk as f64);
                let (mp, np, kp) = (pad(m, bm), pad(n, bn), pad(k, bk));
                4.0 * (mp * kp * np / bn + kp * np * mp / bm) + stores * other.splits(shape) as f64
            }
        }
    }

    /// Blocks that share one output tile along K (`gridDim.z`): [`crate::tuning::splits`] for split-K,
    /// 1 for every other kernel.
    pub fn splits(self, shape: MatmulShape) -> u32 {
        let algo = self.resolve(shape);
        match (algo.accumulates_into_c(), algo.tile()) {
            (true, Some(t)) => crate::tuning::splits(shape, t.bm, t.bn),
            _ => 1,
        }
    }

    /// Whether the kernel adds into `C` (split-K's atomic partial sums), so `C` must be zeroed first.
    pub fn accumulates_into_c(self) -> bool {
        matches!(self, Algo::SplitK128x128x16 | Algo::SplitK64x64x16)
    }

    /// Grid, block and dynamic shared memory for an `m × n` output.
    pub fn launch_config(self, shape: MatmulShape) -> LaunchConfig {
        match self.resolve(shape) {
            algo @ (Algo::Naive | Algo::Tiled) => {
                let grid = (shape.n.div_ceil(TILE), shape.m.div_ceil(TILE), 1);
                let shared = if algo == Algo::Tiled { 2 * TILE * TILE * 4 } else { 0 };
                LaunchConfig { grid_dim: grid, block_dim: (TILE, TILE, 1), shared_mem_bytes: shared }
            }
            other => {
                let cfg = other.tile().expect("block-tiled kernels have a tile");
                LaunchConfig {
                    grid_dim: (shape.n.div_ceil(cfg.bn), shape.m.div_ceil(cfg.bm), other.splits(shape)),
                    block_dim: (cfg.threads, 1, 1),
                    shared_mem_bytes: cfg.shared_bytes,
                }
            }
        }
    }
}

/// The tile edge of `k02_tiled` (and the block edge of `k01_naive`); must equal `kernels`' `TILE`.
const TILE: u32 = 16;
/// The largest grid y/z dimension CUDA allows.
const MAX_GRID_Y: u32 = 65_535;
/// The kernels index with 32-bit arithmetic: each matrix holds at most this many elements.
pub const MAX_MATRIX_ELEMENTS: usize = i32::MAX as usize;

/// A checked `C[m×n] = A[m×k] · B[k×n]` problem size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulShape {
    pub m: u32,
    pub n: u32,
    pub k: u32,
}

impl MatmulShape {
    /// Validates `A (a_rows×a_cols) · B (b_rows×b_cols) → C (c_rows×c_cols)`.
    ///
    /// Errors: [`Error::ShapeMismatch`] when the inner dimensions or `C` disagree,
    /// [`Error::TooLarge`] when a matrix exceeds [`MAX_MATRIX_ELEMENTS`] or the grid limit.
    pub fn check(a: (usize, usize), b: (usize, usize), c: (usize, usize)) -> Result<Self> {
        const OP: &str = "matmul";
        if a.1 != b.0 {
            return Err(Error::ShapeMismatch { op: OP, detail: format!("A is {}×{} but B is {}×{} (A.cols ≠ B.rows)", a.0, a.1, b.0, b.1) });
        }
        if c != (a.0, b.1) {
            return Err(Error::ShapeMismatch { op: OP, detail: format!("C is {}×{} but A·B is {}×{}", c.0, c.1, a.0, b.1) });
        }
        for (name, (r, col)) in [("A", a), ("B", b), ("C", c)] {
            let elems = r.checked_mul(col).unwrap_or(usize::MAX);
            if elems > MAX_MATRIX_ELEMENTS {
                return Err(Error::TooLarge { op: OP, detail: format!("{name} is {r}×{col}: more than {MAX_MATRIX_ELEMENTS} elements") });
            }
        }
        let shape = MatmulShape { m: a.0 as u32, n: b.1 as u32, k: a.1 as u32 };
        if shape.m.div_ceil(TILE) > MAX_GRID_Y {
            return Err(Error::TooLarge { op: OP, detail: format!("M = {} needs more than {MAX_GRID_Y} block rows", shape.m) });
        }
        Ok(shape)
    }

    /// Floating-point operations: one multiply and one add per `(i, j, k)`.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// The fewest bytes any algorithm must move: read A and B once, write C once.
    pub fn min_bytes(&self) -> f64 {
        let (m, n, k) = (self.m as f64, self.n as f64, self.k as f64);
        4.0 * (m * k + k * n + m * n)
    }
}

impl Gpu {
    /// The common checks of `c = a ∘ b`: all three buffers in this context and of one length, which
    /// it returns.
    fn check_binary_elementwise(&self, op: &'static str, a: &DeviceBuffer<f32>, b: &DeviceBuffer<f32>, c: &DeviceBuffer<f32>) -> Result<usize> {
        for buf in [a, b, c] {
            buf.check_context(self, op)?;
        }
        let n = a.len();
        if b.len() != n || c.len() != n {
            return Err(Error::ShapeMismatch { op, detail: format!("lengths a = {n}, b = {}, c = {}", b.len(), c.len()) });
        }
        Ok(n)
    }

    /// `c = a + b`, element-wise, on the GPU (queued on the stream), with the vectorized grid-stride
    /// kernel `vec_add_vec4` (128-bit loads and stores, a few blocks per SM looping over the array):
    /// 0.965 of the device-to-device copy bandwidth on the H200 (`docs/results/`).
    ///
    /// All three buffers must have the same length. Length 0 is a no-op.
    pub fn vec_add(&self, a: &DeviceBuffer<f32>, b: &DeviceBuffer<f32>, c: &mut DeviceBuffer<f32>) -> Result<()> {
        let n = self.check_binary_elementwise("vec_add", a, b, c)?;
        if n == 0 {
            return Ok(());
        }
        let cfg = grid_stride_config(n, self.sm_count());
        let mut launch = self.stream().launch_builder(self.kernel("vec_add_vec4")?);
        launch.arg(&a.slice).arg(&b.slice).arg(&mut c.slice).arg(&n);
        // SAFETY: vec_add_vec4(a, b, c, n) touches a, b, c in [0, n) only; all three hold exactly n
        // floats (checked above) and are whole allocations of the CUDA allocator, so 16-byte aligned
        // as the kernel requires; any grid is correct (grid-stride).
        self.launched(unsafe { launch.launch(cfg) })
    }

    /// `c = a + b` with the seed's kernel, one thread per element (`vec_add`): the teaching version,
    /// and the one the CUDA C anchor implements; 0.83 of the copy bandwidth on the H200.
    pub fn vec_add_scalar(&self, a: &DeviceBuffer<f32>, b: &DeviceBuffer<f32>, c: &mut DeviceBuffer<f32>) -> Result<()> {
        let n = self.check_binary_elementwise("vec_add_scalar", a, b, c)?;
        if n == 0 {
            return Ok(());
        }
        let cfg = vec_add_config(n)?;
        let mut launch = self.stream().launch_builder(self.kernel("vec_add")?);
        launch.arg(&a.slice).arg(&b.slice).arg(&mut c.slice).arg(&n);
        // SAFETY: vec_add(a, b, c, n: usize) reads a[0..n], b[0..n] and writes c[0..n]; all three
        // buffers hold exactly n floats (checked above) and live in this context.
        self.launched(unsafe { launch.launch(cfg) })
    }

    /// `c = a · b` with the chosen kernel (queued on the stream).
    ///
    /// `m = 0` or `n = 0` is a no-op (C is empty); `k = 0` sets `C` to zeros (an empty sum).
    pub fn matmul(&self, algo: Algo, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix) -> Result<()> {
        const OP: &str = "matmul";
        let shape = MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (c.rows, c.cols))?;
        for (name, m) in [("A", a), ("B", b), ("C", &*c)] {
            m.buf.check_context(self, OP)?;
            let needed = m.rows * m.cols;
            if m.buf.len() < needed {
                return Err(Error::BufferTooSmall { op: OP, name, len: m.buf.len(), needed });
            }
        }
        if shape.m == 0 || shape.n == 0 {
            return Ok(());
        }
        if shape.k == 0 {
            let mut out = c.buf.slice.slice_mut(0..c.rows * c.cols);
            return self.stream().memset_zeros(&mut out).map_err(Error::driver("zeroing C", 0));
        }
        let (m, n, k) = (shape.m, shape.n, shape.k);
        let algo = algo.resolve(shape);
        if algo.accumulates_into_c() {
            let mut out = c.buf.slice.slice_mut(0..c.rows * c.cols);
            self.stream().memset_zeros(&mut out).map_err(Error::driver("zeroing C", 0))?;
        }
        let mut launch = self.stream().launch_builder(self.kernel(algo.kernel_name())?);
        launch.arg(&a.buf.slice).arg(&b.buf.slice).arg(&mut c.buf.slice).arg(&m).arg(&n).arg(&k);
        // SAFETY: matmul_*(a, b, c, m, n, k) index A < m·k, B < k·n, C < m·n (see the kernel docs);
        // the buffers hold at least that many floats (checked above), the launch config is the one
        // the kernel documents (Algo::launch_config: threads and dynamic shared memory per kernel), and
        // every product fits in 32 bits (MatmulShape::check).
        self.launched(unsafe { launch.launch(algo.launch_config(shape)) })
    }

    /// Uploads `a` and `b`, runs [`Gpu::matmul`], and downloads the product.
    pub fn matmul_host(&self, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix> {
        MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols))?;
        let (da, db) = (DeviceMatrix::from_host(self, a)?, DeviceMatrix::from_host(self, b)?);
        let mut dc = DeviceMatrix::zeros(self, a.rows, b.cols)?;
        self.matmul(algo, &da, &db, &mut dc)?;
        self.synchronize()?;
        dc.to_host(self)
    }

    /// Uploads `a` and `b`, runs [`Gpu::vec_add`], and downloads the sum.
    pub fn vec_add_host(&self, a: &[f32], b: &[f32]) -> Result<Vec<f32>> {
        if a.len() != b.len() {
            return Err(Error::ShapeMismatch { op: "vec_add", detail: format!("lengths a = {}, b = {}", a.len(), b.len()) });
        }
        let (da, db) = (DeviceBuffer::from_host(self, a)?, DeviceBuffer::from_host(self, b)?);
        let mut dc = DeviceBuffer::zeros(self, a.len())?;
        self.vec_add(&da, &db, &mut dc)?;
        self.synchronize()?;
        dc.to_host(self)
    }
}

/// The launch configuration of [`Gpu::vec_add_scalar`] for `n` elements: 256 threads per block, one element
/// per thread (public so the CPU executor tests launch exactly what the GPU launches).
pub fn vec_add_config(n: usize) -> Result<LaunchConfig> {
    elementwise_config("vec_add", n)
}

/// The launch configuration of the grid-stride `vec_add_vec4` for `n` floats on a GPU with `sms` SMs:
/// 256 threads per block, enough blocks for one float4 per thread but at most 8 blocks per SM (a
/// full SM's worth of threads on sm_90), so the threads loop over the rest. Always at least one block.
pub fn grid_stride_config(n: usize, sms: u32) -> LaunchConfig {
    const BLOCK: usize = 256;
    let wanted = n.div_ceil(4).div_ceil(BLOCK).max(1);
    let blocks = wanted.min(sms.max(1) as usize * 8) as u32;
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK as u32, 1, 1), shared_mem_bytes: 0 }
}

/// The launch configuration of tessera's one-element-per-thread kernels (`vec_add`, `iterated_fma`)
/// for `n` elements: 256 threads per block, `⌈n / 256⌉` blocks. Errors with [`Error::TooLarge`]
/// (naming `op`) past the grid limit.
pub fn elementwise_config(op: &'static str, n: usize) -> Result<LaunchConfig> {
    const BLOCK: usize = 256;
    let blocks = u32::try_from(n.div_ceil(BLOCK))
        .ok()
        .filter(|&b| b <= i32::MAX as u32)
        .ok_or_else(|| Error::TooLarge { op, detail: format!("{n} elements exceed the grid limit") })?;
    Ok(LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK as u32, 1, 1), shared_mem_bytes: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_check_accepts_compatible_shapes() {
        let s = MatmulShape::check((17, 9), (9, 33), (17, 33)).unwrap();
        assert_eq!((s.m, s.n, s.k), (17, 33, 9));
        assert_eq!(s.flops(), 2.0 * 17.0 * 33.0 * 9.0);
    }

    #[test]
    fn shape_check_rejects_inner_mismatch() {
        assert!(matches!(MatmulShape::check((4, 5), (6, 7), (4, 7)), Err(Error::ShapeMismatch { .. })));
    }

    #[test]
    fn shape_check_rejects_wrong_output() {
        assert!(matches!(MatmulShape::check((4, 5), (5, 7), (7, 4)), Err(Error::ShapeMismatch { .. })));
    }

    #[test]
    fn shape_check_rejects_oversized_and_overflowing() {
        assert!(matches!(MatmulShape::check((1 << 16, 1 << 16), (1 << 16, 1), (1 << 16, 1)), Err(Error::TooLarge { .. })));
        assert!(matches!(MatmulShape::check((usize::MAX, 2), (2, 1), (usize::MAX, 1)), Err(Error::TooLarge { .. })));
        // 2^20 rows × 1 column fits in i32 elements but needs 65,536 > 65,535 block rows.
        assert!(matches!(MatmulShape::check((1 << 20, 1), (1, 1), (1 << 20, 1)), Err(Error::TooLarge { .. })));
    }

    #[test]
    fn launch_config_covers_odd_shapes() {
        let s = MatmulShape { m: 17, n: 33, k: 9 };
        let cfg = Algo::Tiled.launch_config(s);
        assert_eq!(cfg.grid_dim, (3, 2, 1));
        assert_eq!(cfg.block_dim, (16, 16, 1));
        assert_eq!(cfg.shared_mem_bytes, 2048);
        assert_eq!(Algo::Naive.launch_config(s).shared_mem_bytes, 0);
    }

    #[test]
    fn traffic_counts_match_hand_worked_values() {
        let s = MatmulShape { m: 1024, n: 1024, k: 1024 };
        // The seed's figures: naive issues 2.1 B float loads at 1024³, tiled 134 M.
        assert_eq!((Algo::Naive.global_bytes(s) - 4.0 * 1024.0 * 1024.0) / 4.0, 2_147_483_648.0);
        assert_eq!((Algo::Tiled.global_bytes(s) - 4.0 * 1024.0 * 1024.0) / 4.0, 134_217_728.0);
        assert_eq!(s.min_bytes(), 12.0 * 1024.0 * 1024.0);
        // 17×33×9 pads to 32×48×16 for the tiled count: 2·32·48·16/16 loads + 17·33 stores.
        let odd = MatmulShape { m: 17, n: 33, k: 9 };
        assert_eq!(Algo::Tiled.global_bytes(odd), 4.0 * (2.0 * 32.0 * 48.0 + 17.0 * 33.0));
    }

    #[test]
    fn grid_stride_config_caps_at_eight_blocks_per_sm() {
        assert_eq!(grid_stride_config(1, 132).grid_dim, (1, 1, 1));
        assert_eq!(grid_stride_config(1024, 132).grid_dim, (1, 1, 1));
        assert_eq!(grid_stride_config(1025, 132).grid_dim, (2, 1, 1));
        assert_eq!(grid_stride_config(1 << 26, 132).grid_dim, (132 * 8, 1, 1));
        assert_eq!(grid_stride_config(1 << 26, 0).grid_dim, (8, 1, 1));
    }

    #[test]
    fn vec_add_config_rounds_up() {
        assert_eq!(vec_add_config(1).unwrap().grid_dim, (1, 1, 1));
        assert_eq!(vec_add_config(257).unwrap().grid_dim, (2, 1, 1));
        assert!(vec_add_config(usize::MAX).is_err());
    }
}
