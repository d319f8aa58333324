//! Copy/compute overlap: an element-wise map split into chunks over several CUDA streams.
//!
//! Each chunk goes through three stages on one stream: host→device copy, kernel, device→host copy.
//! Chunks are dealt round-robin to the streams, so while one chunk's kernel runs, another chunk's
//! input is being copied in and a third one's output copied out: the GPU's two copy engines (one per
//! direction) and its SMs work at the same time. With the three stages of equal length the whole map
//! approaches the time of one stage (≈ 3× over doing the stages one after the other).
//!
//! ```no_run
//! use tessera::{Gpu, PinnedBuffer};
//! use tessera::pipeline::{MapKernel, Pipeline};
//! # fn main() -> Result<(), tessera::Error> {
//! let gpu = Gpu::new(0)?;
//! let n = 1 << 24;
//! let mut input = PinnedBuffer::<f32>::zeros(&gpu, n)?;
//! input.as_mut_slice()?.iter_mut().enumerate().for_each(|(i, v)| *v = i as f32 / n as f32);
//! let mut output = PinnedBuffer::<f32>::zeros(&gpu, n)?;
//! let mut pipe = Pipeline::new(&gpu, 8, n.div_ceil(16))?;     // 8 streams, 16 chunks
//! pipe.map(MapKernel::IteratedFma { iters: 1000, a: 0.999, b: 0.001 }, &input, &mut output)?;
//! # Ok(()) }
//! ```
//!
//! **Host memory**: the input and output are [`PinnedBuffer`]s (page-locked). Copies from pageable
//! memory are staged by the driver through its own pinned buffer and do not overlap with kernels, so
//! the API takes pinned memory and does no hidden staging: the caller fills the pinned input (or
//! allocates its data there in the first place) and reads the pinned output.
//!
//! **Device memory**: each stream owns an input and an output buffer of `chunk_elems` floats,
//! allocated once by [`Pipeline::new`]; a stream's chunks reuse them, which stream order makes safe
//! (a chunk's copy-in waits for the previous chunk's copy-out on the same stream).
//!
//! **Results** are bit-identical to the sequential path (one chunk on one stream,
//! `Pipeline::new(gpu, 1, len)`): the kernels are element-wise, so chunking changes which thread
//! computes an element, not how.
//!
//! **Validation** without a GPU: [`PipelinePlan`] computes the chunks and rejects bad arguments; the
//! `Pipeline` uses it, so its checks are the plan's.
use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{result, sys::CUevent_flags, CudaEvent, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, LaunchConfig, PushKernelArg};

use crate::buffer::PinnedBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use tessera_catalogue::registry::launch::elementwise;
use tessera_kernels::iterated_fma;

/// How `len` elements are cut into chunks and dealt to streams. Pure arithmetic: no GPU needed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PipelinePlan {
    len: usize,
    chunk_elems: usize,
    streams: usize,
}

/// One chunk of a [`PipelinePlan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Position in the plan (0, 1, …), also the order chunks are issued in.
    pub index: usize,
    /// The stream (`0..streams`) that runs it: `index % streams`.
    pub stream: usize,
    /// The elements it covers.
    pub range: Range<usize>,
}

impl PipelinePlan {
    /// The most streams a pipeline may use (each is a CUDA stream with two device buffers).
    pub const MAX_STREAMS: usize = 256;

    /// `len` elements in chunks of `chunk_elems` (the last one shorter when it does not divide),
    /// dealt round-robin to `streams` streams. `len == 0` gives a plan with no chunks.
    ///
    /// Errors: [`Error::InvalidArgument`] when `streams` is 0 or above [`Self::MAX_STREAMS`], or
    /// `chunk_elems` is 0; [`Error::TooLarge`] when a chunk exceeds the kernels' grid limit.
    pub fn new(len: usize, chunk_elems: usize, streams: usize) -> Result<Self> {
        const OP: &str = "PipelinePlan::new";
        if streams == 0 {
            return Err(Error::InvalidArgument { op: OP, detail: "a pipeline needs at least one stream".into() });
        }
        if streams > Self::MAX_STREAMS {
            return Err(Error::InvalidArgument { op: OP, detail: format!("{streams} streams: at most {}", Self::MAX_STREAMS) });
        }
        if chunk_elems == 0 {
            return Err(Error::InvalidArgument { op: OP, detail: "chunks need at least one element".into() });
        }
        elementwise(OP, chunk_elems, iterated_fma::BLOCK)?;
        Ok(Self { len, chunk_elems, streams })
    }

    /// A plan of `len` elements cut into `chunks` chunks as even as possible (each
    /// `⌈len / chunks⌉` elements, the last one shorter), over `streams` streams.
    ///
    /// Errors: as [`Self::new`], and [`Error::InvalidArgument`] when `chunks` is 0.
    pub fn with_chunks(len: usize, chunks: usize, streams: usize) -> Result<Self> {
        if chunks == 0 {
            return Err(Error::InvalidArgument { op: "PipelinePlan::with_chunks", detail: "at least one chunk is needed".into() });
        }
        Self::new(len, len.div_ceil(chunks).max(1), streams)
    }

    /// Elements in total.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the plan covers no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Elements per chunk (the last chunk may be shorter).
    pub fn chunk_elems(&self) -> usize {
        self.chunk_elems
    }

    /// Streams the chunks are dealt to.
    pub fn streams(&self) -> usize {
        self.streams
    }

    /// Number of chunks: `⌈len / chunk_elems⌉`.
    pub fn chunk_count(&self) -> usize {
        self.len.div_ceil(self.chunk_elems)
    }

    /// The chunks in issue order; their ranges tile `0..len` exactly, without overlap.
    pub fn chunks(&self) -> impl Iterator<Item = Chunk> + '_ {
        (0..self.chunk_count()).map(move |index| {
            let start = index * self.chunk_elems;
            Chunk { index, stream: index % self.streams, range: start..(start + self.chunk_elems).min(self.len) }
        })
    }
}

/// The element-wise kernels a [`Pipeline`] can map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MapKernel {
    /// `y = f^iters(x)` with `f(v) = fma(v, a, b)`: kernel `iterated_fma` (kernels/src/iterated_fma.rs).
    IteratedFma { iters: u32, a: f32, b: f32 },
}

impl MapKernel {
    /// The kernel's entry name in the PTX module.
    pub fn kernel_name(&self) -> &'static str {
        match self {
            MapKernel::IteratedFma { .. } => "iterated_fma",
        }
    }

    /// The CPU reference for one element, in the kernel's order of operations (bit-identical to it).
    pub fn reference(&self, x: f32) -> f32 {
        match *self {
            MapKernel::IteratedFma { iters, a, b } => (0..iters).fold(x, |v, _| v.mul_add(a, b)),
        }
    }

    /// Floating-point operations per element (an FMA counts two).
    pub fn flops_per_element(&self) -> f64 {
        match *self {
            MapKernel::IteratedFma { iters, .. } => 2.0 * iters as f64,
        }
    }

    /// Queues the kernel on `stream` for `n` elements of `x` into `y`.
    ///
    /// # Safety
    /// `x` must be valid for reading and `y` for writing `n` floats on `stream`'s context, with no
    /// other work touching them until the launch completes.
    pub(crate) unsafe fn launch(
        &self,
        gpu: &Gpu,
        stream: &Arc<CudaStream>,
        x: &CudaSlice<f32>,
        y: &mut CudaSlice<f32>,
        n: usize,
    ) -> Result<()> {
        let cfg: LaunchConfig = crate::ops::launch_config(elementwise("Pipeline::map", n, iterated_fma::BLOCK)?);
        match *self {
            MapKernel::IteratedFma { iters, a, b } => {
                let mut launch = stream.launch_builder(gpu.kernel(self.kernel_name())?);
                launch.arg(x).arg(y).arg(&n).arg(&iters).arg(&a).arg(&b);
                // SAFETY: iterated_fma(x, y, n, iters, a, b) reads x[0..n] and writes y[0..n] with one
                // thread per element (threads past n return); the caller guarantees both hold n floats,
                // and `cfg` launches at least n threads.
                gpu.launched(unsafe { launch.launch(cfg) })
            }
        }
    }
}

/// When one chunk's stages ran, in milliseconds after the map's common start event.
///
/// Each stage is bracketed by events recorded on the chunk's stream: a stage "starts" when its stream
/// reaches it (the previous stage on that stream finished), so a kernel that waits for SMs another
/// stream's kernel occupies, or a copy that waits for the copy engine, shows that wait as part of
/// the stage.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkTrace {
    pub index: usize,
    pub stream: usize,
    pub elems: usize,
    /// Host→device copy `(start, end)`.
    pub h2d: (f64, f64),
    /// Kernel `(start, end)`.
    pub kernel: (f64, f64),
    /// Device→host copy `(start, end)`.
    pub d2h: (f64, f64),
}

/// A map's timeline: its total time and every chunk's stages.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// From the common start event to the last stream's end, in milliseconds.
    pub total_ms: f64,
    pub chunks: Vec<ChunkTrace>,
}

/// One stream and its device buffers.
struct Lane {
    stream: Arc<CudaStream>,
    input: CudaSlice<f32>,
    output: CudaSlice<f32>,
}

/// Synchronizes every lane when dropped, so that no copy still reads or writes host memory whose
/// borrow ends (also when a map returns early with an error).
struct SyncOnExit<'a>(&'a [Lane]);

impl Drop for SyncOnExit<'_> {
    fn drop(&mut self) {
        for lane in self.0 {
            let _ = lane.stream.synchronize();
        }
    }
}

/// What a map records: nothing, the total time, or every stage.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Timing {
    None,
    Total,
    Stages,
}

/// An element-wise map pipelined over several CUDA streams (see the module documentation).
pub struct Pipeline<'g> {
    gpu: &'g Gpu,
    chunk_elems: usize,
    lanes: Vec<Lane>,
}

impl<'g> Pipeline<'g> {
    /// Creates `streams` streams, each with device buffers for one chunk of `chunk_elems` floats.
    ///
    /// Errors: as [`PipelinePlan::new`] (zero streams, zero chunk); [`Error::OutOfMemory`] and
    /// [`Error::Driver`] from the allocations; [`Error::ContextPoisoned`] after a kernel fault.
    pub fn new(gpu: &'g Gpu, streams: usize, chunk_elems: usize) -> Result<Self> {
        PipelinePlan::new(0, chunk_elems, streams)?;
        gpu.check_usable()?;
        let bytes = crate::buffer::byte_len::<f32>("Pipeline::new", chunk_elems)?;
        let mut lanes = Vec::with_capacity(streams);
        for _ in 0..streams {
            let stream = gpu.context().new_stream().map_err(Error::driver("creating a stream", 0))?;
            let input = stream.alloc_zeros::<f32>(chunk_elems).map_err(Error::driver("allocating pipeline buffers", bytes))?;
            let output = stream.alloc_zeros::<f32>(chunk_elems).map_err(Error::driver("allocating pipeline buffers", bytes))?;
            lanes.push(Lane { stream, input, output });
        }
        for lane in &lanes {
            lane.stream.synchronize().map_err(Error::driver("allocating pipeline buffers", bytes))?;
        }
        Ok(Self { gpu, chunk_elems, lanes })
    }

    /// Number of streams.
    pub fn streams(&self) -> usize {
        self.lanes.len()
    }

    /// Elements per chunk.
    pub fn chunk_elems(&self) -> usize {
        self.chunk_elems
    }

    /// The plan this pipeline follows for `len` elements.
    pub fn plan(&self, len: usize) -> Result<PipelinePlan> {
        PipelinePlan::new(len, self.chunk_elems, self.lanes.len())
    }

    /// `output[i] = kernel(input[i])` for every element, chunk by chunk over the streams; returns
    /// when the output is complete.
    ///
    /// Errors: [`Error::ShapeMismatch`] when the lengths differ; [`Error::WrongContext`] when a
    /// buffer belongs to another context; [`Error::KernelFault`] / [`Error::Driver`] from the GPU.
    pub fn map(&mut self, kernel: MapKernel, input: &PinnedBuffer<f32>, output: &mut PinnedBuffer<f32>) -> Result<()> {
        self.run(kernel, input, output, Timing::None).map(|_| ())
    }

    /// As [`Pipeline::map`], and returns the milliseconds from a start event recorded before the
    /// first copy to the end of the last stream's work (GPU time, no host overhead after the issue).
    pub fn map_timed(&mut self, kernel: MapKernel, input: &PinnedBuffer<f32>, output: &mut PinnedBuffer<f32>) -> Result<f64> {
        Ok(self.run(kernel, input, output, Timing::Total)?.total_ms)
    }

    /// As [`Pipeline::map`], and records events around every stage of every chunk: the timeline.
    /// The extra events cost a little issue time; use [`Pipeline::map_timed`] for the total alone.
    pub fn map_traced(&mut self, kernel: MapKernel, input: &PinnedBuffer<f32>, output: &mut PinnedBuffer<f32>) -> Result<Trace> {
        self.run(kernel, input, output, Timing::Stages)
    }

    fn run(&mut self, kernel: MapKernel, input: &PinnedBuffer<f32>, output: &mut PinnedBuffer<f32>, timing: Timing) -> Result<Trace> {
        const OP: &str = "Pipeline::map";
        let gpu = self.gpu;
        gpu.check_usable()?;
        if input.len() != output.len() {
            return Err(Error::ShapeMismatch { op: OP, detail: format!("input holds {} elements, output {}", input.len(), output.len()) });
        }
        for ctx in [input.slice.context(), output.slice.context()] {
            if ctx.cu_ctx() != gpu.context().cu_ctx() {
                return Err(Error::WrongContext { op: OP });
            }
        }
        let plan = self.plan(input.len())?;
        // Both calls wait for any copy cudarc still has queued on these buffers.
        let src: &[f32] = input.as_slice()?;
        let dst: &mut [f32] = output.as_mut_slice()?;
        gpu.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;

        let new_event = || gpu.context().new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(Error::driver("creating an event", 0));
        let record = |e: &CudaEvent, s: &CudaStream| e.record(s).map_err(Error::driver("recording an event", 0));
        let start = if timing != Timing::None { Some(new_event()?) } else { None };
        let mut stage_events: Vec<[CudaEvent; 4]> = Vec::new();
        let lanes = &mut self.lanes;
        if let Some(start) = &start {
            record(start, &lanes[0].stream)?;
            for lane in lanes.iter().skip(1) {
                lane.stream.wait(start).map_err(Error::driver("making a stream wait for an event", 0))?;
            }
        }
        // Issue every chunk. Copies may be in flight once this starts: whatever it returns, every lane
        // is synchronized (the guard below) before the host slices' borrows end.
        let issued = (|| -> Result<()> {
            for chunk in plan.chunks() {
                let lane = &mut lanes[chunk.stream];
                let n = chunk.range.len();
                let events = if timing == Timing::Stages { Some([new_event()?, new_event()?, new_event()?, new_event()?]) } else { None };
                if let Some(ev) = &events {
                    record(&ev[0], &lane.stream)?;
                }
                {
                    let (d_in, _record) = lane.input.device_ptr_mut(&lane.stream);
                    // SAFETY: `src[range]` is page-locked host memory borrowed until this function
                    // returns, and every lane is synchronized before that (below, and by the error path);
                    // the lane's input buffer holds `chunk_elems ≥ n` floats and is used only on its stream.
                    unsafe { result::memcpy_htod_async(d_in, &src[chunk.range.clone()], lane.stream.cu_stream()) }
                        .map_err(|e| gpu.fault(e, "copying a chunk to the device"))?;
                }
                if let Some(ev) = &events {
                    record(&ev[1], &lane.stream)?;
                }
                // SAFETY: both lane buffers hold `chunk_elems ≥ n` floats and are used only on this lane's stream.
                unsafe { kernel.launch(gpu, &lane.stream, &lane.input, &mut lane.output, n)? };
                if let Some(ev) = &events {
                    record(&ev[2], &lane.stream)?;
                }
                {
                    let (d_out, _record) = lane.output.device_ptr(&lane.stream);
                    // SAFETY: `dst[range]` is page-locked host memory mutably borrowed until this function
                    // returns (every lane is synchronized first); chunk ranges are disjoint, so no two
                    // copies write the same bytes; the lane's output buffer holds at least n floats.
                    unsafe { result::memcpy_dtoh_async(&mut dst[chunk.range.clone()], d_out, lane.stream.cu_stream()) }
                        .map_err(|e| gpu.fault(e, "copying a chunk to the host"))?;
                }
                if let Some(ev) = events {
                    record(&ev[3], &lane.stream)?;
                    stage_events.push(ev);
                }
            }
            Ok(())
        })();
        let lanes: &[Lane] = lanes;
        let guard = SyncOnExit(lanes);
        issued?;
        let ends = match &start {
            Some(_) => lanes
                .iter()
                .map(|l| l.stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT)))
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(Error::driver("recording an event", 0))?,
            None => Vec::new(),
        };
        for lane in lanes {
            lane.stream.synchronize().map_err(|e| gpu.fault(e, "waiting for the pipeline"))?;
        }
        drop(guard);

        let mut trace = Trace { total_ms: 0.0, chunks: Vec::new() };
        if let Some(start) = &start {
            let since = |e: &CudaEvent| start.elapsed_ms(e).map(f64::from).map_err(Error::driver("reading an event time", 0));
            for end in &ends {
                trace.total_ms = trace.total_ms.max(since(end)?);
            }
            for (chunk, ev) in plan.chunks().zip(&stage_events) {
                trace.chunks.push(ChunkTrace {
                    index: chunk.index,
                    stream: chunk.stream,
                    elems: chunk.range.len(),
                    h2d: (since(&ev[0])?, since(&ev[1])?),
                    kernel: (since(&ev[1])?, since(&ev[2])?),
                    d2h: (since(&ev[2])?, since(&ev[3])?),
                });
            }
        }
        Ok(trace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(plan: &PipelinePlan) -> Vec<(usize, Range<usize>)> {
        plan.chunks().map(|c| (c.stream, c.range)).collect()
    }

    #[test]
    fn plan_tiles_the_length_when_chunks_divide_it() {
        let plan = PipelinePlan::new(12, 4, 2).unwrap();
        assert_eq!(plan.chunk_count(), 3);
        assert_eq!(ranges(&plan), vec![(0, 0..4), (1, 4..8), (0, 8..12)]);
    }

    #[test]
    fn plan_last_chunk_is_shorter_when_chunks_do_not_divide() {
        let plan = PipelinePlan::new(10, 4, 3).unwrap();
        assert_eq!(ranges(&plan), vec![(0, 0..4), (1, 4..8), (2, 8..10)]);
        // Every element exactly once, in order.
        let covered: Vec<usize> = plan.chunks().flat_map(|c| c.range).collect();
        assert_eq!(covered, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn plan_with_chunks_splits_evenly() {
        let plan = PipelinePlan::with_chunks(16_000_000, 16, 4).unwrap();
        assert_eq!((plan.chunk_elems(), plan.chunk_count()), (1_000_000, 16));
        let plan = PipelinePlan::with_chunks(10, 3, 8).unwrap();
        assert_eq!(ranges(&plan), vec![(0, 0..4), (1, 4..8), (2, 8..10)]);
        // More chunks than elements: one element per chunk.
        assert_eq!(PipelinePlan::with_chunks(3, 5, 1).unwrap().chunk_count(), 3);
    }

    #[test]
    fn plan_edge_cases() {
        assert_eq!(PipelinePlan::new(0, 4, 2).unwrap().chunk_count(), 0);
        let one = PipelinePlan::new(5, 100, 4).unwrap();
        assert_eq!(ranges(&one), vec![(0, 0..5)]);
    }

    #[test]
    fn plan_rejects_bad_arguments_with_typed_errors() {
        assert!(matches!(PipelinePlan::new(10, 4, 0), Err(Error::InvalidArgument { .. })));
        assert!(matches!(PipelinePlan::new(10, 0, 2), Err(Error::InvalidArgument { .. })));
        assert!(matches!(PipelinePlan::new(10, 4, PipelinePlan::MAX_STREAMS + 1), Err(Error::InvalidArgument { .. })));
        assert!(matches!(PipelinePlan::with_chunks(10, 0, 2), Err(Error::InvalidArgument { .. })));
        assert!(matches!(PipelinePlan::new(usize::MAX, usize::MAX, 1), Err(Error::TooLarge { .. })));
    }

    #[test]
    fn reference_is_the_fma_chain() {
        let k = MapKernel::IteratedFma { iters: 3, a: 0.5, b: 1.0 };
        // 2 → 2 → 2 → 2 (fixed point of v/2 + 1); 0 → 1 → 1.5 → 1.75.
        assert_eq!(k.reference(2.0), 2.0);
        assert_eq!(k.reference(0.0), 1.75);
        assert_eq!(MapKernel::IteratedFma { iters: 0, a: 9.0, b: 9.0 }.reference(-3.5), -3.5);
        assert_eq!(k.flops_per_element(), 6.0);
    }
}
