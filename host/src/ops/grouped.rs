//! Many products in one launch: a strided batch ([`Gpu::matmul_batched`]: kernel 26 on Hopper or
//! kernel 30 for BF16/FP16, kernel 28 for FP32), a batch of pointers ([`Gpu::matmul_batched_pointers`]:
//! kernels 30 and 28) and grouped products in the contiguous layout of a mixture-of-experts layer
//! ([`Gpu::matmul_grouped`], kernel 26).
//! The plan ([`tessera_catalogue::plan::grouped`]) checks everything first; this encodes kernel 26's
//! two 3-D tensor maps or uploads a table of addresses, uploads the group offsets, and queues the one
//! launch.
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut, PushKernelArg};
use tessera_catalogue::plan::grouped::{
    plan, plan_finishing, BufferLens, Products, ProductsFinish, ProductsLaunch, ProductsPlan, OP_BATCHED, OP_GROUPED, OP_POINTERS,
};
use tessera_catalogue::registry::grouped::{GroupedAlgo, GroupedHost};
use tessera_catalogue::OutputFormat;

use super::launch_config;
use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix, OutputElement};
use crate::ops::gemm::GemmEpilogue;
use crate::stack::{MatrixStack, MatrixStackMut};

impl Gpu {
    /// `C_i = A_i·B_i` for every matrix `i` of a batch, in one launch, queued on the stream.
    ///
    /// Each operand is a [`MatrixStack`]: `count` row-major matrices a stride apart in one buffer
    /// (the strided-batched layout of cuBLAS and `torch.bmm`), or one matrix for all (stride 0: a
    /// shared weight). BF16 or FP16 inputs (kernel 26 on Hopper, sm_90a: the TMA's persistent walk
    /// over every product's tiles; kernel 30 on any GPU: kernel 13's tiles, the matrix along the
    /// grid's z), or `f32` inputs in FP32 on any GPU (kernel 28: kernel 8's tiles along z); at most
    /// 65535 matrices on kernels 28 and 30; `f32` accumulation and output. `algo` names one of those
    /// tiles, or `Auto` (the models' pick for the batch, among the kernels that can read it). Only
    /// the outputs' elements are written, never the gaps between them; `K = 0` writes zeros.
    ///
    /// Errors, all before any GPU work (the `Gpu` stays usable): [`Error::NoKernel`] for TF32, FP8,
    /// or a kernel-26 tile on a GPU without sm_90a; [`Error::PrecisionMismatch`] for a kernel of the
    /// other precision; [`Error::WrongContext`]; [`Error::ShapeMismatch`] when the counts or the
    /// shapes (`m × k` by `k × n` into `m × n`) disagree; [`Error::InvalidArgument`] when `C`'s
    /// matrices overlap; [`Error::BufferTooSmall`]; [`Error::Unaligned`] unless A's and B's strides
    /// put every matrix on 16 bytes (multiples of 8 16-bit elements or 4 floats; FP32: `C`'s too) —
    /// and, for a kernel-26 tile, K and N multiples of 8 and `C`'s stride of 4 (the TMA's 16-byte
    /// rows; `Auto` takes kernel 30 where those do not hold); [`Error::TooLarge`] past the kernels'
    /// 32-bit indexing.
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
        c: MatrixStackMut<'_, f32>,
    ) -> Result<()> {
        self.matmul_batched_with(algo, &GemmEpilogue::new(), a, b, c)
    }

    /// [`Gpu::matmul_batched`] with each sum finished in the store: `C_i = act(A_i·B_i + bias)`, `C`
    /// in `f32`, BF16 or FP16 (`O`, each sum rounded once) — kernel 26's finishing twins (Hopper,
    /// sm_90a), and for a 16-bit `C` without a bias or an activation kernel 30 too (any GPU; kernel 28
    /// stores `f32` only). The bias is per column (`n` values, the same for every product) or per row
    /// (`m`, each product's rows).
    ///
    /// Errors: [`Gpu::matmul_batched`]'s; [`Error::NoKernel`] where no tile runs the batch (an
    /// epilogue off sm_90a or on a kernel 28 or 30 tile named, a 16-bit `C` on a kernel 28 tile); [`Error::Unaligned`] unless `C`'s matrices start on
    /// 16 bytes in `O`; [`Error::BufferTooSmall`] for a short bias; [`Error::InvalidArgument`] for
    /// `K = 0` with a bias or an activation.
    pub fn matmul_batched_with<T: DeviceElement, O: OutputElement>(
        &self,
        algo: GroupedAlgo,
        epilogue: &GemmEpilogue<'_>,
        a: MatrixStack<'_, T>,
        b: MatrixStack<'_, T>,
        mut c: MatrixStackMut<'_, O>,
    ) -> Result<()> {
        a.buffer().check_context(self, OP_BATCHED)?;
        b.buffer().check_context(self, OP_BATCHED)?;
        c.buffer().check_context(self, OP_BATCHED)?;
        let products = Products::Batched { a: a.stack(), b: b.stack(), c: c.stack() };
        let lens = BufferLens { a: a.buffer().len(), b: b.buffer().len(), c: c.buffer().len() };
        let finish = ProductsFinish { out: O::FORMAT, epilogue: epilogue.finishes() };
        // `Auto`'s tile for a batch planned before is planned by name (every check made again):
        // pricing every tile over every product costs more than a small batch runs.
        let key = (T::PRECISION, a.stack(), b.stack(), c.stack(), finish);
        let known = if algo == GroupedAlgo::Auto { self.plans.lock().ok().and_then(|p| p.batch_tile(&key)) } else { None };
        let planned = plan_finishing(products, lens, T::PRECISION, known.unwrap_or(algo), self.target(), finish)?;
        if let (GroupedAlgo::Auto, None, ProductsPlan::Launch(l)) = (algo, known, &planned) {
            if let Ok(mut p) = self.plans.lock() {
                p.insert_batch_tile(key, l.kernel.algo);
            }
        }
        self.check_bias(OP_BATCHED, epilogue, &planned)?;
        self.check_usable()?;
        let c_stack = c.stack();
        let out = c.buffer().as_cuda_slice_mut();
        match planned {
            ProductsPlan::Nothing => Ok(()),
            ProductsPlan::Zero => {
                (0..c_stack.count).try_for_each(|i| self.zero_range(out, i * c_stack.stride, c_stack.rows * c_stack.cols))
            }
            ProductsPlan::Launch(l) => self.launch_products(&l, a.buffer(), b.buffer(), None, out, epilogue),
        }
    }

    /// `c[i] = a[i]·b[i]` for every `i`, in one launch, queued on the stream: a batch of pointers
    /// (cuBLAS's `gemmBatched`) — every matrix its own [`DeviceMatrix`], all of one shape (`m × k` by
    /// `k × n` into `m × n`), an input may stand in several places.
    ///
    /// BF16 or FP16 inputs (kernel 30, any GPU) or `f32` inputs in FP32 (kernel 28), `f32` output,
    /// at most 65535 products; the kernels read the matrices' addresses from a table this uploads
    /// with the launch (`24·count` bytes, freed in stream order). `algo` names a tile of kernel 28 or
    /// 30, or `Auto`. `K = 0` writes zeros.
    ///
    /// Errors, all before any GPU work (the `Gpu` stays usable): [`Error::NoKernel`] for TF32, FP8
    /// or a kernel-26 tile (it reads through tensor maps, not addresses); [`Error::PrecisionMismatch`];
    /// [`Error::WrongContext`]; [`Error::ShapeMismatch`] when the counts or any matrix's shape
    /// disagree; [`Error::InvalidArgument`] when two outputs share memory; [`Error::Unaligned`] for a
    /// matrix not on 16 bytes; [`Error::TooLarge`] past 65535 products or the kernels' 32-bit
    /// indexing.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{bf16, DeviceMatrix, GroupedAlgo, Gpu};
    /// let gpu = Gpu::new(0)?;
    /// let heads: Vec<DeviceMatrix<bf16>> = (0..8).map(|_| DeviceMatrix::zeros(&gpu, 128, 64)).collect::<Result<_, _>>()?;
    /// let keys: Vec<DeviceMatrix<bf16>> = (0..8).map(|_| DeviceMatrix::zeros(&gpu, 64, 128)).collect::<Result<_, _>>()?;
    /// let mut scores: Vec<DeviceMatrix<f32>> = (0..8).map(|_| DeviceMatrix::zeros(&gpu, 128, 128)).collect::<Result<_, _>>()?;
    /// let a: Vec<&DeviceMatrix<bf16>> = heads.iter().collect();
    /// let b: Vec<&DeviceMatrix<bf16>> = keys.iter().collect();
    /// let mut c: Vec<&mut DeviceMatrix<f32>> = scores.iter_mut().collect();
    /// gpu.matmul_batched_pointers(GroupedAlgo::Auto, &a, &b, &mut c)?;
    /// # Ok(()) }
    /// ```
    pub fn matmul_batched_pointers<T: DeviceElement>(
        &self,
        algo: GroupedAlgo,
        a: &[&DeviceMatrix<T>],
        b: &[&DeviceMatrix<T>],
        c: &mut [&mut DeviceMatrix<f32>],
    ) -> Result<()> {
        let op = OP_POINTERS;
        let count = c.len();
        if a.len() != count || b.len() != count {
            let detail = format!("{} A, {} B and {count} C matrices", a.len(), b.len());
            return Err(Error::ShapeMismatch { op, detail });
        }
        let (Some(a0), Some(b0)) = (a.first(), b.first()) else { return Ok(()) };
        let ((m, k), n) = (a0.shape(), b0.cols());
        for i in 0..count {
            let shapes = (a[i].shape(), b[i].shape(), c[i].shape());
            if shapes != ((m, k), (k, n), (m, n)) {
                let detail = format!(
                    "matrix {i}: A {}×{}, B {}×{}, C {}×{} where matrix 0 makes them {m}×{k}, {k}×{n}, {m}×{n}",
                    shapes.0 .0, shapes.0 .1, shapes.1 .0, shapes.1 .1, shapes.2 .0, shapes.2 .1
                );
                return Err(Error::ShapeMismatch { op, detail });
            }
            a[i].buffer().check_context(self, op)?;
            b[i].buffer().check_context(self, op)?;
            c[i].buffer().check_context(self, op)?;
        }
        let products = Products::Pointers { count, m, n, k };
        let planned = plan(products, BufferLens { a: 0, b: 0, c: 0 }, T::PRECISION, algo, self.target())?;
        let stream = self.stream();
        let (a_reads, b_reads): (Vec<_>, Vec<_>) = (
            a.iter().map(|x| x.buffer().slice.device_ptr(stream)).collect(),
            b.iter().map(|x| x.buffer().slice.device_ptr(stream)).collect(),
        );
        let c_writes: Vec<_> = c.iter_mut().map(|x| x.buffer_mut().slice.device_ptr_mut(stream)).collect();
        let starts = |guards: &[(u64, _)]| guards.iter().map(|g| g.0).collect::<Vec<u64>>();
        let (pa, pb, pc) = (starts(&a_reads), starts(&b_reads), starts(&c_writes));
        for (name, ptrs) in [("A", &pa), ("B", &pb), ("C", &pc)] {
            if let Some(i) = ptrs.iter().position(|p| p % 16 != 0) {
                return Err(Error::Unaligned {
                    op,
                    detail: format!("{name}[{i}] does not start on 16 bytes: the kernels read whole 16-byte units"),
                });
            }
        }
        // Outputs in distinct DeviceMatrix values never share memory unless made to: checked all the same.
        let mut outputs: Vec<(u64, usize)> = pc.iter().copied().enumerate().map(|(i, p)| (p, i)).collect();
        outputs.sort_unstable();
        let out_bytes = 4 * (m * n) as u64;
        if let Some(w) = outputs.windows(2).find(|w| out_bytes > 0 && w[0].0 + out_bytes > w[1].0) {
            let detail = format!("C[{}] and C[{}] share memory", w[0].1, w[1].1);
            return Err(Error::InvalidArgument { op, detail });
        }
        self.check_usable()?;
        match planned {
            ProductsPlan::Nothing => Ok(()),
            ProductsPlan::Zero => {
                // SAFETY: each C is a DeviceMatrix of m·n floats (checked above).
                pc.iter().try_for_each(|&p| unsafe { self.zero_bytes(stream, p, 4 * m * n) })
            }
            ProductsPlan::Launch(l) => {
                let table: Vec<u64> = pa.iter().chain(&pb).chain(&pc).copied().collect();
                let table = stream.clone_htod(&table).map_err(Error::driver("uploading the table of addresses", 8 * table.len()))?;
                let (pt, _read_table) = table.device_ptr(stream);
                // SAFETY: the table holds `count` addresses of each operand, every one a DeviceMatrix
                // of this context of the planned shape (checked), on 16 bytes (checked), the outputs
                // apart (checked); the guards above record every matrix's use once the launch is queued;
                // the launch is the plan's.
                unsafe { self.launch_pointers(&l, (0, 0, 0), pt, OutputFormat::F32) }
            }
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
        self.matmul_grouped_with(algo, &GemmEpilogue::new(), a, b, offsets, c)
    }

    /// [`Gpu::matmul_grouped`] with each sum finished in the store: `C = act(A·B_g + bias)` by group,
    /// `C` in `f32`, BF16 or FP16 (`O`, each sum rounded once) — a mixture-of-experts layer's
    /// activation and 16-bit output in its one launch (kernel 26's finishing twins). The bias is per
    /// column (`n` values, every group's) or per row (`m`, one per token).
    ///
    /// Errors: [`Gpu::matmul_grouped`]'s; [`Error::BufferTooSmall`] for a short bias;
    /// [`Error::InvalidArgument`] for `K = 0` with a bias or an activation.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{bf16, Activation, DeviceBuffer, DeviceMatrix, GemmEpilogue, GroupedAlgo, Gpu, MatrixStack};
    /// let gpu = Gpu::new(0)?;
    /// let (tokens, experts, n, k) = (4096, 8, 2048, 1024);
    /// let x = DeviceMatrix::<bf16>::zeros(&gpu, tokens, k)?;
    /// let w = DeviceBuffer::<bf16>::zeros(&gpu, experts * k * n)?;
    /// let mut h = DeviceMatrix::<bf16>::zeros(&gpu, tokens, n)?;
    /// let offsets = [0, 512, 1024, 1536, 2048, 2560, 3072, 3584, 4096];
    /// let silu = GemmEpilogue::new().activation(Activation::Silu);
    /// gpu.matmul_grouped_with(GroupedAlgo::Auto, &silu, &x, MatrixStack::dense(&w, experts, k, n), &offsets, &mut h)?;
    /// # Ok(()) }
    /// ```
    pub fn matmul_grouped_with<T: DeviceElement, O: OutputElement>(
        &self,
        algo: GroupedAlgo,
        epilogue: &GemmEpilogue<'_>,
        a: &DeviceMatrix<T>,
        b: MatrixStack<'_, T>,
        offsets: &[u32],
        c: &mut DeviceMatrix<O>,
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
        let finish = ProductsFinish { out: O::FORMAT, epilogue: epilogue.finishes() };
        let planned = plan_finishing(products, lens, T::PRECISION, algo, self.target(), finish)?;
        self.check_bias(OP_GROUPED, epilogue, &planned)?;
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
                self.launch_products(&l, a.buffer(), b.buffer(), Some(&offsets), out, epilogue)
            }
        }
    }

    /// The epilogue's bias: of this GPU, and as long as its kind needs for the planned products.
    fn check_bias(&self, op: &'static str, epilogue: &GemmEpilogue<'_>, planned: &ProductsPlan) -> Result<()> {
        let (Some((kind, bias)), ProductsPlan::Launch(l)) = (epilogue.bias, planned) else { return Ok(()) };
        bias.check_context(self, op)?;
        let needed = kind.len(l.m as usize, l.n as usize);
        if bias.len() < needed {
            return Err(Error::BufferTooSmall { op, name: "bias", len: bias.len(), needed });
        }
        Ok(())
    }

    /// Zeroes `len` elements of `c` from `start` (in range: the plan checked `C`'s stacks).
    fn zero_range<O: DeviceElement>(&self, c: &mut CudaSlice<O>, start: usize, len: usize) -> Result<()> {
        let c_len = c.len();
        let mut view = c.try_slice_mut(start..start + len).ok_or(Error::BufferTooSmall {
            op: OP_BATCHED,
            name: "C",
            len: c_len,
            needed: start + len,
        })?;
        self.stream().memset_zeros(&mut view).map_err(Error::driver("zeroing C", 0))
    }

    /// Queues kernel 28 or 30 as `l` plans it: on the stacks from `(a, b, c)` a stride apart
    /// (`table` 0), or on the addresses in `table` (3 × the count: A's, B's, then C's), `C` in `out`
    /// (kernel 30's argument; kernel 28 writes `f32` only).
    ///
    /// # Safety
    /// The operands (or the table's) hold the plan's matrices of the plan's input type, on 16 bytes,
    /// `C`'s of `out`'s type (`f32` for kernel 28), the outputs apart, each in use (its guard alive)
    /// until the launch is queued.
    unsafe fn launch_pointers(&self, l: &ProductsLaunch, (a, b, c): (u64, u64, u64), table: u64, out: OutputFormat) -> Result<()> {
        let stream = self.stream();
        let f = self.kernel(l.entry)?;
        let out_code = out.code();
        let mut builder = stream.launch_builder(f);
        builder.arg(&a).arg(&b).arg(&c).arg(&l.m).arg(&l.n).arg(&l.k).arg(&l.strides.0).arg(&l.strides.1).arg(&l.c_stride).arg(&table);
        if matches!(l.kernel.host, GroupedHost::Pointers16(_)) {
            builder.arg(&out_code);
        }
        // SAFETY: the caller's contract; the launch is the kernel's tile with the batch along z (the plan's).
        self.launched(unsafe { builder.launch(launch_config(l.launch)) })
    }

    /// Queues kernel 26 as `l` plans it over A's and B's buffers (their stacks' first elements at
    /// each buffer's start), the uploaded offsets of grouped products, and `C`.
    fn launch_products<T: DeviceElement, O: OutputElement>(
        &self,
        l: &ProductsLaunch,
        a: &DeviceBuffer<T>,
        b: &DeviceBuffer<T>,
        offsets: Option<&CudaSlice<u32>>,
        c: &mut CudaSlice<O>,
        epilogue: &GemmEpilogue<'_>,
    ) -> Result<()> {
        let stream = self.stream();
        let f = self.kernel(l.entry)?;
        let (x, _read_a) = a.as_cuda_slice().device_ptr(stream);
        let (y, _read_b) = b.as_cuda_slice().device_ptr(stream);
        let Some(operand_maps) = l.maps else {
            // Kernels 28 and 30: the operands' pointers and strides, the matrix `blockIdx.z`.
            let (pc, _write_c) = c.device_ptr_mut(stream);
            // SAFETY: the plan checked every matrix of A's, B's and C's stacks inside its buffer (from
            // each buffer's first element; C's in O's elements), C's matrices apart, the strides keeping
            // A's and B's matrices on 16 bytes; the inputs are the plan's precision's (T's), C is O's
            // (kernel 28 only for f32: the plan's rule); the launch is the plan's.
            return unsafe { self.launch_pointers(l, (x, y, pc), 0, O::FORMAT) };
        };
        let maps = self.tensor_maps.maps(stream, &operand_maps, l.kernel.precision, x, y, None)?;
        let (pm, _read_maps) = maps.device_ptr(stream);
        let (map_a, map_b) = (pm, pm + crate::tensor_maps::MAP_BYTES);
        let offsets_guard = offsets.map(|o| o.device_ptr(stream));
        let po = offsets_guard.as_ref().map_or(0, |(p, _)| *p);
        let (pc, _write_c) = c.device_ptr_mut(stream);
        let (a_batched, b_batched) = (u32::from(l.a_batched), u32::from(l.b_batched));
        let bias_guard = epilogue.bias.map(|(_, b)| b.slice.device_ptr(stream));
        let (bias, code, alpha) = (bias_guard.as_ref().map_or(0, |g| g.0), epilogue.code(false), 1.0f32);
        let out_code = O::FORMAT.code();
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
        if l.finished {
            builder.arg(&alpha).arg(&out_code).arg(&bias).arg(&code);
        }
        // SAFETY: the plan checked every stack against its buffer (A's and B's from each buffer's
        // first element, as the maps are encoded; C's outputs inside `c`), C's matrices apart, and the
        // offsets (`count + 1`, non-decreasing, the last within A's rows) uploaded above; the maps
        // (cached, or freed stream-ordered after the launch) describe exactly A's and B's stacks;
        // bf16/f16 have the layout of the u16 bits the kernel takes; the launch is the plan's (the
        // kernel's TileConfig, one block per SM at most).
        self.launched(unsafe { builder.launch(launch_config(l.launch)) })
    }
}
