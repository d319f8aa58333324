//! Running a block schedule (`tessera_catalogue::blocks`) on one GPU: its 2D copies, kernel
//! launches and additions, on raw device pointers, queued on one stream.
//!
//! The plan says *what* (which sub-GEMM, which pack, which addition); this module only turns each
//! [`BlockOp`] into one driver call: `cuMemcpy2DAsync` for a pack, one launch of the resolved matmul
//! kernel, one launch of `vec_add_vec4` in place (`C_blk += scratch`) for an accumulation.
use std::sync::Arc;

use cudarc::driver::{sys, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg};
use tessera_catalogue::blocks::{plan_steps, step_ops, workspace_of, Align, BlockOp, BlockPlan, GemmDims, Limits, Loc, Step, Workspace};
use tessera_catalogue::{launch, Algo, MatmulShape, Precision};

use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix};
use crate::ops::launch_config;

/// Device addresses of the three matrices of one (local) product.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Homes {
    pub a: u64,
    pub b: u64,
    pub c: u64,
}

/// The work buffers of a schedule (see [`Workspace`]): their addresses, and the allocations when
/// this value owns them.
pub(crate) struct WorkBuffers {
    /// `APack`, `BPack`, `CPack`, `Scratch` (0 when unused).
    ptrs: [u64; 4],
    _owned: Vec<CudaSlice<u8>>,
}

impl WorkBuffers {
    /// Allocates (zeroed) the buffers `ws` asks for, inputs of `input_bytes` per element, on `stream`.
    pub fn alloc(gpu: &Gpu, stream: &Arc<CudaStream>, ws: Workspace, input_bytes: usize) -> Result<Self> {
        let mut owned = Vec::new();
        let mut ptrs = [0u64; 4];
        for (slot, (elems, size)) in
            [(ws.a_pack, input_bytes), (ws.b_pack, input_bytes), (ws.c_pack, 4), (ws.scratch, 4)].into_iter().enumerate()
        {
            if elems == 0 {
                continue;
            }
            let buf = alloc_bytes(gpu, stream, "the matmul workspace", elems.saturating_mul(size))?;
            ptrs[slot] = raw_ptr(&buf, stream);
            owned.push(buf);
        }
        Ok(Self { ptrs, _owned: owned })
    }

    /// Buffers owned elsewhere, at these addresses (`APack`, `BPack`, `CPack`, `Scratch`).
    pub fn borrowed(ptrs: [u64; 4]) -> Self {
        Self { ptrs, _owned: Vec::new() }
    }
}

/// `bytes` zeroed bytes of device memory on `stream` ([`Error::OutOfMemory`] when they do not fit).
pub(crate) fn alloc_bytes(gpu: &Gpu, stream: &Arc<CudaStream>, what: &'static str, bytes: usize) -> Result<CudaSlice<u8>> {
    let bytes = crate::buffer::byte_len::<u8>(what, bytes)?;
    gpu.check_usable()?;
    stream.alloc_zeros::<u8>(bytes.max(1)).map_err(Error::driver("allocating device memory", bytes))
}

/// The address of `slice` (the tracking guard is dropped at once: tessera orders these buffers itself).
pub(crate) fn raw_ptr<T>(slice: &CudaSlice<T>, stream: &CudaStream) -> u64 {
    let (ptr, _record) = slice.device_ptr(stream);
    ptr
}

/// The matmul kernel `algo` runs for `shape` in `precision` on `gpu` (its sm_90a module and SM
/// count), or [`Error::PrecisionMismatch`] when it computes in another precision.
pub(crate) fn resolve_kernel(op: &'static str, algo: Algo, shape: MatmulShape, precision: Precision, gpu: &Gpu) -> Result<Algo> {
    let resolved = algo.resolve_on_sms(shape, precision, gpu.has_sm90a(), gpu.sm_count());
    let kernel = resolved.kernel().ok_or(Error::InvalidArgument { op, detail: "Auto resolved to no kernel".into() })?;
    if kernel.precision != precision {
        return Err(Error::PrecisionMismatch { op, kernel: kernel.entry, kernel_precision: kernel.precision, requested: precision });
    }
    if kernel.config.tma {
        // The tensor maps of the plan (rows padded to 16 bytes where needed), before anything is queued.
        let packing = tessera_catalogue::tma::plan(kernel.config, shape, precision.input_bytes());
        tessera_catalogue::tma::operands(kernel.config, &packing, precision.input_bytes())?;
    }
    Ok(resolved)
}

/// Checks that `algo` runs in `precision` for every launch of `steps` (before anything is queued).
pub(crate) fn check_kernels(op: &'static str, gpu: &Gpu, algo: Algo, precision: Precision, steps: &[Step]) -> Result<()> {
    for s in steps {
        let shape = MatmulShape { m: s.rows.len() as u32, n: s.cols.len() as u32, k: s.depth.len() as u32 };
        resolve_kernel(op, algo, shape, precision, gpu)?;
    }
    Ok(())
}

/// One schedule's execution context: where the operands live, the work buffers, the kernel choice.
pub(crate) struct BlockRun<'a> {
    pub gpu: &'a Gpu,
    pub stream: &'a Arc<CudaStream>,
    pub algo: Algo,
    pub precision: Precision,
    pub input_bytes: usize,
    pub homes: Homes,
    pub work: &'a WorkBuffers,
    /// The local product the steps belong to (its `A` is `m × k`, `B` `k × n`, `C` `m × n`).
    pub dims: GemmDims,
}

impl BlockRun<'_> {
    /// Queues every operation of `step`.
    ///
    /// # Safety
    /// [`Homes`] must hold `A` (`m·k`), `B` (`k·n`) input elements and `C` (`m·n`) floats of
    /// `self.dims` on this GPU, 16-byte aligned, and nothing else may write them (or read `C`) until
    /// the stream has run the step; the work buffers must be sized for the steps' [`Workspace`];
    /// the kernels must have been checked with [`check_kernels`].
    pub unsafe fn step(&self, step: &Step) -> Result<()> {
        self.gpu.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;
        for op in step_ops(step, self.dims) {
            // SAFETY: the caller's contract covers every location the plan's operations name.
            unsafe { self.op(&op)? };
        }
        Ok(())
    }

    fn ptr(&self, loc: Loc) -> u64 {
        let size = if loc.is_input() { self.input_bytes } else { 4 };
        let (base, offset) = match loc {
            Loc::A(o) => (self.homes.a, o),
            Loc::B(o) => (self.homes.b, o),
            Loc::C(o) => (self.homes.c, o),
            Loc::APack => (self.work.ptrs[0], 0),
            Loc::BPack => (self.work.ptrs[1], 0),
            Loc::CPack => (self.work.ptrs[2], 0),
            Loc::Scratch => (self.work.ptrs[3], 0),
        };
        base + (offset * size) as u64
    }

    /// # Safety
    /// As [`BlockRun::step`].
    unsafe fn op(&self, op: &BlockOp) -> Result<()> {
        match *op {
            BlockOp::Copy2d { src, src_pitch, dst, dst_pitch, width, height } => {
                let size = if src.is_input() { self.input_bytes } else { 4 };
                // SAFETY: both regions lie inside their buffers (the plan's ranges, the caller's sizes).
                unsafe {
                    copy_2d(
                        self.gpu,
                        self.stream,
                        (self.ptr(src), src_pitch * size),
                        (self.ptr(dst), dst_pitch * size),
                        (width * size, height),
                    )
                }
            }
            BlockOp::Gemm { a, b, c, shape } => {
                let algo = resolve_kernel("matmul", self.algo, shape, self.precision, self.gpu)?;
                // SAFETY: the operands hold m·k, k·n inputs and m·n floats at these addresses (plan and
                // caller), at 16-byte aligned offsets (tile-aligned cuts, whole allocations).
                unsafe { self.gpu.launch_matmul_raw(self.stream, algo, shape, self.ptr(a), self.ptr(b), self.ptr(c)) }
            }
            BlockOp::AddInto { dst, src, len } => {
                let (d, s) = (self.ptr(dst), self.ptr(src));
                let cfg = launch_config(launch::grid_stride(len, self.gpu.sm_count()));
                let mut launch = self.stream.launch_builder(self.gpu.kernel("vec_add_vec4")?);
                launch.arg(&d).arg(&s).arg(&d).arg(&len);
                // SAFETY: vec_add_vec4(a, b, c, n) with c = a (in place, which its contract allows:
                // each element is read and written by one thread): dst and src hold `len` floats,
                // 16-byte aligned (row offsets are multiples of the tile), in this context.
                self.gpu.launched(unsafe { launch.launch(cfg) })
            }
        }
    }
}

/// Copies `height` rows of `width` bytes between device addresses of this GPU (rows `src_pitch` and
/// `dst_pitch` bytes apart; arguments as `(address, pitch)` pairs and `(width, height)`) with `cuMemcpy2DAsync` on `stream`; row by row when a pitch exceeds
/// the driver's 2D limit.
///
/// # Safety
/// Both regions must be valid device memory of `gpu`'s context, not overlapping, and not used by
/// other streams until the copy completes.
pub(crate) unsafe fn copy_2d(
    gpu: &Gpu,
    stream: &CudaStream,
    (src, src_pitch): (u64, usize),
    (dst, dst_pitch): (u64, usize),
    (width, height): (usize, usize),
) -> Result<()> {
    if width == 0 || height == 0 {
        return Ok(());
    }
    let fail = |e| gpu.fault(e, "copying a block");
    if height == 1 || (src_pitch == width && dst_pitch == width) {
        // SAFETY: one contiguous region of width·height bytes on each side (the caller's contract).
        return unsafe { cudarc::driver::result::memcpy_dtod_async(dst, src, width * height, stream.cu_stream()) }.map_err(fail);
    }
    if src_pitch.max(dst_pitch) > gpu.max_pitch() {
        for row in 0..height {
            let (s, d) = (src + (row * src_pitch) as u64, dst + (row * dst_pitch) as u64);
            // SAFETY: row `row` of each region (the caller's contract).
            unsafe { cudarc::driver::result::memcpy_dtod_async(d, s, width, stream.cu_stream()) }.map_err(fail)?;
        }
        return Ok(());
    }
    let copy = sys::CUDA_MEMCPY2D {
        srcXInBytes: 0,
        srcY: 0,
        srcMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_DEVICE,
        srcHost: std::ptr::null(),
        srcDevice: src,
        srcArray: std::ptr::null_mut(),
        srcPitch: src_pitch,
        dstXInBytes: 0,
        dstY: 0,
        dstMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_DEVICE,
        dstHost: std::ptr::null_mut(),
        dstDevice: dst,
        dstArray: std::ptr::null_mut(),
        dstPitch: dst_pitch,
        WidthInBytes: width,
        Height: height,
    };
    // SAFETY: the descriptor names two device regions the caller vouches for; the driver reads it
    // during the call only.
    unsafe { sys::cuMemcpy2DAsync_v2(&copy, stream.cu_stream()) }.result().map_err(fail)
}

/// `C = A · B` on one GPU for a product past one launch's limits: cut into blocks, run on the
/// GPU's stream (see `tessera_catalogue::blocks`). Shapes, contexts and buffer sizes are checked by
/// the caller.
pub(crate) fn matmul_blocked<TA: DeviceElement, TB: DeviceElement>(
    gpu: &Gpu,
    precision: Precision,
    algo: Algo,
    dims: GemmDims,
    a: &DeviceMatrix<TA>,
    b: &DeviceMatrix<TB>,
    c: &mut DeviceMatrix,
) -> Result<()> {
    let plan = BlockPlan::new(dims, Limits::KERNELS, Align::for_kernel(algo, precision));
    let steps = plan_steps(&plan, 0, &[]);
    check_kernels("matmul", gpu, algo, precision, &steps)?;
    let ops: Vec<BlockOp> = steps.iter().flat_map(|s| step_ops(s, dims)).collect();
    let stream = gpu.stream();
    let work = WorkBuffers::alloc(gpu, stream, workspace_of(&ops), std::mem::size_of::<TA>())?;
    let (pa, _read_a) = a.buf.slice.device_ptr(stream);
    let (pb, _read_b) = b.buf.slice.device_ptr(stream);
    let (pc, _write_c) = c.buf.slice.device_ptr_mut(stream);
    let run = BlockRun {
        gpu,
        stream,
        algo,
        precision,
        input_bytes: std::mem::size_of::<TA>(),
        homes: Homes { a: pa, b: pb, c: pc },
        work: &work,
        dims,
    };
    for step in &steps {
        // SAFETY: a, b, c hold the product's operands (checked by the caller), borrowed until the
        // guards above record their use after the last step; the work buffers were sized from the
        // same operations and are only used on this stream, which also frees them in order.
        unsafe { run.step(step)? };
    }
    Ok(())
}
