//! Several GPUs of one host: one [`Gpu`] per device, NCCL communicators over them (initialised once),
//! and two streams per GPU: one computes, one transfers.
//!
//! Neither is the GPU's default stream: the legacy default stream synchronizes with every blocking
//! stream of its context, which would tie the matmul kernels to work NCCL queues internally. Each
//! product orders its streams after the default stream on entry and the default stream after them
//! on exit, so code that uses `Gpu::stream` sees the usual order.
//!
//! ```no_run
//! use tessera::{Algo, DeviceMatrix, HostMatrix, MultiGpu};
//! # fn main() -> Result<(), tessera::Error> {
//! let multi = MultiGpu::all()?;                                  // every visible GPU
//! let root = &multi.gpus()[0];
//! let (a, b) = (HostMatrix::random(4096, 4096, 1), HostMatrix::random(4096, 4096, 2));
//! let (da, db) = (DeviceMatrix::<f32>::from_host(root, &a)?, DeviceMatrix::<f32>::from_host(root, &b)?);
//! let mut dc = DeviceMatrix::<f32>::zeros(root, 4096, 4096)?;
//! multi.matmul(Algo::Auto, &da, &db, &mut dc)?;                 // split over the GPUs, C back on GPU 0
//! let c = multi.matmul_host_in(tessera::Precision::Fp32, Algo::Auto, &a, &b)?; // from the host, C left on the GPUs
//! # Ok(()) }
//! ```
//!
//! The product's split and the order its operands travel in are the catalogue's
//! (`tessera_catalogue::plan::distribute`); [`matmul`] issues them, [`link`] measures the links, and
//! [`rows`] holds a result left on the GPUs. One GPU is the degenerate case: no NCCL, the plan's one
//! GPU computes everything.
//!
//! **NVLink multicast**: tessera's transfers are broadcasts and point-to-point sends; none needs
//! NVLink SHARP. On shared hosts keep it off for the whole process (`NCCL_NVLS_ENABLE=0` before the
//! first `MultiGpu`): the `multi-gpu` driver and the test suite set it when it is unset.
use std::sync::{Arc, Mutex};

use cudarc::driver::{result, sys::CUevent_flags, CudaEvent, CudaSlice, CudaStream};
use tessera_catalogue::plan::distribute::DistOptions;

use crate::comm::Comms;
use crate::context::{device_count, Gpu};
use crate::error::{Error, Result};

pub mod link;
pub mod matmul;
pub mod rows;
pub mod timeline;

pub use link::LinkReport;
pub use rows::{RowBlock, RowBlocks};
pub use timeline::Timeline;

/// Free memory left on each GPU beyond what a product allocates (NCCL's buffers, kernels, the pool).
const MEMORY_MARGIN: usize = 512 << 20;

/// The GPUs `0..count` of this host, ready for distributed products.
pub struct MultiGpu {
    gpus: Vec<Gpu>,
    /// One non-blocking stream per GPU for the matmul steps.
    compute: Vec<Arc<CudaStream>>,
    /// One high-priority non-blocking stream per GPU for transfers (NCCL and uploads).
    transfer: Vec<Arc<CudaStream>>,
    /// NCCL communicators (one rank per GPU); `None` for one GPU.
    comms: Option<Mutex<Comms>>,
    options: DistOptions,
    /// Called with a line of progress during long products from the host.
    progress: Option<Progress>,
    /// Per GPU, the buffers of the last products from GPU 0 (kept for the next call of the same size).
    cache: Mutex<Vec<RankCache>>,
}

/// A progress callback (see [`MultiGpu::with_progress`]).
pub type Progress = Arc<dyn Fn(String) + Send + Sync>;

/// A GPU's cached buffers: its rows of `A`, all of `B`, its rows of `C`, and the four work buffers.
#[derive(Default)]
pub(crate) struct RankCache {
    pub slots: [Option<CudaSlice<u8>>; 7],
}

impl MultiGpu {
    /// Opens GPUs `0..count` (each [`Gpu::new`]), a transfer stream on each, and — for two or more —
    /// NCCL communicators over them.
    ///
    /// Errors: [`Error::InvalidArgument`] for 0, [`Error::NoDriver`], [`Error::TooFewGpus`] when fewer
    /// are visible, [`Error::NoNccl`] without libnccl (two or more GPUs), [`Error::Nccl`] when NCCL
    /// fails to initialise.
    pub fn new(count: usize) -> Result<Self> {
        if count == 0 {
            return Err(Error::InvalidArgument { op: "MultiGpu::new", detail: "at least one GPU is needed".into() });
        }
        let available = device_count()?;
        if count > available {
            return Err(Error::TooFewGpus { requested: count, available });
        }
        let gpus = (0..count).map(Gpu::new).collect::<Result<Vec<_>>>()?;
        let transfer = gpus.iter().map(transfer_stream).collect::<Result<Vec<_>>>()?;
        let compute = gpus
            .iter()
            .map(|g| g.context().new_stream().map_err(Error::driver("creating a compute stream", 0)))
            .collect::<Result<Vec<_>>>()?;
        let comms = if count > 1 { Some(Mutex::new(Comms::new(&(0..count).collect::<Vec<_>>())?)) } else { None };
        let cache = Mutex::new((0..count).map(|_| RankCache::default()).collect());
        Ok(Self { gpus, compute, transfer, comms, options: DistOptions::default(), progress: None, cache })
    }

    /// Every visible GPU.
    pub fn all() -> Result<Self> {
        Self::new(device_count()?.max(1))
    }

    /// The same GPUs with other plan options (chunks of `B`, lead rows, return bands, block limits).
    pub fn with_options(mut self, options: DistOptions) -> Self {
        self.options = options;
        self
    }

    /// The same GPUs, reporting progress lines (e.g. each upload of a product from the host) to `report`.
    pub fn with_progress(mut self, report: Progress) -> Self {
        self.progress = Some(report);
        self
    }

    /// The plan options in use.
    pub fn options(&self) -> DistOptions {
        self.options
    }

    /// The GPUs, GPU 0 (the root) first.
    pub fn gpus(&self) -> &[Gpu] {
        &self.gpus
    }

    /// Number of GPUs.
    pub fn len(&self) -> usize {
        self.gpus.len()
    }

    /// Whether there is no GPU (never: [`MultiGpu::new`] needs one).
    pub fn is_empty(&self) -> bool {
        self.gpus.is_empty()
    }

    /// Frees the buffers kept from earlier products.
    pub fn release_buffers(&self) -> Result<()> {
        self.synchronize()?;
        let mut cache = self.cache.lock().map_err(|_| poisoned_lock())?;
        cache.iter_mut().for_each(|c| *c = RankCache::default());
        // The frees are queued on the streams: wait for them, so the memory shows as free.
        self.synchronize()
    }

    /// Waits for every GPU's default, compute and transfer streams.
    pub fn synchronize(&self) -> Result<()> {
        for ((gpu, c), t) in self.gpus.iter().zip(&self.compute).zip(&self.transfer) {
            gpu.synchronize()?;
            c.synchronize().map_err(|e| gpu.fault(e, "waiting for the compute stream"))?;
            t.synchronize().map_err(|e| gpu.fault(e, "waiting for transfers"))?;
        }
        Ok(())
    }

    /// Errors when a GPU is poisoned or an earlier NCCL failure aborted the communicators.
    pub(crate) fn check_usable(&self) -> Result<()> {
        for gpu in &self.gpus {
            gpu.check_usable()?;
        }
        if let Some(comms) = &self.comms {
            if comms.lock().map_err(|_| poisoned_lock())?.failed() {
                return Err(Error::Nccl { during: "an earlier transfer", detail: "the communicators were aborted".into() });
            }
        }
        Ok(())
    }

    /// Errors with [`Error::OutOfMemoryOn`] unless GPU `g` has `bytes` (and a margin) free.
    pub(crate) fn check_free(&self, g: usize, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let (free, _) = self.gpus()[g].memory_info()?;
        if bytes.saturating_add(MEMORY_MARGIN) > free {
            return Err(Error::OutOfMemoryOn { ordinal: g, needed: bytes, free });
        }
        Ok(())
    }

    /// Runs `issue` inside one NCCL group.
    pub(crate) fn group(&self, during: &'static str, issue: impl FnOnce(&crate::comm::Comms) -> Result<()>) -> Result<()> {
        let comms = self.comms.as_ref().ok_or(Error::InvalidArgument { op: during, detail: "one GPU has no communicator".into() })?;
        comms.lock().map_err(|_| poisoned_lock())?.group(during, issue)
    }

    /// The compute stream of GPU `g`.
    pub(crate) fn compute_stream(&self, g: usize) -> &Arc<CudaStream> {
        &self.compute[g]
    }

    /// The transfer stream of GPU `g`.
    pub(crate) fn transfer_stream(&self, g: usize) -> &Arc<CudaStream> {
        &self.transfer[g]
    }
}

/// A non-blocking stream of the highest priority on `gpu`: its transfers (and NCCL's kernels) are
/// scheduled ahead of waiting matmul blocks.
fn transfer_stream(gpu: &Gpu) -> Result<Arc<CudaStream>> {
    gpu.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;
    let (_, greatest) = result::stream::get_priority_range().map_err(Error::driver("reading stream priorities", 0))?;
    gpu.context().new_stream_with_priority(greatest).map_err(Error::driver("creating a transfer stream", 0))
}

pub(crate) fn poisoned_lock() -> Error {
    Error::ContextPoisoned("a thread panicked while holding tessera's multi-GPU state".into())
}

/// An event recorded on `stream` now (no timing).
pub(crate) fn mark(gpu: &Gpu, stream: &CudaStream) -> Result<CudaEvent> {
    stream.record_event(Some(CUevent_flags::CU_EVENT_DISABLE_TIMING)).map_err(|e| gpu.fault(e, "recording an event"))
}

/// `stream` waits for `event` (which may belong to another GPU).
pub(crate) fn wait(gpu: &Gpu, stream: &CudaStream, event: &CudaEvent) -> Result<()> {
    stream.wait(event).map_err(|e| gpu.fault(e, "making a stream wait for an event"))
}
