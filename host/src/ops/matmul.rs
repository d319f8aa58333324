//! `C = A · B` on the GPU with any kernel of the catalogue.
use cudarc::driver::PushKernelArg;
use tessera_catalogue::{Algo, HostMatrix, MatmulShape};

use super::launch_config;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::DeviceMatrix;

impl Gpu {
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
        if algo.accumulates_into_c(shape) {
            let mut out = c.buf.slice.slice_mut(0..c.rows * c.cols);
            self.stream().memset_zeros(&mut out).map_err(Error::driver("zeroing C", 0))?;
        }
        let mut launch = self.stream().launch_builder(self.kernel(algo.kernel_name())?);
        launch.arg(&a.buf.slice).arg(&b.buf.slice).arg(&mut c.buf.slice).arg(&m).arg(&n).arg(&k);
        // SAFETY: matmul_*(a, b, c, m, n, k) index A < m·k, B < k·n, C < m·n (see the kernel docs);
        // the buffers hold at least that many floats (checked above), the launch is the one the kernel
        // states (its TileConfig, through the catalogue: threads and dynamic shared memory), C is zeroed
        // for split-K, and every product fits in 32 bits (MatmulShape::check).
        self.launched(unsafe { launch.launch(launch_config(algo.launch(shape))) })
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
}
