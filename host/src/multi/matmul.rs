//! `C = A · B` over several GPUs: the catalogue's plan (`tessera_catalogue::plan::distribute`) issued with
//! NCCL (operands on GPU 0) or host uploads (operands in host memory).
//!
//! Each GPU computes on one stream and transfers on a second, high-priority one (neither the default
//! stream, see [`super`]); the transfers are queued before GPU 0's own steps, so NCCL's kernels get
//! their SMs before the matmul fills them.
//! A step that needs a transfer waits for an event recorded after it on the transfer stream; a band
//! of `C` travels back after an event recorded after its last step (GPU 0's receive waits for that
//! event too, so its NCCL kernel does not occupy SMs before the data exists). Nothing synchronizes
//! the host inside a product; each product waits for every stream before it returns.
use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

use cudarc::driver::{result, CudaEvent, CudaStream, DevicePtr, DevicePtrMut};
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::plan::distribute::{DistPlan, GpuPlan, Origin, Transfer};
use tessera_catalogue::precision::Element;
use tessera_catalogue::{Algo, HostMatrix, Planner, Precision};

use super::rows::{RowBlock, RowBlocks};
use super::timeline::{Recorder, Timeline};
use super::{mark, poisoned_lock, wait, MultiGpu, RankCache};
use crate::blocked::{alloc_bytes, raw_ptr, BlockRun, Homes, WorkBuffers};
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix};
use crate::{bf16, f16};

/// Largest host slice one upload converts and copies at once (bounds the converted copy of 16-bit inputs).
const UPLOAD_PIECE: usize = 256 << 20;

/// Waits for the given streams when dropped, so no queued copy or kernel outlives the buffers and
/// borrows of the call that queued it (also when it returns early with an error).
struct SyncOnExit<'a>(Vec<&'a CudaStream>);

impl Drop for SyncOnExit<'_> {
    fn drop(&mut self) {
        for s in &self.0 {
            let _ = s.synchronize();
        }
    }
}

/// The steps of one GPU's plan issued so far, and the events that mark its finished bands.
struct Issuer<'a> {
    plan: &'a GpuPlan,
    planner: Planner<'a>,
    run: BlockRun<'a>,
    next: usize,
    band_done: Vec<Option<CudaEvent>>,
}

impl<'a> Issuer<'a> {
    fn new(plan: &'a GpuPlan, planner: Planner<'a>, run: BlockRun<'a>) -> Self {
        Issuer { band_done: plan.bands.iter().map(|_| None).collect(), plan, planner, run, next: 0 }
    }

    /// Whether the next step needs no transfer after `arrived`.
    fn ready(&self, arrived: Option<usize>) -> bool {
        self.next < self.plan.steps.len() && self.plan.needs[self.next] <= arrived
    }

    /// Queues every step that needs no transfer after `arrived` (`None`: none at all), marking each
    /// band whose last step it queues.
    ///
    /// # Safety
    /// The run's homes must hold the GPU's operands, with every transfer up to `arrived` ordered
    /// before the compute stream's next work.
    unsafe fn issue(&mut self, arrived: Option<usize>, g: usize, trace: &mut Recorder) -> Result<()> {
        while self.ready(arrived) {
            let ops = self.planner.step_ops(&self.plan.steps[self.next], self.run.dims)?;
            // SAFETY: forwarded contract; the plan's steps fit the homes' dimensions, and each product
            // is planned for this GPU.
            unsafe { self.run.ops(&ops)? };
            let s = &self.plan.steps[self.next];
            trace.mark(g, self.run.gpu, self.run.stream, || format!("step {} done (rows {:?}, K {:?})", self.next, s.rows, s.depth))?;
            for (j, last) in self.plan.band_last_step.iter().enumerate() {
                if *last == Some(self.next) {
                    self.band_done[j] = Some(mark(self.run.gpu, self.run.stream)?);
                }
            }
            self.next += 1;
        }
        Ok(())
    }
}

impl MultiGpu {
    /// `c = a · b` with `a`, `b` and `c` on GPU 0, split over the GPUs by rows of `A` and `C`, in the
    /// precision of the inputs (as [`Gpu::matmul`]): GPU 0 computes its rows in place, sends the
    /// others their rows of `A` and broadcasts `B` (NCCL), and receives their rows of `C`. Any size:
    /// each GPU's part is cut into blocks when it exceeds one launch. Returns when `c` is complete.
    ///
    /// Errors, before anything is queued: as [`Gpu::matmul`] (types, precision, shapes, contexts —
    /// all three on GPU 0 —, buffer sizes), [`Error::OutOfMemoryOn`] when a GPU has not the memory
    /// its part needs; [`Error::Nccl`] when a transfer fails (the communicators are aborted, the
    /// GPUs stay usable).
    pub fn matmul<T: DeviceElement>(&self, algo: Algo, a: &DeviceMatrix<T>, b: &DeviceMatrix<T>, c: &mut DeviceMatrix) -> Result<()> {
        self.matmul_root(T::PRECISION, algo, a, b, c, false).map(|_| ())
    }

    /// [`MultiGpu::matmul`] on `f32` data in TF32 (the caller's explicit choice, as [`Gpu::matmul_tf32`]).
    pub fn matmul_tf32(&self, algo: Algo, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix) -> Result<()> {
        self.matmul_root(Precision::Tf32, algo, a, b, c, false).map(|_| ())
    }

    /// [`MultiGpu::matmul`], and when each transfer arrived, each step finished and each band of `C`
    /// came back on every GPU (timing events: a little issue time more than `matmul`).
    pub fn matmul_traced<T: DeviceElement>(
        &self,
        algo: Algo,
        a: &DeviceMatrix<T>,
        b: &DeviceMatrix<T>,
        c: &mut DeviceMatrix,
    ) -> Result<Timeline> {
        self.matmul_root(T::PRECISION, algo, a, b, c, true)
    }

    /// `A · B` in `precision` with `a` and `b` in host memory: every GPU uploads its rows of `A` and
    /// all of `B` (in chunks along K, computing as they arrive), all GPUs at once; `C` stays on the
    /// GPUs, each holding its rows ([`RowBlocks`]: sample it, or download it with
    /// [`RowBlocks::to_host`]). For products larger than one GPU holds.
    ///
    /// Errors, before anything is allocated: shapes, precision (as [`Gpu::matmul_host_in`]),
    /// [`Error::OutOfMemoryOn`] when a GPU has not the memory its part needs.
    pub fn matmul_host_in(&self, precision: Precision, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<RowBlocks> {
        const OP: &str = "MultiGpu::matmul_host_in";
        self.check_usable()?;
        let dims = GemmDims::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols))?;
        for (name, m) in [("A", a), ("B", b)] {
            if m.data.len() != m.rows * m.cols {
                return Err(Error::BufferTooSmall { op: OP, name, len: m.data.len(), needed: m.rows * m.cols });
            }
        }
        match precision {
            Precision::Fp32 | Precision::Tf32 => self.matmul_from_host::<f32>(precision, algo, dims, a, b),
            Precision::Bf16 => self.matmul_from_host::<bf16>(precision, algo, dims, a, b),
            Precision::Fp16 => self.matmul_from_host::<f16>(precision, algo, dims, a, b),
            Precision::Fp8E4m3 | Precision::Fp8E5m2 => Err(Error::NoKernel { op: OP, precision }),
        }
    }

    /// The plan of `dims` from `origin` for these GPUs, with every launch's kernel checked.
    fn checked_plan(&self, op: &'static str, dims: GemmDims, origin: Origin, algo: Algo, precision: Precision) -> Result<DistPlan> {
        let align = self.gpus()[0].planner(op, algo, precision).align()?;
        let plan = DistPlan::new(dims, self.len(), origin, align, self.options());
        for (g, gp) in plan.gpus.iter().enumerate() {
            let local = GemmDims { m: gp.rows.len(), n: dims.n, k: dims.k };
            self.gpus()[g].planner(op, algo, precision).check_steps(&gp.steps, local)?;
        }
        Ok(plan)
    }

    fn matmul_root<TA: DeviceElement, TB: DeviceElement>(
        &self,
        precision: Precision,
        algo: Algo,
        a: &DeviceMatrix<TA>,
        b: &DeviceMatrix<TB>,
        c: &mut DeviceMatrix,
        trace: bool,
    ) -> Result<Timeline> {
        const OP: &str = "MultiGpu::matmul";
        self.check_usable()?;
        let root = &self.gpus()[0];
        let dims = GemmDims::check((a.rows(), a.cols()), (b.rows(), b.cols()), (c.rows(), c.cols()))?;
        let plan = self.checked_plan(OP, dims, Origin::Root, algo, precision)?;
        a.buffer().check_context(root, OP)?;
        b.buffer().check_context(root, OP)?;
        c.buffer().check_context(root, OP)?;
        let GemmDims { m, n, k } = dims;
        for (name, len, needed) in [("A", a.buffer().len(), m * k), ("B", b.buffer().len(), k * n), ("C", c.buffer().len(), m * n)] {
            if len < needed {
                return Err(Error::BufferTooSmall { op: OP, name, len, needed });
            }
        }
        if m == 0 || n == 0 {
            return Ok(Timeline::default());
        }
        if k == 0 {
            let mut out = c.buffer_mut().slice.slice_mut(0..m * n);
            root.stream().memset_zeros(&mut out).map_err(Error::driver("zeroing C", 0))?;
            return root.synchronize().map(|_| Timeline::default());
        }
        let size = std::mem::size_of::<TA>();
        let mut cache = self.cache.lock().map_err(|_| poisoned_lock())?;
        let ptrs = self.root_buffers(&plan, size, &mut cache)?;

        let (pa, _read_a) = a.buffer().slice.device_ptr(root.stream());
        let (pb, _read_b) = b.buffer().slice.device_ptr(root.stream());
        let (pc, _write_c) = c.buffer_mut().slice.device_ptr_mut(root.stream());
        // From here on work is queued: whatever happens, every stream is waited for before the
        // borrows of a, b, c end (this guard drops before the three above).
        let _sync = SyncOnExit(self.all_streams());
        let mut trace = Recorder::new(trace, self.len());
        self.fence(&mut trace)?;
        let works: Vec<WorkBuffers> = ptrs.iter().map(|p| WorkBuffers::borrowed([p[3], p[4], p[5], p[6]])).collect();
        let mut issuers: Vec<Issuer> = (0..self.len())
            .map(|g| {
                let gpu = &self.gpus()[g];
                let homes = if g == 0 { Homes { a: pa, b: pb, c: pc } } else { Homes { a: ptrs[g][0], b: ptrs[g][1], c: ptrs[g][2] } };
                let local = GemmDims { m: plan.gpus[g].rows.len(), n, k };
                let run = BlockRun { gpu, stream: self.compute_stream(g), input_bytes: size, homes, work: &works[g], dims: local };
                Issuer::new(&plan.gpus[g], gpu.planner(OP, algo, precision), run)
            })
            .collect();
        // SAFETY (every `issue` below): GPU 0's homes are the caller's a, b, c (checked sizes, borrowed
        // until the streams are waited for); the other GPUs' homes are their cached buffers, sized
        // from this plan; each step is queued only after the transfers it needs (events below).
        let row_bytes_a = k * size;
        for (t, transfer) in plan.transfers.iter().enumerate() {
            self.group("sending the operands", |comms| {
                match *transfer {
                    Transfer::A { piece } => {
                        for (g, gp) in plan.gpus.iter().enumerate().skip(1) {
                            let r = &gp.a_pieces[piece];
                            if r.is_empty() {
                                continue;
                            }
                            let bytes = r.len() * row_bytes_a;
                            let src = pa + ((gp.rows.start + r.start) * row_bytes_a) as u64;
                            // SAFETY: rows of the caller's A (inside its checked size) and of GPU g's
                            // A buffer (sized rows·k); nothing writes either until the transfers finish.
                            unsafe {
                                comms.send(0, src, bytes, g, self.transfer_stream(0))?;
                                comms.recv(g, ptrs[g][0] + (r.start * row_bytes_a) as u64, bytes, 0, self.transfer_stream(g))?;
                            }
                        }
                    }
                    Transfer::B { chunk } => {
                        let r = &plan.b_chunks[chunk];
                        let (offset, bytes) = ((r.start * n * size) as u64, r.len() * n * size);
                        for (g, p) in ptrs.iter().enumerate() {
                            let buf = if g == 0 { pb } else { p[1] };
                            // SAFETY: rows r of B: the caller's B on GPU 0 (read), GPU g's B buffer
                            // (k·n inputs) elsewhere; the compute streams read them only after this.
                            unsafe { comms.broadcast(g, buf + offset, bytes, 0, self.transfer_stream(g))? };
                        }
                    }
                }
                Ok(())
            })?;
            for (g, issuer) in issuers.iter_mut().enumerate() {
                let gpu = &self.gpus()[g];
                trace.mark(g, gpu, self.transfer_stream(g), || format!("transfer {t} ({transfer:?}) done"))?;
                // The root's steps wait for a transfer only with `root_waits_for_sends` (else below, unordered).
                if issuer.ready(Some(t)) && !issuer.ready(None) {
                    let arrived = mark(gpu, self.transfer_stream(g))?;
                    wait(gpu, self.compute_stream(g), &arrived)?;
                    // SAFETY: see above; the wait orders transfer t before these steps.
                    unsafe { issuer.issue(Some(t), g, &mut trace)? };
                }
            }
        }
        // Unless it waits for B, GPU 0 needs no transfer: its steps go after the transfers' kernels are queued.
        // SAFETY: see above.
        unsafe { issuers[0].issue(None, 0, &mut trace)? };
        for issuer in &issuers {
            if issuer.next != issuer.plan.steps.len() {
                return Err(Error::InvalidArgument { op: OP, detail: "the plan left steps no transfer unblocks".into() });
            }
        }
        // C comes back band by band: each send (and GPU 0's receive) waits for the band's last step.
        let bands = plan.gpus.iter().map(|g| g.bands.len()).max().unwrap_or(0);
        for j in 0..bands {
            let senders: Vec<(usize, &Range<usize>, &CudaEvent)> = issuers
                .iter()
                .enumerate()
                .skip(1)
                .filter_map(|(g, is)| Some((g, plan.gpus[g].bands.get(j)?, is.band_done.get(j)?.as_ref()?)))
                .filter(|(_, band, _)| !band.is_empty())
                .collect();
            if senders.is_empty() {
                continue;
            }
            for &(g, _, done) in &senders {
                wait(&self.gpus()[g], self.transfer_stream(g), done)?;
                wait(root, self.transfer_stream(0), done)?;
            }
            self.group("returning C", |comms| {
                for &(g, band, _) in &senders {
                    let bytes = band.len() * n * 4;
                    let dst = pc + ((plan.gpus[g].rows.start + band.start) * n * 4) as u64;
                    // SAFETY: rows `band` of GPU g's C buffer (computed: the waits above) and the
                    // same rows of the caller's C (inside its checked size, written by nothing else).
                    unsafe {
                        comms.send(g, ptrs[g][2] + (band.start * n * 4) as u64, bytes, 0, self.transfer_stream(g))?;
                        comms.recv(0, dst, bytes, g, self.transfer_stream(0))?;
                    }
                }
                Ok(())
            })?;
            trace.mark(0, root, self.transfer_stream(0), || format!("band {j} of every GPU returned"))?;
        }
        drop(issuers);
        self.join()?;
        trace.finish()
    }

    /// Every stream of every GPU (default, compute, transfer).
    fn all_streams(&self) -> Vec<&CudaStream> {
        let mut out: Vec<&CudaStream> = self.gpus().iter().map(|g| g.stream().as_ref()).collect();
        out.extend(self.compute.iter().chain(&self.transfer).map(|s| s.as_ref()));
        out
    }

    /// Orders each GPU's compute and transfer streams after the work already queued on its default
    /// stream (the caller's, allocations, earlier products).
    pub(crate) fn fence(&self, trace: &mut Recorder) -> Result<()> {
        for g in 0..self.len() {
            self.fence_one(g, trace)?;
        }
        Ok(())
    }

    fn fence_one(&self, g: usize, trace: &mut Recorder) -> Result<()> {
        let gpu = &self.gpus()[g];
        trace.start(g, gpu, gpu.stream())?;
        let ev = mark(gpu, gpu.stream())?;
        wait(gpu, self.compute_stream(g), &ev)?;
        wait(gpu, self.transfer_stream(g), &ev)
    }

    /// Orders each default stream after its GPU's compute and transfer streams, then waits for all.
    pub(crate) fn join(&self) -> Result<()> {
        for g in 0..self.len() {
            self.join_one(g)?;
        }
        Ok(())
    }

    fn join_one(&self, g: usize) -> Result<()> {
        let gpu = &self.gpus()[g];
        for s in [self.compute_stream(g), self.transfer_stream(g)] {
            let ev = mark(gpu, s)?;
            wait(gpu, gpu.stream(), &ev)?;
        }
        gpu.synchronize()
    }

    /// The cached buffers of every GPU for `plan` (grown when too small, after checking that every
    /// GPU has the memory), as addresses: `[A, B, C, APack, BPack, CPack, Scratch]` (0: none).
    fn root_buffers(&self, plan: &DistPlan, size: usize, cache: &mut [RankCache]) -> Result<Vec<[u64; 7]>> {
        let GemmDims { n, k, .. } = plan.dims;
        let needs: Vec<[usize; 7]> = plan
            .gpus
            .iter()
            .enumerate()
            .map(|(g, gp)| {
                let ws = gp.workspace;
                let rows = gp.rows.len();
                let own = if g == 0 { [0, 0, 0] } else { [rows * k * size, k * n * size, rows * n * 4] };
                [own[0], own[1], own[2], ws.a_pack * size, ws.b_pack * size, ws.c_pack * 4, ws.scratch * 4]
            })
            .collect();
        let held = |c: &Option<cudarc::driver::CudaSlice<u8>>| c.as_ref().map_or(0, |s| s.len());
        for (g, need) in needs.iter().enumerate() {
            let growth: usize = need.iter().zip(&cache[g].slots).filter(|(n, c)| **n > held(c)).map(|(n, c)| n - held(c)).sum();
            self.check_free(g, growth)?;
        }
        let mut ptrs = Vec::with_capacity(needs.len());
        for (g, need) in needs.iter().enumerate() {
            let gpu = &self.gpus()[g];
            let mut p = [0u64; 7];
            for (slot, &bytes) in need.iter().enumerate() {
                if bytes == 0 {
                    continue;
                }
                if held(&cache[g].slots[slot]) < bytes {
                    cache[g].slots[slot] = None; // free the smaller buffer first
                    cache[g].slots[slot] = Some(alloc_bytes(gpu, gpu.stream(), "a multi-GPU product's buffers", bytes)?);
                }
                p[slot] = cache[g].slots[slot].as_ref().map_or(0, |s| raw_ptr(s, gpu.stream()));
            }
            ptrs.push(p);
        }
        Ok(ptrs)
    }

    fn matmul_from_host<T: DeviceElement>(
        &self,
        precision: Precision,
        algo: Algo,
        dims: GemmDims,
        a: &HostMatrix,
        b: &HostMatrix,
    ) -> Result<RowBlocks> {
        let plan = self.checked_plan("MultiGpu::matmul_host_in", dims, Origin::Host, algo, precision)?;
        let size = std::mem::size_of::<T>();
        let GemmDims { n, k, .. } = dims;
        for (g, gp) in plan.gpus.iter().enumerate() {
            let rows = gp.rows.len();
            let inputs = if gp.receives { rows * k * size + k * n * size } else { 0 };
            self.check_free(g, inputs + rows * n * 4 + gp.workspace.bytes(size))?;
        }
        let start = Instant::now();
        let parts = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..self.len())
                .map(|g| {
                    let plan = &plan;
                    scope.spawn(move || self.rank_from_host::<T>(g, plan, precision, algo, a, b, start))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(poisoned_lock()))).collect::<Vec<_>>()
        });
        let parts = parts.into_iter().collect::<Result<Vec<_>>>()?;
        Ok(RowBlocks { rows: dims.m, cols: dims.n, parts })
    }

    /// GPU `g`'s part of a product from the host (runs on its own host thread).
    #[allow(clippy::too_many_arguments)]
    fn rank_from_host<T: DeviceElement>(
        &self,
        g: usize,
        plan: &DistPlan,
        precision: Precision,
        algo: Algo,
        a: &HostMatrix,
        b: &HostMatrix,
        start: Instant,
    ) -> Result<RowBlock> {
        let gpu = &self.gpus()[g];
        let gp = &plan.gpus[g];
        let GemmDims { n, k, .. } = plan.dims;
        let size = std::mem::size_of::<T>();
        let mut c = DeviceMatrix::<f32>::zeros(gpu, gp.rows.len(), n)?;
        let block = |c, upload_s| RowBlock { gpu: g, rows: gp.rows.clone(), matrix: c, upload_s, done_s: start.elapsed().as_secs_f64() };
        if gp.steps.is_empty() {
            gpu.synchronize()?;
            return Ok(block(c, 0.0));
        }
        let (stream, transfer) = (self.compute_stream(g), self.transfer_stream(g));
        // Allocated on the default stream; the fence below orders both streams after it.
        let a_buf = alloc_bytes(gpu, gpu.stream(), "A rows", gp.rows.len() * k * size)?;
        let b_buf = alloc_bytes(gpu, gpu.stream(), "B", k * n * size)?;
        let work = WorkBuffers::alloc(gpu, gpu.stream(), gp.workspace, size)?;
        let (pa, pb) = (raw_ptr(&a_buf, gpu.stream()), raw_ptr(&b_buf, gpu.stream()));
        let upload_s;
        {
            let (pc, _write_c) = c.buffer_mut().slice.device_ptr_mut(gpu.stream());
            let _sync = SyncOnExit(vec![gpu.stream().as_ref(), stream.as_ref(), transfer.as_ref()]);
            self.fence_one(g, &mut Recorder::new(false, self.len()))?;
            let local = GemmDims { m: gp.rows.len(), n, k };
            let run = BlockRun { gpu, stream, input_bytes: size, homes: Homes { a: pa, b: pb, c: pc }, work: &work, dims: local };
            let mut issuer = Issuer::new(gp, gpu.planner("MultiGpu::matmul_host_in", algo, precision), run);
            for (t, tr) in plan.transfers.iter().enumerate() {
                let (host, dst) = match *tr {
                    Transfer::A { piece } => {
                        let r = &gp.a_pieces[piece];
                        let rows = gp.rows.start + r.start..gp.rows.start + r.end;
                        (&a.data[rows.start * k..rows.end * k], pa + (r.start * k * size) as u64)
                    }
                    Transfer::B { chunk } => {
                        let r = &plan.b_chunks[chunk];
                        (&b.data[r.start * n..r.end * n], pb + (r.start * n * size) as u64)
                    }
                };
                // SAFETY: dst is the matching range of this GPU's A or B buffer (sized from the plan),
                // which the compute stream reads only after the event below.
                unsafe { upload::<T>(gpu, transfer, host, dst)? };
                if let Some(report) = &self.progress {
                    report(format!(
                        "GPU {g}: transfer {}/{} uploaded ({:.1} s)",
                        t + 1,
                        plan.transfers.len(),
                        start.elapsed().as_secs_f64()
                    ));
                }
                if issuer.ready(Some(t)) {
                    let arrived = mark(gpu, transfer)?;
                    wait(gpu, stream, &arrived)?;
                    // SAFETY: the homes hold this GPU's operands; the wait orders transfer t first.
                    unsafe { issuer.issue(Some(t), g, &mut Recorder::new(false, self.len()))? };
                }
            }
            upload_s = start.elapsed().as_secs_f64();
            if issuer.next != gp.steps.len() {
                return Err(Error::InvalidArgument {
                    op: "MultiGpu::matmul_host_in",
                    detail: "the plan left steps no transfer unblocks".into(),
                });
            }
            self.join_one(g)?;
        }
        drop((a_buf, b_buf, work));
        gpu.synchronize()?;
        Ok(block(c, upload_s))
    }
}

/// Copies the `f32` values `host`, rounded to `T`, to the device address `dst` on `stream`, in pieces
/// of at most [`UPLOAD_PIECE`] bytes (each converted just before its copy).
///
/// # Safety
/// `dst` must be valid device memory of `gpu` for `host.len()` elements of `T`, unused by other
/// streams until the copies complete on `stream`.
unsafe fn upload<T: DeviceElement>(gpu: &Gpu, stream: &Arc<CudaStream>, host: &[f32], dst: u64) -> Result<()> {
    gpu.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;
    let per_piece = (UPLOAD_PIECE / std::mem::size_of::<T>()).max(1);
    for (i, piece) in host.chunks(per_piece).enumerate() {
        let data = <T as Element>::from_f32_slice(piece);
        let at = dst + (i * per_piece * std::mem::size_of::<T>()) as u64;
        // SAFETY: `data` is pageable host memory: the driver stages it before the call returns, so
        // it may be dropped right after; the destination range is the caller's contract.
        unsafe { result::memcpy_htod_async(at, &data[..], stream.cu_stream()) }.map_err(|e| gpu.fault(e, "uploading operands"))?;
    }
    Ok(())
}
