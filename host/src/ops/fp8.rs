//! Conversions to FP8 on the GPU ([`Gpu::convert_to_fp8`]): `f32` or BF16 matrices rounded to E4M3
//! or E5M2, to nearest even and saturated to the format's largest finite value (NVIDIA's SATFINITE,
//! bit for bit the `float8` crate's `from_f32`). FP8 is the caller's explicit choice: nothing in
//! tessera converts to it unasked.
use cudarc::driver::PushKernelArg;
use float8::{F8E4M3, F8E5M2};
use half::bf16;
use tessera_catalogue::registry::launch;

use super::launch_config;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix};

/// A type [`Gpu::convert_to_fp8`] reads: `f32` or `bf16`.
pub trait Fp8Source: DeviceElement {
    /// The kernels' names for this source type: to E4M3, to E5M2.
    #[doc(hidden)]
    const KERNELS: (&'static str, &'static str);
}
impl Fp8Source for f32 {
    const KERNELS: (&'static str, &'static str) = ("f32_to_e4m3", "f32_to_e5m2");
}
impl Fp8Source for bf16 {
    const KERNELS: (&'static str, &'static str) = ("bf16_to_e4m3", "bf16_to_e5m2");
}

/// An FP8 format [`Gpu::convert_to_fp8`] writes: [`F8E4M3`] or [`F8E5M2`].
pub trait Fp8Format: DeviceElement {
    /// Picks this format's kernel from a source's pair.
    #[doc(hidden)]
    fn kernel(pair: (&'static str, &'static str)) -> &'static str;
}
impl Fp8Format for F8E4M3 {
    fn kernel(pair: (&'static str, &'static str)) -> &'static str {
        pair.0
    }
}
impl Fp8Format for F8E5M2 {
    fn kernel(pair: (&'static str, &'static str)) -> &'static str {
        pair.1
    }
}

impl Gpu {
    /// `dst = src` rounded to FP8 (`D`: E4M3 or E5M2), element by element on the GPU (queued on the
    /// stream): nearest even, saturated to ±448 (E4M3) or ±57344 (E5M2), NaN kept.
    ///
    /// Errors, before any GPU work: [`Error::ShapeMismatch`] when the shapes differ,
    /// [`Error::WrongContext`] for a matrix of another GPU, [`Error::BufferTooSmall`] for a matrix
    /// whose buffer was replaced by a shorter one.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::float8::F8E4M3;
    /// use tessera::{DeviceMatrix, Gpu};
    /// let gpu = Gpu::new(0)?;
    /// let x = DeviceMatrix::from_slice(&gpu, 1, 3, &[0.3f32, 500.0, -1e-9])?;
    /// let mut q = DeviceMatrix::<F8E4M3>::zeros(&gpu, 1, 3)?;
    /// gpu.convert_to_fp8(&x, &mut q)?; // 0.3 → 0.3125, 500 → 448 (saturated), -1e-9 → -0
    /// # Ok(()) }
    /// ```
    pub fn convert_to_fp8<S: Fp8Source, D: Fp8Format>(&self, src: &DeviceMatrix<S>, dst: &mut DeviceMatrix<D>) -> Result<()> {
        const OP: &str = "Gpu::convert_to_fp8";
        self.check_usable()?;
        if src.shape() != dst.shape() {
            let ((r, c), (dr, dc)) = (src.shape(), dst.shape());
            return Err(Error::ShapeMismatch { op: OP, detail: format!("src is {r}×{c}, dst is {dr}×{dc}") });
        }
        src.buffer().check_context(self, OP)?;
        dst.buffer().check_context(self, OP)?;
        let n = crate::matrix::element_count(OP, src.rows(), src.cols())?;
        for (name, len) in [("src", src.buffer().len()), ("dst", dst.buffer().len())] {
            if len < n {
                return Err(Error::BufferTooSmall { op: OP, name, len, needed: n });
            }
        }
        if n == 0 {
            return Ok(());
        }
        let entry = D::kernel(S::KERNELS);
        let cfg = launch_config(launch::fp8_convert(n)?);
        let mut launch = self.stream().launch_builder(self.kernel(entry)?);
        launch.arg(&src.buffer().slice).arg(&mut dst.buffer_mut().slice).arg(&n);
        // SAFETY: the kernel (src, dst, n: usize) reads src[0..n] and writes dst[0..n] (one byte
        // each); both buffers hold at least n elements (checked above) and live in this context.
        self.launched(unsafe { launch.launch(cfg) })
    }
}
