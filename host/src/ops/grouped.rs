//! Many products in one launch: a strided batch ([`Gpu::matmul_batched`]: kernel 26 on Hopper for
//! BF16/FP16, kernel 28 for FP32) and grouped products in the contiguous layout of a
//! mixture-of-experts layer ([`Gpu::matmul_grouped`], kernel 26).
//! The plan ([`tessera_catalogue::plan::grouped`]) checks everything first; this encodes its two 3-D
//! tensor maps, uploads the group offsets, and queues the one launch.
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut, PushKernelArg};
use tessera_catalogue::plan::grouped::{plan, BufferLens, Products, ProductsLaunch, ProductsPlan, OP_BATCHED, OP_GROUPED};
use tessera_catalogue::registry::grouped::GroupedAlgo;

use super::launch_config;
use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix};
use crate::stack::{MatrixStack, MatrixStackMut};

impl Gpu {
    /// `C_i = A_i·B_i` for every matrix `i` of a batch, in one launch, queued on the stream.
    ///
    /// Each operand is a [`MatrixStack`]: `count` row-major matrices a stride apart in one buffer
    /// (the strided-batched layout of cuBLAS and `torch.bmm`), or one matrix for all (stride 0: a
    /// shared weight). BF16 or FP16 inputs on Hopper (sm_90a: kernel 26), or `f32` inputs in FP32 on
    /// any GPU (kernel 28: kernel 8's tiles, the matrix along the grid's z, at most 65535 of them);
    /// `f32` accumulation and output. `algo` names one of those tiles, or `Auto` (the model's pick
    /// for the batch). Only the
    /// outputs' elements are written, never the gaps between them; `K = 0` writes zeros.
    ///
    /// Errors, all before any GPU work (the `Gpu` stays usable): [`Error::NoKernel`] for TF32, FP8,
    /// or BF16/FP16 on a GPU without sm_90a; [`Error::PrecisionMismatch`] for a kernel of the
    /// other precision; [`Error::WrongContext`]; [`Error::ShapeMismatch`] when the counts or the
    /// shapes (`m × k` by `k × n` into `m × n`) disagree; [`Error::InvalidArgument`] when `C`'s
    /// matrices overlap; [`Error::BufferTooSmall`]; [`Error::Unaligned`] unless K, N and A's and B's
    /// strides are multiples of 8 elements (16-bit inputs: the TMA's 16-byte rows), or the strides
    /// multiples of 4 (FP32); [`Error::TooLarge`] past the kernels' 32-bit indexing.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{bf16, DeviceBuffer, GroupedAlgo, Gpu, MatrixStack, MatrixStackMut};
    /// let gpu = Gpu::new(0)?;
    /// let (count, m, n, k) = (64, 512, 512, 64);
    /// let a = DeviceBuffer::<bf16>::zeros(&gpu, count * m * k)?;
    /// let b = DeviceBuffer::<bf16>::zeros(&gpu, count * k * n)?;
    /// let mut c = DeviceBuffer::<f32>::zeros(&gpu, count * m * n)?;
    /// gpu.matmul_batched(
    ///     GroupedAlgo::Auto,
    ///     MatrixStack::dense(&a, count, m, k),
    ///     MatrixStack::dense(&b, count, k, n),
    ///     MatrixStackMut::dense(&mut c, count, m, n),
    /// )?;
    /// # Ok(()) }
    /// ```
    pub fn matmul_batched<T: DeviceElement>(
        &self,
        algo: GroupedAlgo,
        a: MatrixStack<'_, T>,
        b: MatrixStack<'_, T>,
        mut c: MatrixStackMut<'_, f32>,
    ) -> Result<()> {
        a.buffer().check_context(self, OP_BATCHED)?;
        b.buffer().check_context(self, OP_BATCHED)?;
        c.buffer().check_context(self, OP_BATCHED)?;
        let products = Products::Batched { a: a.stack(), b: b.stack(), c: c.stack() };
        let lens = BufferLens { a: a.buffer().len(), b: b.buffer().len(), c: c.buffer().len() };
        let planned = plan(products, lens, T::PRECISION, algo, self.target())?;
        self.check_usable()?;
        let c_stack = c.stack();
        let out = c.buffer().as_cuda_slice_mut();
        match planned {
            ProductsPlan::Nothing => Ok(()),
            ProductsPlan::Zero => {
                (0..c_stack.count).try_for_each(|i| self.zero_range(out, i * c_stack.stride, c_stack.rows * c_stack.cols))
            }
            ProductsPlan::Launch(l) => self.launch_products(&l, a.buffer(), b.buffer(), None, out),
        }
    }

    /// Grouped products in one launch, queued on the stream: group `g` multiplies rows
    /// `offsets[g] .. offsets[g+1]` of `a` (`m × k`) by its own `B_g` (matrix `g` of `b`, `k × n`) into
    /// the same rows of `c` (`m × n`) — the contiguous layout of a mixture-of-experts layer (tokens
    /// sorted by expert, DeepGEMM's), any number of rows per group, none included.
    ///
    /// BF16 or FP16 inputs, `f32` output, on Hopper (sm_90a); `algo` as for
    /// [`Gpu::matmul_batched`]. Rows of `c` outside every group are not written. The offsets (one
    /// more than the groups) are the host's: checked, then copied to the GPU with the launch.
    ///
    /// Errors, all before any GPU work: as [`Gpu::matmul_batched`]'s, and
    /// [`Error::InvalidArgument`] for offsets that decrease or pass `a`'s rows,
    /// [`Error::ShapeMismatch`] for a count of offsets other than `b`'s matrices + 1.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{bf16, DeviceBuffer, DeviceMatrix, GroupedAlgo, Gpu, MatrixStack};
    /// let gpu = Gpu::new(0)?;
    /// let (tokens, experts, n, k) = (4096, 8, 2048, 1024);
    /// let x = DeviceMatrix::<bf16>::zeros(&gpu, tokens, k)?; // tokens sorted by expert
    /// let w = DeviceBuffer::<bf16>::zeros(&gpu, experts * k * n)?; // one k × n weight per expert
    /// let mut y = DeviceMatrix::<f32>::zeros(&gpu, tokens, n)?;
    /// let offsets = [0, 700, 1200, 1200, 2000, 2600, 3100, 3900, 4096]; // expert 2 got no token
    /// gpu.matmul_grouped(GroupedAlgo::Auto, &x, MatrixStack::dense(&w, experts, k, n), &offsets, &mut y)?;
    /// # Ok(()) }
    /// ```
    pub fn matmul_grouped<T: DeviceElement>(
        &self,
        algo: GroupedAlgo,
        a: &DeviceMatrix<T>,
        b: MatrixStack<'_, T>,
        offsets: &[u32],
        c: &mut DeviceMatrix<f32>,
    ) -> Result<()> {
        a.buffer().check_context(self, OP_GROUPED)?;
        b.buffer().check_context(self, OP_GROUPED)?;
        c.buffer().check_context(self, OP_GROUPED)?;
        if c.shape() != (a.rows(), b.stack().cols) {
            return Err(Error::ShapeMismatch {
                op: OP_GROUPED,
                detail: format!("C is {}×{}, A has {} rows and B {} columns", c.rows(), c.cols(), a.rows(), b.stack().cols),
            });
        }
        let (m, k) = a.shape();
        let products = Products::Grouped { m, k, b: b.stack(), offsets };
        let lens = BufferLens { a: a.buffer().len(), b: b.buffer().len(), c: c.buffer().len() };
        let planned = plan(products, lens, T::PRECISION, algo, self.target())?;
        self.check_usable()?;
        let n = c.cols();
        let out = c.buffer_mut().as_cuda_slice_mut();
        match planned {
            ProductsPlan::Nothing => Ok(()),
            ProductsPlan::Zero => {
                let (first, last) = (offsets[0] as usize, offsets[offsets.len() - 1] as usize);
                self.zero_range(out, first * n, (last - first) * n)
            }
            ProductsPlan::Launch(l) => {
                let stream = self.stream();
                let offsets =
                    stream.clone_htod(offsets).map_err(Error::driver("uploading the group offsets", std::mem::size_of_val(offsets)))?;
                self.launch_products(&l, a.buffer(), b.buffer(), Some(&offsets), out)
            }
        }
    }

    /// Zeroes `len` floats of `c` from `start` (in range: the plan checked `C`'s stacks).
    fn zero_range(&self, c: &mut CudaSlice<f32>, start: usize, len: usize) -> Result<()> {
        let c_len = c.len();
        let mut view = c.try_slice_mut(start..start + len).ok_or(Error::BufferTooSmall {
            op: OP_BATCHED,
            name: "C",
            len: c_len,
            needed: start + len,
        })?;
        self.stream().memset_zeros(&mut view).map_err(Error::driver("zeroing C", 0))
    }

    /// Queues kernel 26 as `l` plans it over A's and B's buffers (their stacks' first elements at
    /// each buffer's start), the uploaded offsets of grouped products, and `C`.
    fn launch_products<T: DeviceElement>(
        &self,
        l: &ProductsLaunch,
        a: &DeviceBuffer<T>,
        b: &DeviceBuffer<T>,
        offsets: Option<&CudaSlice<u32>>,
        c: &mut CudaSlice<f32>,
    ) -> Result<()> {
        let stream = self.stream();
        let f = self.kernel(l.entry)?;
        let (x, _read_a) = a.as_cuda_slice().device_ptr(stream);
        let (y, _read_b) = b.as_cuda_slice().device_ptr(stream);
        let Some(operand_maps) = l.maps else {
            // Kernel 28 (FP32): the operands' pointers and strides, the matrix `blockIdx.z`.
            let (pc, _write_c) = c.device_ptr_mut(stream);
            let mut builder = stream.launch_builder(f);
            builder.arg(&x).arg(&y).arg(&pc).arg(&l.m).arg(&l.n).arg(&l.k).arg(&l.strides.0).arg(&l.strides.1).arg(&l.c_stride);
            // SAFETY: the plan checked every matrix of A's, B's and C's stacks inside its buffer (from
            // each buffer's first element), C's matrices apart, every stride a multiple of 4 (16-byte
            // starts); f32 inputs (the plan's precision is T's); the launch is kernel 8's tile with
            // the batch along z (the plan's).
            return self.launched(unsafe { builder.launch(launch_config(l.launch)) });
        };
        let maps = self.tensor_maps.maps(stream, &operand_maps, l.kernel.precision, x, y, None)?;
        let (pm, _read_maps) = maps.device_ptr(stream);
        let (map_a, map_b) = (pm, pm + crate::tensor_maps::MAP_BYTES);
        let offsets_guard = offsets.map(|o| o.device_ptr(stream));
        let po = offsets_guard.as_ref().map_or(0, |(p, _)| *p);
        let (pc, _write_c) = c.device_ptr_mut(stream);
        let (a_batched, b_batched) = (u32::from(l.a_batched), u32::from(l.b_batched));
        let mut builder = stream.launch_builder(f);
        builder
            .arg(&map_a)
            .arg(&map_b)
            .arg(&pc)
            .arg(&l.m)
            .arg(&l.n)
            .arg(&l.k)
            .arg(&po)
            .arg(&l.count)
            .arg(&a_batched)
            .arg(&b_batched)
            .arg(&l.c_stride);
        // SAFETY: the plan checked every stack against its buffer (A's and B's from each buffer's
        // first element, as the maps are encoded; C's outputs inside `c`), C's matrices apart, and the
        // offsets (`count + 1`, non-decreasing, the last within A's rows) uploaded above; the maps
        // (cached, or freed stream-ordered after the launch) describe exactly A's and B's stacks;
        // bf16/f16 have the layout of the u16 bits the kernel takes; the launch is the plan's (the
        // kernel's TileConfig, one block per SM at most).
        self.launched(unsafe { builder.launch(launch_config(l.launch)) })
    }
}
