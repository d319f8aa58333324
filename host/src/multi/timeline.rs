//! When each part of a distributed product ran: timing events after every transfer, step and
//! returned band, read back as milliseconds since each GPU's start (see [`MultiGpu::matmul_traced`]).
//!
//! [`MultiGpu::matmul_traced`]: super::MultiGpu::matmul_traced
use cudarc::driver::{sys::CUevent_flags, CudaEvent, CudaStream};

use crate::context::Gpu;
use crate::error::{Error, Result};

/// One GPU's marks: what finished, and when (ms after the GPU's start event, recorded when the
/// product was entered; GPUs' clocks are not compared with each other).
#[derive(Debug, Clone, PartialEq)]
pub struct GpuTimeline {
    pub gpu: usize,
    pub marks: Vec<(String, f64)>,
}

/// Every GPU's marks of one product.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    pub gpus: Vec<GpuTimeline>,
}

/// Records the marks while a product is issued (does nothing when off).
pub(crate) struct Recorder {
    on: bool,
    starts: Vec<Option<CudaEvent>>,
    marks: Vec<Vec<(String, CudaEvent)>>,
}

fn timed(gpu: &Gpu, stream: &CudaStream) -> Result<CudaEvent> {
    stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(|e| gpu.fault(e, "recording an event"))
}

impl Recorder {
    pub fn new(on: bool, gpus: usize) -> Self {
        Recorder { on, starts: (0..gpus).map(|_| None).collect(), marks: (0..gpus).map(|_| Vec::new()).collect() }
    }

    /// GPU `g`'s start, recorded on `stream` (before its compute and transfer streams wait on it).
    pub fn start(&mut self, g: usize, gpu: &Gpu, stream: &CudaStream) -> Result<()> {
        if self.on {
            self.starts[g] = Some(timed(gpu, stream)?);
        }
        Ok(())
    }

    /// Marks `label` at the current end of `stream` of GPU `g`.
    pub fn mark(&mut self, g: usize, gpu: &Gpu, stream: &CudaStream, label: impl FnOnce() -> String) -> Result<()> {
        if self.on {
            self.marks[g].push((label(), timed(gpu, stream)?));
        }
        Ok(())
    }

    /// The marks as milliseconds (call after the streams completed).
    pub fn finish(self) -> Result<Timeline> {
        let mut out = Timeline::default();
        for (g, (start, marks)) in self.starts.into_iter().zip(self.marks).enumerate() {
            let Some(start) = start else { continue };
            let marks = marks
                .into_iter()
                .map(|(label, ev)| {
                    start.elapsed_ms(&ev).map(|ms| (label, f64::from(ms))).map_err(Error::driver("reading an event time", 0))
                })
                .collect::<Result<Vec<_>>>()?;
            out.gpus.push(GpuTimeline { gpu: g, marks });
        }
        Ok(out)
    }
}
