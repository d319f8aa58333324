//! `C = A · B` on the GPU with any kernel of the catalogue, in FP32, TF32 (asked for explicitly),
//! BF16 or FP16; `C` is `f32` in every precision.
use std::sync::{Arc, MutexGuard};

use cudarc::driver::{result, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg};
use float8::{F8E4M3, F8E5M2};
use half::{bf16, f16};
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::plan::KernelLaunch;
use tessera_catalogue::registry::tma::{self, Layout};
use tessera_catalogue::{Algo, Choice, HostMatrix, LaunchPlan, OutputFormat, Plan, Precision};

use super::finishing::FinishArgs;
use super::launch_config;
use crate::blocked::Homes;
use crate::context::Gpu;
use crate::dependent_launch::{self, RawArgs};
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix};

impl Gpu {
    /// `c = a · b` with the chosen kernel (queued on the stream), in the precision of the inputs:
    /// FP32 for `f32` (never TF32: see [`Gpu::matmul_tf32`]), BF16 for `bf16`, FP16 for `f16`.
    /// `Auto` picks a kernel of that precision; in FP32 where N or K is not a multiple of 4 and its
    /// model predicts it pays, it runs that kernel on zero-padded copies ([`Gpu::matmul_fp32_padded`]);
    /// in FP32 under [`AutoTuning::Measured`](crate::AutoTuning) a shape's first product times the
    /// model's few best candidates and keeps the fastest ([`super::auto_tuning`]).
    ///
    /// `A` and `B` are of one element type (mixing `bf16` and `f16` does not compile):
    ///
    /// ```compile_fail
    /// # fn f(gpu: &tessera::Gpu, a: &tessera::DeviceMatrix<tessera::bf16>, b: &tessera::DeviceMatrix<tessera::f16>, c: &mut tessera::DeviceMatrix) {
    /// gpu.matmul(tessera::Algo::Auto, a, b, c);
    /// # }
    /// ```
    ///
    /// Errors, before any launch: [`Error::PrecisionMismatch`] when `algo` computes in another
    /// precision, shape and buffer errors as [`Gpu::matmul_in`]'s. `m = 0` or `n = 0` is a no-op (C
    /// is empty); `k = 0` sets `C` to zeros. [`Gpu::plan`] says what it runs.
    pub fn matmul<T: DeviceElement>(&self, algo: Algo, a: &DeviceMatrix<T>, b: &DeviceMatrix<T>, c: &mut DeviceMatrix) -> Result<()> {
        self.matmul_in(T::PRECISION, algo, a, b, c)
    }

    /// `c = a · b` on `f32` data in TF32 on the tensor cores: the caller's explicit choice of the
    /// lower precision (inputs rounded to 10 mantissa bits). `algo`: a TF32 kernel or `Auto`.
    /// Shorthand for [`Gpu::matmul_in`] with [`Precision::Tf32`].
    pub fn matmul_tf32(&self, algo: Algo, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix) -> Result<()> {
        self.matmul_in(Precision::Tf32, algo, a, b, c)
    }

    /// `c = a · b` in `precision`, the one entry every precision goes through: `T`'s own precision,
    /// or TF32 on `f32` data (the caller's explicit choice of the lower precision).
    ///
    /// The product is planned once ([`Gpu::plan`]): one launch-sized product (plus the copies of FP32
    /// `Auto`'s unaligned path where it pads), or past one launch's limits (a matrix of 2³¹ elements or
    /// more) blocks that are, run on the same stream (see `tessera_catalogue::plan::blocks`).
    ///
    /// Errors, before any launch: [`Error::UnsupportedPrecision`] for a precision `T` cannot take,
    /// [`Error::PrecisionMismatch`] when `algo` computes in another precision,
    /// [`Error::ShapeMismatch`], [`Error::WrongContext`], [`Error::BufferTooSmall`].
    pub fn matmul_in<T: DeviceElement>(
        &self,
        precision: Precision,
        algo: Algo,
        a: &DeviceMatrix<T>,
        b: &DeviceMatrix<T>,
        c: &mut DeviceMatrix,
    ) -> Result<()> {
        const OP: &str = "matmul";
        let requested = precision;
        if !T::PRECISION.accepts(requested) {
            return Err(Error::UnsupportedPrecision { op: OP, requested, input: T::PRECISION });
        }
        let dims = GemmDims::check((a.rows(), a.cols()), (b.rows(), b.cols()), (c.rows(), c.cols()))?;
        let plan = self.plan_as(OP, algo, requested, dims)?;
        a.buffer().check_context(self, OP)?;
        b.buffer().check_context(self, OP)?;
        c.buffer().check_context(self, OP)?;
        for (name, len, needed) in
            [("A", a.buffer().len(), dims.m * dims.k), ("B", b.buffer().len(), dims.k * dims.n), ("C", c.buffer().len(), dims.m * dims.n)]
        {
            if len < needed {
                return Err(Error::BufferTooSmall { op: OP, name, len, needed });
            }
        }
        self.check_usable()?;
        let stream = self.stream();
        let (pa, _read_a) = a.buffer().slice.device_ptr(stream);
        let (pb, _read_b) = b.buffer().slice.device_ptr(stream);
        let (pc, _write_c) = c.buffer_mut().slice.device_ptr_mut(stream);
        // SAFETY: A, B, C hold at least m·k, k·n inputs of the requested precision's type (TA, checked
        // against it above) and m·n floats (checked above), whole allocations of this context (16-byte
        // aligned); the guards record their use after the plan's launches are queued; the plan is this
        // GPU's for these dimensions.
        unsafe { self.run_plan(stream, OP, &plan, algo, pa, pb, pc) }
    }

    /// Queues `plan` on the operands at `a`, `b`, `c`: nothing, `C = 0`, one launch-sized product
    /// (tuned first where [`AutoTuning::Measured`](crate::AutoTuning) asks and the shape has no pick),
    /// or its blocks.
    ///
    /// # Safety
    /// `a`, `b`, `c` address the plan's `m·k`, `k·n` inputs of its precision's type and `m·n` floats
    /// of this context, 16-byte aligned, not written by other work until the launches complete on
    /// `stream` (this GPU's); `plan` was made by [`Gpu::plan`] for this GPU with `requested`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn run_plan(
        &self,
        stream: &Arc<CudaStream>,
        op: &'static str,
        plan: &Plan,
        requested: Algo,
        a: u64,
        b: u64,
        c: u64,
    ) -> Result<()> {
        match plan {
            Plan::Nothing { .. } => Ok(()),
            Plan::ZeroC { dims } => {
                self.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;
                let bytes = dims.m * dims.n * 4;
                // SAFETY: c addresses m·n floats (the caller's contract).
                unsafe { result::memset_d8_async(c, 0, bytes, stream.cu_stream()) }.map_err(Error::driver("zeroing C", 0))
            }
            Plan::One(launch) => {
                // SAFETY: the caller's contract covers every candidate timed on these operands.
                let tuned = unsafe { self.tune_if_asked(stream, op, requested, launch, a, b, c) }?;
                // SAFETY: the caller's contract; the launch plan is this GPU's for the shape.
                unsafe { self.run_launch(stream, tuned.as_ref().unwrap_or(launch), a, b, c) }
            }
            Plan::Blocks(blocked) => {
                let input_bytes = plan_input_bytes(blocked.launches().next());
                // SAFETY: forwarded contract.
                unsafe { crate::blocked::run_blocked(self, stream, blocked, input_bytes, Homes { a, b, c }) }
            }
        }
    }

    /// Queues one planned launch-sized product: FP32's padded path ([`Gpu::matmul_padded_on`]), or the
    /// kernel on the caller's operands ([`Gpu::launch_kernel`]).
    ///
    /// # Safety
    /// `a`, `b`, `c` address `m·k`, `k·n` inputs of the plan's precision's type and `m·n` floats
    /// (`plan.shape`) of this context, 16-byte aligned, not written by other work until the launches
    /// complete on `stream` (a stream of this GPU); `plan` was made for this GPU.
    pub(crate) unsafe fn run_launch(&self, stream: &Arc<CudaStream>, plan: &LaunchPlan, a: u64, b: u64, c: u64) -> Result<()> {
        match plan.choice {
            // SAFETY: the caller's contract; the padded path's kernel reads plain f32 pointers.
            Choice::Padded(padding) => unsafe { self.matmul_padded_on(stream, &padding, &plan.launch, a, b, c) },
            // SAFETY: the caller's contract.
            Choice::Kernel(_) => unsafe { self.launch_kernel(stream, &plan.launch, a, b, c) },
        }
    }

    /// Queues one planned kernel launch (`C` zeroed first for split-K and stream-K, which add partial
    /// sums into it: [`Gpu::launch_product`]), prepares the operands of a kernel that takes prepared TF32 operands (kernels
    /// 14–16's TF32 entries) in this GPU's workspace first, and copies a TMA kernel's operands there
    /// with padded rows where the TMA cannot read them in place.
    ///
    /// # Safety
    /// `a`, `b` must address `m·k` and `k·n` elements of the kernel's input type and `c` `m·n` floats
    /// (`launch.shape`), in this GPU's context, 16-byte aligned, not written by other work until the
    /// launch completes on `stream` (a stream of this context); `launch` was planned for this GPU.
    pub(crate) unsafe fn launch_kernel(&self, stream: &Arc<CudaStream>, launch: &KernelLaunch, a: u64, b: u64, c: u64) -> Result<()> {
        // SAFETY: forwarded contract.
        unsafe { self.launch_finishing(stream, launch, a, b, c, FinishArgs::default()) }
    }

    /// [`Gpu::launch_kernel`], a kernel that finishes its sums given `finish` (`α`, the epilogue; a
    /// 16-bit `C` as the launch's output format says).
    ///
    /// # Safety
    /// As [`Gpu::launch_kernel`], with `c` addressing `m·n` elements of the launch's output format
    /// and `finish`'s bias null or the values its code names, of this context.
    pub(crate) unsafe fn launch_finishing(
        &self,
        stream: &Arc<CudaStream>,
        launch: &KernelLaunch,
        a: u64,
        b: u64,
        c: u64,
        finish: FinishArgs,
    ) -> Result<()> {
        let f = self.kernel(launch.entry)?;
        if launch.prepares_tf32() {
            // SAFETY: forwarded contract.
            return unsafe { self.matmul_prepared_tf32(stream, f, launch, a, b, c, finish) };
        }
        if launch.kernel().config.fp8_operands {
            // SAFETY: forwarded contract (B as the caller's k × n bytes); no scales (null: 1), no epilogue.
            return unsafe { self.launch_fp8(stream, f, launch, a, super::fp8_matmul::BGiven::Rows, b, FinishArgs::default(), c) };
        }
        // SAFETY: forwarded contract; `launch_product` zeroes C for the kernels that add into it.
        unsafe { self.launch_product(stream, f, launch, a, b, c, finish) }
    }

    /// Queues the matmul kernel `f` (`launch`'s entry) on `x` (`m × k`), `y` (`k × n`, or the prepared
    /// `Bᵀ` for TF32-operand kernels) and `c`; a TMA kernel gets the two tensor maps over `x` and `y`
    /// instead of the pointers ([`crate::tensor_maps`]), in the plan's layouts ([`KernelLaunch::tma`]): an
    /// operand whose rows are not whole 16-byte units is first copied by `pad_b16` into this GPU's
    /// workspace with rows padded to them (stream-ordered, inside the caller's timing); prepared TF32
    /// operands come with those rows already ([`Gpu::matmul_prepared_tf32`]). A launch that adds into
    /// `C` (split-K, stream-K) gets `C`'s zeros right before it, which it overlaps
    /// ([`crate::dependent_launch`]).
    ///
    /// An FP8 kernel (kernel 25) gets `y` as `Bᵀ` and after the common arguments `fp8`'s: its two
    /// scale pointers (0: null, 1), whether `C` is BF16 (the launch's output), the fused epilogue's
    /// bias (0: none) and code.
    ///
    /// # Safety
    /// As [`Gpu::launch_kernel`] for `x`, `y`, `c`; for a
    /// TMA kernel with prepared TF32 operands, `x` and `y` have the plan's leading dimensions; for an
    /// FP8 kernel `y` is `Bᵀ` (`n × k` bytes) and each scale null or one `f32` of this context.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn launch_product(
        &self,
        stream: &Arc<CudaStream>,
        f: &cudarc::driver::CudaFunction,
        launch: &KernelLaunch,
        x: u64,
        y: u64,
        c: u64,
        finish: FinishArgs,
    ) -> Result<()> {
        let kernel = launch.kernel();
        let (m, n, k) = (launch.shape.m, launch.shape.n, launch.shape.k);
        let elem_bytes = kernel.precision.input_bytes();
        let packing = launch.tma;
        // Operands the TMA cannot read in place (prepared TF32 operands are already laid out).
        let copies = packing.filter(|p| !kernel.config.b_k_major() && !p.in_place());
        // The workspace stays locked (and its use recorded) until the launch below is queued.
        let work = match copies {
            Some(p) => Some(self.workspace_at_least(stream, workspace_floats(p.copy_bytes(elem_bytes))?)?),
            None => None,
        };
        let staged = work.as_ref().and_then(|w| (**w).as_ref()).map(|w| w.device_ptr(stream));
        let (x, y) = match (copies, &staged) {
            (Some(p), Some((base, _))) => {
                let mut next = *base;
                let mut stage = |src: u64, layout: Layout| -> Result<u64> {
                    if !layout.padded() {
                        return Ok(src);
                    }
                    let dst = next;
                    next += layout.elements() * elem_bytes as u64;
                    // SAFETY: src holds the operand's rows·cols elements (the caller's contract); the
                    // workspace holds copy_bytes() from `base`, of which [dst, next) is this copy's.
                    unsafe { self.pad_rows(stream, src, dst, layout, elem_bytes) }?;
                    Ok(dst)
                };
                (stage(x, p.a)?, stage(y, p.b)?)
            }
            (Some(p), None) => return Err(Error::OutOfMemory { bytes: usize::try_from(p.copy_bytes(elem_bytes)).unwrap_or(usize::MAX) }),
            (None, _) => (x, y),
        };
        // C's map where it starts and its rows are on 16-byte units: the TMA kernels store through it.
        let f32_out = launch.output == OutputFormat::F32;
        let c_map = tma::c_operand(launch.shape).filter(|_| f32_out && c.is_multiple_of(tma::ALIGN)).map(|op| (op, c));
        let maps = match packing {
            Some(p) => {
                Some(self.tensor_maps.maps(stream, &tma::operands(kernel.config, &p, elem_bytes)?, kernel.precision, x, y, c_map)?)
            }
            None => None,
        };
        let map_guard = maps.as_ref().map(|m| m.device_ptr(stream));
        let (x, y, map_c) = match &map_guard {
            Some((p, _)) => {
                (*p, *p + crate::tensor_maps::MAP_BYTES, if c_map.is_some() { *p + 2 * crate::tensor_maps::MAP_BYTES } else { 0 })
            }
            None => (x, y, 0),
        };
        // The stream-K kernels' counters, locked (and their use recorded as a write, so that launches
        // on other streams queue behind this one) until the launch below is queued; 0 for the others.
        let mut counters = self.flags_at_least(stream, launch.flag_words as usize)?;
        let flags_guard = counters.as_mut().filter(|_| launch.flag_words > 0).map(|f| f.device_ptr_mut(stream));
        let flags = flags_guard.as_ref().map_or(0, |(p, _)| *p);
        let out_bf16 = u32::from(launch.output == OutputFormat::Bf16);
        let out = launch.output.code();
        let mut args = RawArgs::new();
        if kernel.config.tma {
            args.arg(&x).arg(&y).arg(&map_c).arg(&c).arg(&flags).arg(&m).arg(&n).arg(&k);
            if kernel.config.fp8_operands {
                args.arg(&finish.scales.0).arg(&finish.scales.1).arg(&out_bf16).arg(&finish.bias).arg(&finish.epilogue);
            } else if kernel.config.fused_epilogue {
                args.arg(&finish.alpha).arg(&out).arg(&finish.bias).arg(&finish.epilogue);
            }
        } else {
            args.arg(&x).arg(&y).arg(&c).arg(&m).arg(&n).arg(&k);
            if kernel.config.fused_epilogue {
                args.arg(&finish.alpha).arg(&out).arg(&finish.bias).arg(&finish.epilogue);
            }
        }
        // SAFETY: matmul_*(a, b, c, m, n, k) index A < m·k, B < k·n, C < m·n (see the kernel docs):
        // the caller vouches for those sizes, the input type (bf16/f16 have the layout of the u16 bits
        // the kernels take) and 32-bit shapes; a TMA kernel's maps describe exactly those operands in
        // the plan's layouts (the caller's buffers, the padded copies queued above, or the prepared
        // TF32 operands) and live until the launch completes (cached, or freed stream-ordered after
        // it); the launch is the one the plan states (the kernel's TileConfig: threads and dynamic
        // shared memory, planned for this GPU's SMs, as the zeroing of C for split-K and stream-K; kernel
        // 24's grid, whole clusters, at most those the GPU keeps resident: its walk takes any number);
        // `map_c` describes exactly C (m × n f32, 16-byte rows) or is null; a TMA kernel's `flags` are
        // the plan's `flag_words` zeroed counters (or null where it names
        // none), which the launch leaves zero; a stream-K kernel's grid is resident at once (one block
        // per SM), and its blocks wait only on lower ones, which the GPU dispatches first.
        let mut config = launch_config(launch.dims);
        let cluster = kernel.config.cluster;
        if cluster > 1 {
            // Kernel 24 walks its pairs of tiles with any number of whole clusters: keep them resident.
            let most = self.max_active_clusters(launch.entry, f, config)?.max(1) * cluster;
            config.grid_dim.0 = config.grid_dim.0.min(most);
        }
        // C's zeros just before the launch, which (with the overlap on) waits for them only before
        // its first add: nothing may be queued between the two. A kernel that orders itself after
        // whatever launch precedes it (`chained`) is queued as that launch's dependent.
        let dependent = if launch.zero_c {
            // SAFETY: c addresses m·n elements of the launch's output (the caller's contract).
            unsafe { self.zero_c_before(stream, launch, c) }?
        } else {
            kernel.config.chained && dependent_launch::chain_enabled()
        };
        // A chained launch of at most one block per SM is queued while the launch before it still
        // holds SMs: were two of its blocks to fit on one SM, the SMs left idle by a smaller grid before
        // it would take two each and the SMs freed later none (kernel 20's 16×128 TF32 tile, 112 blocks
        // behind itself: 10.9 µs against 9.0 spread, `docs/results/2026-12-07-s53`). Shared memory that
        // fits one block per SM spreads them as a launch on an idle GPU is spread; no kernel reads the
        // size of its dynamic shared memory, so the unused rest changes nothing it computes.
        let blocks = config.grid_dim.0 * config.grid_dim.1 * config.grid_dim.2;
        if dependent && !launch.zero_c && cluster == 1 && blocks <= self.sm_count() {
            config.shared_mem_bytes = self.one_block_per_sm(launch.entry, f, config)?;
        }
        // SAFETY: the launch contract above. Where `dependent` after the zeroing, the zero kernel is
        // the launch queued just before it, every operand it reads was written before that one
        // (stream order), and every adding kernel waits for the zeros (`griddepcontrol.wait`) before
        // its first write of C. Where `dependent` otherwise, the kernel is `chained`: it waits for every
        // earlier launch before it touches memory (`dependent_launch::follow_prior`).
        let launched = self.launched(unsafe { dependent_launch::launch(stream, f, config, &mut args, dependent) });
        drop(flags_guard);
        drop(map_guard);
        drop(staged);
        launched
    }

    /// Queues `C`'s zeros for `launch`, which adds its slices into `C`: kernel `zero_f32` where `C` is
    /// whole 4-byte words (always, for the `f32` `C` of every adding kernel), a memset otherwise.
    /// Returns whether `launch` may be queued next as the zero kernel's programmatic dependent
    /// ([`crate::dependent_launch`]).
    ///
    /// # Safety
    /// `c` addresses `m·n` elements of `launch`'s output format in this context, not used by other
    /// work until the launch completes.
    unsafe fn zero_c_before(&self, stream: &Arc<CudaStream>, launch: &KernelLaunch, c: u64) -> Result<bool> {
        let bytes = launch.shape.m as usize * launch.shape.n as usize * launch.output.bytes();
        if !bytes.is_multiple_of(4) || !c.is_multiple_of(4) {
            // SAFETY: c addresses `bytes` bytes (the caller's contract).
            unsafe { self.zero_bytes(stream, c, bytes) }?;
            return Ok(false);
        }
        let words = bytes / 4;
        let f = self.kernel("zero_f32")?;
        let mut args = RawArgs::new();
        args.arg(&c).arg(&words);
        let config = launch_config(tessera_catalogue::registry::launch::zero_f32(words, self.sm_count()));
        // SAFETY: zero_f32(c, n) writes c[0 .. n) only; c holds `words` 4-byte aligned floats' worth
        // of bytes (the caller's contract, checked above).
        self.launched(unsafe { dependent_launch::launch(stream, f, config, &mut args, false) })?;
        Ok(dependent_launch::overlap_enabled())
    }

    /// This GPU's stream-K counters, grown to at least `words` zeroed `u32` (the old ones freed first,
    /// stream-ordered) and locked for the caller's launch; none are allocated while `words` is 0.
    fn flags_at_least(&self, stream: &Arc<CudaStream>, words: usize) -> Result<MutexGuard<'_, Option<CudaSlice<u32>>>> {
        let mut guard = self.flags.lock().map_err(|_| Error::ContextPoisoned("the stream-K counters' lock was poisoned".into()))?;
        if words > 0 && guard.as_ref().is_none_or(|f| f.len() < words) {
            *guard = None; // free the old ones first
            *guard = Some(stream.alloc_zeros::<u32>(words).map_err(|_| Error::OutOfMemory { bytes: words.saturating_mul(4) })?);
        }
        Ok(guard)
    }

    /// Queues `pad_b16`: the dense `layout.rows × layout.cols` matrix at `src` copied to `dst` with
    /// rows `layout.ld` elements apart (the padding is not written).
    ///
    /// # Safety
    /// `src` addresses `rows·cols` and `dst` `rows·ld` elements of `elem_bytes` bytes in this context,
    /// not overlapping, neither written by other work until the copy completes on `stream`.
    unsafe fn pad_rows(&self, stream: &Arc<CudaStream>, src: u64, dst: u64, layout: Layout, elem_bytes: u32) -> Result<()> {
        if elem_bytes != 2 || layout.ld < layout.cols {
            let detail = format!("no padded copy of {elem_bytes}-byte rows of {} into {}", layout.cols, layout.ld);
            return Err(Error::InvalidArgument { op: "matmul", detail });
        }
        let (rows, cols, ld) = (layout.rows, layout.cols, layout.ld);
        let mut launch = stream.launch_builder(self.kernel("pad_b16")?);
        launch.arg(&src).arg(&dst).arg(&rows).arg(&cols).arg(&ld);
        // SAFETY: pad_b16(src, dst, rows, cols, ld) reads src[0..rows·cols] and writes below dst +
        // rows·ld (ld ≥ cols, checked): the caller's sizes; the launch is the catalogue's for it.
        self.launched(unsafe {
            launch.launch(launch_config(tessera_catalogue::registry::launch::pad_b16(rows, cols, ld, self.sm_count())))
        })
    }

    /// This GPU's workspace, grown to at least `floats` `f32` (the old one freed first, stream-ordered,
    /// so work already queued on it finishes first) and locked for the caller's launches.
    pub(crate) fn workspace_at_least(&self, stream: &Arc<CudaStream>, floats: usize) -> Result<MutexGuard<'_, Option<CudaSlice<f32>>>> {
        let mut guard = self.workspace.lock().map_err(|_| Error::ContextPoisoned("the workspace lock was poisoned".into()))?;
        if guard.as_ref().is_none_or(|w| w.len() < floats) {
            *guard = None; // free the old one first
            *guard = Some(stream.alloc_zeros::<f32>(floats).map_err(|_| Error::OutOfMemory { bytes: floats.saturating_mul(4) })?);
        }
        Ok(guard)
    }

    /// A kernel that takes prepared TF32 operands (kernels 14–16's TF32 entries): rounds and
    /// transposes `B` into the workspace (`Bᵀ`, `n × k`), rounds `A` into it unless the kernel rounds
    /// `A` itself and can read it in place (kernels 15–16 where K is a multiple of 4), then runs the
    /// kernel — two or three launches in stream order, all inside the caller's timing. Kernel 14
    /// reads dense rows; for the TMA kernels the preparation writes the rows of
    /// [`tessera_catalogue::registry::tma::plan`] (padded to 4 floats where K is not a multiple of 4), so they
    /// need no further copy. The workspace (`m·lda + n·ldb` floats, or `n·ldb`) is kept for the next
    /// call.
    ///
    /// # Safety
    /// As [`Gpu::launch_kernel`], with `a`, `b` of `f32`; `f` is the launch's entry.
    #[allow(clippy::too_many_arguments)]
    unsafe fn matmul_prepared_tf32(
        &self,
        stream: &Arc<CudaStream>,
        f: &cudarc::driver::CudaFunction,
        launch: &KernelLaunch,
        a: u64,
        b: u64,
        c: u64,
        finish: FinishArgs,
    ) -> Result<()> {
        let kernel = launch.kernel();
        let (m, n, k) = (launch.shape.m, launch.shape.n, launch.shape.k);
        let (lda, ldb, a_in_place) =
            if let Some(p) = launch.tma { (p.a.ld, p.b.ld, kernel.config.rounds_a && !p.a.padded()) } else { (k, k, false) };
        let a_len = if a_in_place { 0 } else { m as u64 * lda as u64 };
        let floats = workspace_floats(4 * (a_len + n as u64 * ldb as u64))?;
        let work = self.workspace_at_least(stream, floats)?;
        let Some(work) = work.as_ref() else { return Err(Error::OutOfMemory { bytes: floats.saturating_mul(4) }) };
        let (base, _record) = work.device_ptr(stream);
        let (a_prep, bt_prep) = if a_in_place { (a, base) } else { (base, base + 4 * a_len) };
        if !a_in_place {
            let mut round = stream.launch_builder(self.kernel("tf32_round")?);
            round.arg(&a).arg(&a_prep).arg(&m).arg(&k).arg(&lda);
            // SAFETY: tf32_round(src, dst, rows, cols, ld) reads src[0..m·k] and writes below dst + m·lda
            // (lda ≥ k): A holds m·k f32 (the caller's contract; TF32 inputs are f32), the workspace
            // m·lda + n·ldb floats from a_prep; they do not overlap (the workspace is tessera's own).
            self.launched(unsafe { round.launch(launch_config(tessera_catalogue::registry::launch::tf32_round(m, k))) })?;
        }
        let mut transpose = stream.launch_builder(self.kernel("tf32_transpose_round")?);
        transpose.arg(&b).arg(&bt_prep).arg(&k).arg(&n).arg(&ldb);
        // SAFETY: tf32_transpose_round(src, dst, rows = k, cols = n, ld) reads src[0..k·n] (B) and writes
        // below dst + n·ldb (ldb ≥ k): the workspace after A' (from its start when A is read in place).
        self.launched(unsafe { transpose.launch(launch_config(tessera_catalogue::registry::launch::tf32_transpose(k, n))) })?;
        // SAFETY: the kernel reads A' (m × k, rows lda apart: the caller's A where it rounds A itself
        // and lda = k) and Bᵀ' (n × k, rows ldb apart), prepared above in stream order with the
        // leading dimensions it reads (the plan's for a TMA kernel, dense for kernel 14), and writes
        // C < m·n (the caller's contract).
        unsafe { self.launch_product(stream, f, launch, a_prep, bt_prep, c, finish) }
    }

    /// Uploads `a` and `b`, runs [`Gpu::matmul`] (FP32), and downloads the product.
    pub fn matmul_host(&self, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix> {
        self.matmul_host_in(Precision::Fp32, algo, a, b)
    }

    /// Uploads `a` and `b` rounded to `precision`'s input type (`f32`, `bf16`, `f16`, FP8: nearest,
    /// saturated), runs the product in `precision` (TF32 through [`Gpu::matmul_tf32`]), and downloads `C`.
    pub fn matmul_host_in(&self, precision: Precision, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix> {
        GemmDims::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols))?;
        let mut dc = DeviceMatrix::<f32>::zeros(self, a.rows, b.cols)?;
        match precision {
            Precision::Fp32 | Precision::Tf32 => {
                let (da, db) = (DeviceMatrix::<f32>::from_host(self, a)?, DeviceMatrix::<f32>::from_host(self, b)?);
                self.matmul_in(precision, algo, &da, &db, &mut dc)?;
            }
            Precision::Bf16 => {
                let (da, db) = (DeviceMatrix::<bf16>::from_host(self, a)?, DeviceMatrix::<bf16>::from_host(self, b)?);
                self.matmul(algo, &da, &db, &mut dc)?;
            }
            Precision::Fp16 => {
                let (da, db) = (DeviceMatrix::<f16>::from_host(self, a)?, DeviceMatrix::<f16>::from_host(self, b)?);
                self.matmul(algo, &da, &db, &mut dc)?;
            }
            Precision::Fp8E4m3 => {
                let (da, db) = (DeviceMatrix::<F8E4M3>::from_host(self, a)?, DeviceMatrix::<F8E4M3>::from_host(self, b)?);
                self.matmul(algo, &da, &db, &mut dc)?;
            }
            Precision::Fp8E5m2 => {
                let (da, db) = (DeviceMatrix::<F8E5M2>::from_host(self, a)?, DeviceMatrix::<F8E5M2>::from_host(self, b)?);
                self.matmul(algo, &da, &db, &mut dc)?;
            }
        }
        self.synchronize()?;
        dc.to_host(self)
    }
}

/// `bytes` of workspace as a count of `f32` (rounded up), or [`Error::TooLarge`] past this host's
/// address space.
fn workspace_floats(bytes: u64) -> Result<usize> {
    usize::try_from(bytes.div_ceil(4))
        .map_err(|_| Error::TooLarge { op: "matmul", detail: format!("a workspace of {bytes} bytes exceeds the address space") })
}

/// Bytes per input element of a blocked plan's products (4 when it has none).
fn plan_input_bytes(launch: Option<&LaunchPlan>) -> usize {
    launch.map_or(4, |l| l.precision.input_bytes() as usize)
}
