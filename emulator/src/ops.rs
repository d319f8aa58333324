//! tessera's operations on the CPU executor: the catalogue's kernels with the catalogue's launch
//! dimensions — what `tessera::Gpu::matmul` launches — for tests without a GPU and for teaching
//! (`scorecard --device cpu`).
use tessera_catalogue::{Algo, HostMatrix, MatmulShape};

use crate::{launch, EmuError, Launch, SyncPtr};

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
    let kernel = algo.kernel().ok_or(EmuError::InvalidLaunch { kernel: name, detail: "Auto resolved to no kernel".into() })?;
    // Split-K adds into C, which the host zeroes first; every other kernel must write each element.
    let mut c = vec![if algo.accumulates_into_c(shape) { 0.0 } else { f32::NAN }; a.rows * b.cols];
    let (pa, pb, pc) = (SyncPtr::from_const(a.data.as_ptr()), SyncPtr::from_const(b.data.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
    let (m, n, k, host) = (shape.m, shape.n, shape.k, kernel.host);
    launch(kernel.entry, Launch::from(algo.launch(shape)), || {
        // SAFETY: a, b, c hold m·k, k·n and m·n floats (checked above) and outlive the launch; the
        // launch is the kernel's own (its TileConfig through the catalogue), and MatmulShape::check
        // guarantees the sizes fit the kernels' 32-bit indexing.
        unsafe { host(pa.get(), pb.get(), pc.get(), m, n, k) }
    })?;
    Ok(HostMatrix { rows: a.rows, cols: b.cols, data: c })
}
