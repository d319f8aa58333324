//! Running a block schedule (`tessera_catalogue::plan::blocks`) on one GPU: its 2D copies, kernel
//! launches and additions, on raw device pointers, queued on one stream.
//!
//! The plan says *what* (which sub-GEMM, which pack, which addition); this module only turns each
//! planned [`Op`] into driver calls: `cuMemcpy2DAsync` for a pack, the planned launch-sized product,
//! one launch of `vec_add_vec4` in place (`C_blk += scratch`) for an accumulation.
use std::sync::Arc;

use cudarc::driver::{sys, CudaSlice, CudaStream, DevicePtr, PushKernelArg};
use tessera_catalogue::plan::blocks::{GemmDims, Loc, Workspace};
use tessera_catalogue::plan::{BlockedPlan, Op};
use tessera_catalogue::registry::launch;

use crate::context::Gpu;
use crate::error::{Error, Result};
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

/// One schedule's execution context: where the operands live and the work buffers.
pub(crate) struct BlockRun<'a> {
    pub gpu: &'a Gpu,
    pub stream: &'a Arc<CudaStream>,
    pub input_bytes: usize,
    pub homes: Homes,
    pub work: &'a WorkBuffers,
    /// The local product the operations belong to (its `A` is `m × k`, `B` `k × n`, `C` `m × n`).
    pub dims: GemmDims,
}

impl BlockRun<'_> {
    /// Queues `ops` (planned for this GPU) in order.
    ///
    /// # Safety
    /// [`Homes`] must hold `A` (`m·k`), `B` (`k·n`) input elements and `C` (`m·n`) floats of
    /// `self.dims` on this GPU, 16-byte aligned, and nothing else may write them (or read `C`) until
    /// the stream has run the operations; the work buffers must be sized for their
    /// [`Workspace`](tessera_catalogue::plan::blocks::Workspace).
    pub unsafe fn ops(&self, ops: &[Op]) -> Result<()> {
        self.gpu.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;
        for op in ops {
            // SAFETY: the caller's contract covers every location the plan's operations name.
            unsafe { self.op(op)? };
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
    /// As [`BlockRun::ops`].
    unsafe fn op(&self, op: &Op) -> Result<()> {
        match op {
            &Op::Copy2d { src, src_pitch, dst, dst_pitch, width, height } => {
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
            Op::Product { a, b, c, launch } => {
                // SAFETY: the operands hold m·k, k·n inputs and m·n floats at these addresses (plan and
                // caller), at 16-byte aligned offsets (tile-aligned cuts, whole allocations); the
                // launch was planned for this GPU.
                unsafe { self.gpu.run_launch(self.stream, launch, self.ptr(*a), self.ptr(*b), self.ptr(*c)) }
            }
            &Op::AddInto { dst, src, len } => {
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

/// Runs a blocked plan (a product past one launch's limits) on `gpu`'s `stream`: its work buffers
/// allocated, then every operation in order.
///
/// # Safety
/// `homes` address the plan's `A` (`m·k`) and `B` (`k·n`) inputs of `input_bytes` each and `C`
/// (`m·n` floats) on this GPU, 16-byte aligned, not written by other work (nor `C` read) until the
/// stream has run the plan; the plan was made for this GPU.
pub(crate) unsafe fn run_blocked(gpu: &Gpu, stream: &Arc<CudaStream>, plan: &BlockedPlan, input_bytes: usize, homes: Homes) -> Result<()> {
    let work = WorkBuffers::alloc(gpu, stream, plan.workspace, input_bytes)?;
    let run = BlockRun { gpu, stream, input_bytes, homes, work: &work, dims: plan.dims };
    // SAFETY: the caller's contract; the work buffers were sized from the same operations and are only
    // used on this stream, which also frees them in order.
    unsafe { run.ops(&plan.ops) }
}
