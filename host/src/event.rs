//! GPU-side timing with CUDA events.
use cudarc::driver::{sys::CUevent_flags, CudaEvent};

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
