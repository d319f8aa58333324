//! GPU-side timing with CUDA events.
use std::sync::Arc;
use std::time::Instant;

use cudarc::driver::{sys::CUevent_flags, CudaEvent, CudaSlice, CudaStream, PushKernelArg};

use crate::context::Gpu;
use crate::error::{Error, Result};

/// Times work queued on the GPU's stream: an event is recorded before and after, and the GPU reports
/// the time between them. Host timers around `synchronize` would also count launch latency.
pub struct GpuTimer {
    start: CudaEvent,
    end: CudaEvent,
}

impl GpuTimer {
    /// Two timing events on `gpu`'s context.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let ev = || gpu.context().new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(Error::driver("creating an event", 0));
        Ok(Self { start: ev()?, end: ev()? })
    }

    /// Runs `work` `warmup` times untimed, then `iters` times between the two events, and returns the
    /// mean milliseconds per iteration. Only the final event is waited for: no synchronize inside the loop.
    ///
    /// The work may fail with any error type that tessera's errors convert into.
    pub fn time_ms<E: From<Error>>(
        &self,
        gpu: &Gpu,
        warmup: usize,
        iters: usize,
        mut work: impl FnMut() -> Result<(), E>,
    ) -> Result<f64, E> {
        if iters == 0 {
            return Err(Error::InvalidArgument { op: "GpuTimer::time_ms", detail: "iters must be at least 1".into() }.into());
        }
        for _ in 0..warmup {
            work()?;
        }
        self.start.record(gpu.stream()).map_err(Error::driver("recording an event", 0))?;
        for _ in 0..iters {
            work()?;
        }
        self.end.record(gpu.stream()).map_err(Error::driver("recording an event", 0))?;
        self.end.synchronize().map_err(|e| gpu.fault(e, "waiting for an event"))?;
        let ms = self.start.elapsed_ms(&self.end).map_err(Error::driver("reading an event time", 0))?;
        Ok(ms as f64 / iters as f64)
    }
}

/// One batch timed by [`QueuedTimer::time_ms`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueuedTime {
    /// Mean milliseconds per iteration, GPU time between the batch's two events.
    pub ms: f64,
    /// Whether the host had queued the whole batch before the hold ended — the events then measured
    /// the GPU running it back to back. `false`: the GPU caught up with the host (a longer host stall
    /// than the retries allowed, or a batch past the launch queue's depth) and `ms` includes launch
    /// gaps, as [`GpuTimer`] would.
    pub held: bool,
}

/// Times GPU work with the batch queued before the clock starts, so that launch-bound work is timed
/// as the GPU runs it rather than at the host's launch rate.
///
/// [`GpuTimer`] times `iters` launches between two events; when one launch takes the GPU less time
/// than the host takes to queue it (a few µs), the GPU waits for the host between launches and the
/// events time the host — a rate that moves by ±20 % between runs of the same kernel. Here a *hold*
/// launch comes first: `iterated_fma` on one warp, a chain of dependent FMAs sized to outlast the
/// host's queueing of the batch (from the warm-up's host time per call). The start event follows the
/// hold in stream order, so it fires when the hold ends and the whole batch is waiting; each
/// launch then starts as the one before it ends. `QueuedTime::held` says whether that held: the host
/// must have finished queueing before the GPU finished the hold (host clock against the hold's own
/// events); otherwise the hold is doubled and the batch timed again, up to [`QueuedTimer::RETRIES`]
/// times. CUDA graphs would do the same for launches a graph can capture; this works for any work
/// on the stream (the padded path's copies, cuBLAS, zeroing), unchanged.
pub struct QueuedTimer {
    /// The stream the hold, the events and the timed work are queued on.
    stream: Arc<CudaStream>,
    hold_start: CudaEvent,
    start: CudaEvent,
    end: CudaEvent,
    hold_x: CudaSlice<f32>,
    hold_y: CudaSlice<f32>,
    /// GPU nanoseconds per dependent FMA of the hold, measured by [`QueuedTimer::new`].
    ns_per_fma: f64,
}

impl QueuedTimer {
    /// Times a batch again with a hold twice as long this many times before reporting it not held.
    pub const RETRIES: usize = 3;
    /// Threads of the hold launch: one warp, one block — it leaves the rest of the GPU idle.
    const HOLD_THREADS: usize = 32;
    /// The hold outlasts the host's queueing time (from the warm-up) by this factor, plus
    /// [`QueuedTimer::HOLD_MARGIN_US`].
    const HOLD_FACTOR: f64 = 1.5;
    const HOLD_MARGIN_US: f64 = 200.0;
    /// The calibration hold: dependent FMAs timed once by [`QueuedTimer::new`].
    const CALIBRATION_FMAS: u32 = 1 << 18;

    /// Three events and the hold's two one-warp buffers on `gpu`; measures the hold's GPU time per FMA
    /// (one warm-up and one timed calibration launch).
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::new_on(gpu, gpu.stream())
    }

    /// As [`QueuedTimer::new`], timing work queued on `stream` (a stream of `gpu`'s context).
    pub fn new_on(gpu: &Gpu, stream: &Arc<CudaStream>) -> Result<Self> {
        let mut timer = Self::calibrated_on(gpu, stream, 0.0)?;
        timer.hold(gpu, Self::CALIBRATION_FMAS)?;
        timer.start.record(&timer.stream).map_err(Error::driver("recording an event", 0))?;
        timer.hold(gpu, Self::CALIBRATION_FMAS)?;
        timer.end.record(&timer.stream).map_err(Error::driver("recording an event", 0))?;
        timer.end.synchronize().map_err(|e| gpu.fault(e, "waiting for an event"))?;
        let ms = timer.start.elapsed_ms(&timer.end).map_err(Error::driver("reading an event time", 0))?;
        timer.ns_per_fma = (f64::from(ms) * 1e6 / f64::from(Self::CALIBRATION_FMAS)).max(1e-3);
        Ok(timer)
    }

    /// A timer on `gpu` whose hold takes `ns_per_fma` GPU nanoseconds per dependent FMA (as measured
    /// by an earlier [`QueuedTimer::new`] on this GPU: [`QueuedTimer::ns_per_fma`]).
    pub fn calibrated(gpu: &Gpu, ns_per_fma: f64) -> Result<Self> {
        Self::calibrated_on(gpu, gpu.stream(), ns_per_fma)
    }

    /// As [`QueuedTimer::calibrated`], timing work queued on `stream` (a stream of `gpu`'s context).
    pub fn calibrated_on(gpu: &Gpu, stream: &Arc<CudaStream>, ns_per_fma: f64) -> Result<Self> {
        let ev = || gpu.context().new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(Error::driver("creating an event", 0));
        let buf =
            || stream.alloc_zeros::<f32>(Self::HOLD_THREADS).map_err(Error::driver("allocating device memory", 4 * Self::HOLD_THREADS));
        Ok(Self {
            stream: stream.clone(),
            hold_start: ev()?,
            start: ev()?,
            end: ev()?,
            hold_x: buf()?,
            hold_y: buf()?,
            ns_per_fma: ns_per_fma.max(1e-3),
        })
    }

    /// GPU nanoseconds per dependent FMA of the hold.
    pub fn ns_per_fma(&self) -> f64 {
        self.ns_per_fma
    }

    /// Queues the hold: `iterated_fma` with `fmas` dependent FMAs per thread on one warp.
    fn hold(&mut self, gpu: &Gpu, fmas: u32) -> Result<()> {
        let (n, a, b) = (Self::HOLD_THREADS, 0.999f32, 0.001f32);
        let dims = tessera_catalogue::registry::launch::elementwise("QueuedTimer", n, tessera_kernels::iterated_fma::BLOCK)?;
        let cfg = cudarc::driver::LaunchConfig { grid_dim: dims.grid, block_dim: dims.block, shared_mem_bytes: dims.shared_bytes };
        let mut launch = self.stream.launch_builder(gpu.kernel("iterated_fma")?);
        launch.arg(&self.hold_x).arg(&mut self.hold_y).arg(&n).arg(&fmas).arg(&a).arg(&b);
        // SAFETY: iterated_fma(x, y, n, iters, a, b) reads x[0..n] and writes y[0..n], one thread per
        // element: both buffers hold HOLD_THREADS = n floats of this context, owned by the timer and
        // used by nothing else; the grid covers n threads; the stream orders each hold after the last.
        gpu.launched(unsafe { launch.launch(cfg) })
    }

    /// Runs `work` `warmup` (at least one) times untimed, then queues a hold and `iters` runs of it
    /// between two events, and returns the mean milliseconds per iteration and whether the batch was
    /// held (see the type's doc). No synchronize inside the batch.
    pub fn time_ms<E: From<Error>>(
        &mut self,
        gpu: &Gpu,
        warmup: usize,
        iters: usize,
        mut work: impl FnMut() -> Result<(), E>,
    ) -> Result<QueuedTime, E> {
        if iters == 0 {
            return Err(Error::InvalidArgument { op: "QueuedTimer::time_ms", detail: "iters must be at least 1".into() }.into());
        }
        let warmup = warmup.max(1);
        let clock = Instant::now();
        for _ in 0..warmup {
            work()?;
        }
        let host_us_per_call = clock.elapsed().as_secs_f64() * 1e6 / warmup as f64;
        let mut hold_us = Self::HOLD_FACTOR * host_us_per_call * iters as f64 + Self::HOLD_MARGIN_US;
        let mut attempt = 0;
        loop {
            let fmas = (hold_us * 1e3 / self.ns_per_fma).clamp(1.0, f64::from(u32::MAX)) as u32;
            let clock = Instant::now();
            self.hold_start.record(&self.stream).map_err(Error::driver("recording an event", 0))?;
            self.hold(gpu, fmas)?;
            self.start.record(&self.stream).map_err(Error::driver("recording an event", 0))?;
            for _ in 0..iters {
                work()?;
            }
            self.end.record(&self.stream).map_err(Error::driver("recording an event", 0))?;
            let queued_ms = clock.elapsed().as_secs_f64() * 1e3;
            self.end.synchronize().map_err(|e| gpu.fault(e, "waiting for an event"))?;
            let held_ms = self.hold_start.elapsed_ms(&self.start).map_err(Error::driver("reading an event time", 0))?;
            let ms = self.start.elapsed_ms(&self.end).map_err(Error::driver("reading an event time", 0))?;
            let held = queued_ms < f64::from(held_ms);
            if held || attempt == Self::RETRIES {
                return Ok(QueuedTime { ms: f64::from(ms) / iters as f64, held });
            }
            hold_us = 2.0 * hold_us.max(queued_ms * 1e3);
            attempt += 1;
        }
    }
}
