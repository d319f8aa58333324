//! tessera's operations on the CPU executor: the same kernels and launch configurations as
//! `tessera::Gpu::matmul`, for tests without a GPU and for teaching (`scorecard --device cpu`).
use tessera::ops::{Algo, MatmulShape};
use tessera::HostMatrix;
use tessera_kernels::matmul::{
    k01_naive::matmul_naive, k02_tiled::matmul_tiled, k03_blocktile_1d::matmul_blocktile_1d, k04_blocktile_2d::matmul_blocktile_2d,
    k05_vectorized::matmul_vectorized, k06_conflict_free::matmul_conflict_free, k07_warptile::matmul_warptile,
    k08_double_buffer::{matmul_dbuf_128x128x16, matmul_dbuf_128x128x8, matmul_dbuf_128x256x16, matmul_dbuf_128x256x16_rolled, matmul_dbuf_128x64x16, matmul_dbuf_64x64x16},
    k09_async_pipeline::matmul_async_64x64x16_s3,
    k10_split_k::{matmul_splitk_128x128x16, matmul_splitk_64x64x16},
};

use crate::{launch, EmuError, Launch, SyncPtr};

/// The host build of `algo`'s kernel (after `Auto` is resolved for the shape).
fn kernel_fn(algo: Algo) -> unsafe fn(*const f32, *const f32, *mut f32, u32, u32, u32) {
    match algo {
        Algo::Naive => matmul_naive,
        Algo::Tiled => matmul_tiled,
        Algo::Blocktile1d => matmul_blocktile_1d,
        Algo::Blocktile2d => matmul_blocktile_2d,
        Algo::Vectorized => matmul_vectorized,
        Algo::ConflictFree => matmul_conflict_free,
        Algo::Warptile => matmul_warptile,
        Algo::Dbuf128x128x8 => matmul_dbuf_128x128x8,
        Algo::Dbuf128x128x16 => matmul_dbuf_128x128x16,
        Algo::Dbuf128x64x16 => matmul_dbuf_128x64x16,
        Algo::Dbuf64x64x16 => matmul_dbuf_64x64x16,
        Algo::Dbuf128x256x16 => matmul_dbuf_128x256x16,
        Algo::Dbuf128x256x16Rolled => matmul_dbuf_128x256x16_rolled,
        Algo::SplitK128x128x16 => matmul_splitk_128x128x16,
        Algo::SplitK64x64x16 => matmul_splitk_64x64x16,
        Algo::Async64x64x16s3 => matmul_async_64x64x16_s3,
        // `resolve` never returns Auto; map it to its resolution for a 1×1×1 problem to stay total.
        Algo::Auto => kernel_fn(Algo::Auto.resolve(MatmulShape { m: 1, n: 1, k: 1 })),
    }
}

/// `a · b` computed by `algo`'s kernel on the CPU executor, with the GPU launch configuration.
/// `C` starts as NaN (zeros for split-K, as on the GPU), so an element no thread writes shows up in any check.
pub fn matmul(algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    let name = algo.kernel_name();
    let shape = MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols))
        .map_err(|e| EmuError::InvalidLaunch { kernel: name, detail: e.to_string() })?;
    if a.data.len() != a.rows * a.cols || b.data.len() != b.rows * b.cols {
        return Err(EmuError::InvalidLaunch { kernel: name, detail: "matrix data length differs from rows·cols".into() });
    }
    if shape.m == 0 || shape.n == 0 || shape.k == 0 {
        return Ok(HostMatrix::from_fn(a.rows, b.cols, |_, _| 0.0));
    }
    let algo = algo.resolve(shape);
    let cfg = algo.launch_config(shape);
    let cfg = Launch::new(cfg.grid_dim, cfg.block_dim, cfg.shared_mem_bytes as usize);
    let kernel = kernel_fn(algo);
    // Split-K adds into C, which the host zeroes first; every other kernel must write each element.
    let mut c = vec![if algo.accumulates_into_c() { 0.0 } else { f32::NAN }; a.rows * b.cols];
    let (pa, pb, pc) = (SyncPtr::from_const(a.data.as_ptr()), SyncPtr::from_const(b.data.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
    let (m, n, k) = (shape.m, shape.n, shape.k);
    launch(algo.kernel_name(), cfg, || {
        // SAFETY: a, b, c hold m·k, k·n and m·n floats (checked above) and outlive the launch; the
        // launch configuration is the one the kernels document (the host crate's), and
        // MatmulShape::check guarantees the sizes fit the kernels' 32-bit indexing.
        unsafe { kernel(pa.get(), pb.get(), pc.get(), m, n, k) }
    })?;
    Ok(HostMatrix { rows: a.rows, cols: b.cols, data: c })
}
