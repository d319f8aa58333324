//! FP32 `Auto`'s unaligned path on the GPU ([`tessera_catalogue::select::fp32_padding`]): `A` and `B` copied
//! into zero-padded operands with N and K rounded up to 4, the kernel run on them, `C'` cropped back.
use std::sync::Arc;

use cudarc::driver::{CudaStream, DevicePtr, DevicePtrMut, PushKernelArg};
use tessera_catalogue::plan::KernelLaunch;
use tessera_catalogue::select::fp32_padding::{padded_shape, runs_on_padded_copies, Fp32Padding};
use tessera_catalogue::{Algo, Choice, MatmulShape, Planner, Precision};

use super::launch_config;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::DeviceMatrix;

impl Gpu {
    /// `c = a · b` in FP32 through the unaligned path, whatever the model predicts: `A` and `B` copied
    /// into zero-filled operands with N and K rounded up to multiples of 4, `algo` (an FP32 kernel, or
    /// `Auto`: its pick for the padded shape) run on them, and `C`'s padded rows cropped back — up to
    /// three copies (`copy_padded_f32`) besides the kernel, all on the stream. [`Gpu::matmul`] with
    /// `Auto` takes this path by itself where the model predicts it pays; this entry runs it always
    /// (to measure it, or for a caller who knows better).
    ///
    /// As [`Gpu::matmul`], `m = 0` or `n = 0` is a no-op and `k = 0` sets `C` to zeros.
    ///
    /// Errors, before any launch: [`Error::InvalidArgument`] when N and K are already multiples of 4 or
    /// `algo` is not an FP32 kernel that reads plain pointers (TMA and TF32 kernels are not), shape and
    /// buffer errors as [`Gpu::matmul`]'s, [`Error::TooLarge`] when the padded product passes one
    /// launch's limits.
    pub fn matmul_fp32_padded(&self, algo: Algo, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix) -> Result<()> {
        const OP: &str = "matmul_fp32_padded";
        let shape = MatmulShape::check((a.rows(), a.cols()), (b.rows(), b.cols()), (c.rows(), c.cols()))?;
        let invalid = |detail: String| Error::InvalidArgument { op: OP, detail };
        let padded = match padded_shape(shape) {
            Some(p) => p,
            None if shape.n.is_multiple_of(4) && shape.k.is_multiple_of(4) => {
                return Err(invalid(format!("{}×{}×{} needs no padding (N and K are multiples of 4)", shape.m, shape.n, shape.k)))
            }
            None => return Err(Error::TooLarge { op: OP, detail: "the padded operands pass one launch's limits".into() }),
        };
        let planner = Planner::new(OP, algo, Precision::Fp32, self.target());
        let algo = match algo {
            Algo::Auto => planner.choice(padded)?.kernel(),
            concrete => planner.choice(padded).map(|_| concrete)?,
        };
        if !runs_on_padded_copies(algo) {
            return Err(invalid(format!("{} does not read plain f32 pointers", algo.label())));
        }
        let plan = planner.launch_of(shape, Choice::Padded(Fp32Padding { shape, padded, algo }))?;
        for (name, buf, needed) in
            [("A", a.buffer(), a.rows() * a.cols()), ("B", b.buffer(), b.rows() * b.cols()), ("C", c.buffer(), c.rows() * c.cols())]
        {
            buf.check_context(self, OP)?;
            if buf.len() < needed {
                return Err(Error::BufferTooSmall { op: OP, name, len: buf.len(), needed });
            }
        }
        if shape.m == 0 || shape.n == 0 {
            return Ok(());
        }
        let stream = self.stream();
        if shape.k == 0 {
            let len = c.rows() * c.cols();
            let mut out = c.buffer_mut().slice.slice_mut(0..len);
            return stream.memset_zeros(&mut out).map_err(Error::driver("zeroing C", 0));
        }
        let (pa, _read_a) = a.buffer().slice.device_ptr(stream);
        let (pb, _read_b) = b.buffer().slice.device_ptr(stream);
        let (pc, _write_c) = c.buffer_mut().slice.device_ptr_mut(stream);
        // SAFETY: A, B, C are f32 buffers of this context holding m·k, k·n, m·n floats (checked above),
        // and the guards record their use after the launches are queued; `algo` reads plain pointers.
        unsafe { self.run_launch(stream, &plan, pa, pb, pc) }
    }

    /// Runs `plan` on the `f32` operands at `a`, `b`, `c` (see [`Gpu::matmul_fp32_padded`]): up to two
    /// copies into this GPU's workspace, the kernel (`launch`, planned on the padded shape), up to one
    /// copy back, in stream order.
    ///
    /// # Safety
    /// `a`, `b`, `c` address `m·k`, `k·n`, `m·n` floats (`plan.shape`) of this context, not written by
    /// other work until the launches complete on `stream`; `plan.algo` is a concrete FP32 kernel on
    /// pointers (not TMA, not TF32 operands), `launch` its plan on `plan.padded` for this GPU.
    pub(crate) unsafe fn matmul_padded_on(
        &self,
        stream: &Arc<CudaStream>,
        plan: &Fp32Padding,
        launch: &KernelLaunch,
        a: u64,
        b: u64,
        c: u64,
    ) -> Result<()> {
        let (m, n, k) = (plan.shape.m, plan.shape.n, plan.shape.k);
        let (n4, k4) = (plan.padded.n, plan.padded.k);
        let [a_len, b_len, c_len] = plan.workspace_floats();
        let total = a_len
            .checked_add(b_len)
            .and_then(|x| x.checked_add(c_len))
            .ok_or_else(|| Error::TooLarge { op: "matmul", detail: "the padded operands pass the address space".into() })?;
        let guard = self.workspace_at_least(stream, total)?;
        let Some(work) = guard.as_ref() else { return Err(Error::OutOfMemory { bytes: total.saturating_mul(4) }) };
        let (base, _record) = work.device_ptr(stream);
        let (a4, b4, c4) = (base, base + 4 * a_len as u64, base + 4 * (a_len + b_len) as u64);
        let x = if plan.pads_a() { a4 } else { a };
        let y = if plan.pads_b() { b4 } else { b };
        let z = if plan.crops_c() { c4 } else { c };
        // SAFETY (each copy): the source holds `rows` rows of `cols` floats `ld` apart (the caller's
        // dense A or B, or C' in the workspace), the destination `out_rows` rows of `out_cols`, `ld`
        // apart (A' or B' in the workspace, a_len = m·k4 and b_len = k4·n4 floats, or the caller's C);
        // the workspace regions do not overlap each other or the caller's buffers. The kernel reads x
        // (m·k4 floats), y (k4·n4) and writes z (m·n4): the copies, or the caller's buffers where that
        // operand is not padded (then k4 = k, n4 = n); FP32 kernels on pointers do not use the workspace.
        unsafe {
            if plan.pads_a() {
                self.copy_padded(stream, (a, k, m, k), (a4, k4, m, k4))?;
            }
            if plan.pads_b() {
                self.copy_padded(stream, (b, n, k, n), (b4, n4, k4, n4))?;
            }
            self.launch_kernel(stream, launch, x, y, z)?;
            if plan.crops_c() {
                self.copy_padded(stream, (c4, n4, m, n), (c, n, m, n))?;
            }
        }
        Ok(())
    }

    /// Queues `copy_padded_f32`: `src = (ptr, ld, rows, cols)` into `dst = (ptr, ld, out_rows,
    /// out_cols)`, zero-filling outside the source.
    ///
    /// # Safety
    /// As the kernel's contract: `cols ≤ src.ld`, `out_cols ≤ dst.ld`, `src` valid for
    /// `(rows-1)·ld + cols` floats and `dst` for `(out_rows-1)·ld + out_cols`, in this context, not
    /// overlapping, neither written by other work until the copy completes on `stream`.
    unsafe fn copy_padded(&self, stream: &Arc<CudaStream>, src: (u64, u32, u32, u32), dst: (u64, u32, u32, u32)) -> Result<()> {
        let (sp, sld, rows, cols) = src;
        let (dp, dld, out_rows, out_cols) = dst;
        let mut launch = stream.launch_builder(self.kernel("copy_padded_f32")?);
        launch.arg(&sp).arg(&sld).arg(&rows).arg(&cols).arg(&dp).arg(&dld).arg(&out_rows).arg(&out_cols);
        // SAFETY: the caller's contract is the kernel's; the launch is the catalogue's for it.
        self.launched(unsafe { launch.launch(launch_config(tessera_catalogue::registry::launch::copy_padded_f32(out_rows, out_cols))) })
    }
}
