//! The device, its context, the default stream and its kernels, each loaded on first launch.
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use cudarc::driver::{sys, CudaContext, CudaFunction, CudaModule, CudaStream};
use cudarc::nvrtc::Ptx;

use crate::error::{Error, Result};
use crate::module::{kernel_names, PTX, PTX_SM90A};
use crate::ptx_pieces::PtxPieces;

/// The two embedded modules cut into one module per entry ([`PtxPieces`]), once per process.
static PIECES: [LazyLock<Result<PtxPieces, String>>; 2] =
    [LazyLock::new(|| PtxPieces::parse(PTX)), LazyLock::new(|| PtxPieces::parse(PTX_SM90A))];

/// What the driver reports about the device.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceInfo {
    pub name: String,
    pub ordinal: usize,
    /// Compute capability `(major, minor)`, e.g. `(9, 0)` for Hopper.
    pub compute_capability: (i32, i32),
    pub sm_count: u32,
    /// Maximum SM clock in kHz.
    pub sm_clock_khz: u32,
    pub total_memory_bytes: usize,
}

impl DeviceInfo {
    /// FP32 FMA lanes per SM for the compute capability (CUDA C Programming Guide, "Arithmetic
    /// Instructions" throughput table), or `None` for an architecture this table does not know.
    pub fn fp32_lanes_per_sm(&self) -> Option<u32> {
        match self.compute_capability {
            (5, _) | (6, 1) | (6, 2) => Some(128),
            (6, 0) | (7, _) | (8, 0) => Some(64),
            (8, _) | (9, 0) | (10, _) | (12, _) => Some(128),
            _ => None,
        }
    }

    /// Peak FP32 rate in FLOP/s: SMs × lanes × 2 (an FMA is two operations) × max SM clock.
    pub fn peak_fp32_flops(&self) -> Option<f64> {
        Some(self.sm_count as f64 * self.fp32_lanes_per_sm()? as f64 * 2.0 * self.sm_clock_khz as f64 * 1e3)
    }
}

/// One GPU, ready to run tessera's kernels: a CUDA context, a stream all operations are queued on,
/// and the embedded PTX modules' kernels, each compiled by the driver when first launched.
///
/// Operations are asynchronous on the stream; the `*_host` helpers and [`Gpu::synchronize`] wait.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// Every kernel this GPU runs (the sm_90a ones on compute capability 9.0 only), with whether it is
    /// in the sm_90a module, and its function once loaded.
    kernels: HashMap<&'static str, (bool, OnceLock<CudaFunction>)>,
    /// Every kernel's dynamic shared-memory limit: the device's per-block maximum.
    max_shared: i32,
    /// The two embedded modules whole, should a kernel's piece be missing ([`Gpu::kernel`]).
    whole_modules: [OnceLock<Arc<CudaModule>>; 2],
    /// Streaming multiprocessors, read once: grid-stride launches size their grid by it.
    sm_count: u32,
    /// The last kernel launched, to name it if the stream later reports a fault.
    last_kernel: Mutex<&'static str>,
    /// Set once a kernel faulted: CUDA errors of that kind are sticky for the whole context.
    poisoned: Mutex<Option<String>>,
    /// Whether the sm_90a module (Hopper-only kernels) is loaded: compute capability 9.0.
    hopper: bool,
    /// Scratch memory of the operations that stage operands (the TF32 kernels' rounded `Bᵀ`, and
    /// `A` where the kernel does not round it itself; the TMA kernels' copies with padded rows): grown on demand, kept for the next call, used in
    /// stream order.
    pub(crate) workspace: Mutex<Option<cudarc::driver::CudaSlice<f32>>>,
    /// The TMA stream-K kernels' counters (`KernelLaunch::flag_words`): zeroed once when allocated or
    /// grown, left zero by every launch, so any later launch on any stream may take them (their use
    /// is recorded, as the workspace's).
    pub(crate) flags: Mutex<Option<cudarc::driver::CudaSlice<u32>>>,
    /// The largest row pitch (bytes) a 2D copy takes, read once.
    max_pitch: usize,
    /// The TMA kernels' tensor maps in device memory, reused by repeated products.
    pub(crate) tensor_maps: crate::tensor_maps::MapCache,
    /// FP32 `Auto`'s mode and its measured picks ([`crate::ops::auto_tuning`]).
    pub(crate) auto_tuning: Mutex<crate::tuning_state::TuningState>,
    /// Plans made on this GPU, by request ([`crate::plan_cache`]).
    pub(crate) plans: Mutex<crate::plan_cache::PlanCache>,
    /// Clusters of each cluster kernel the GPU runs at once (`cuOccupancyMaxActiveClusters`), asked
    /// once per kernel: its grid never exceeds them ([`Gpu::max_active_clusters`]).
    cluster_limits: Mutex<HashMap<&'static str, u32>>,
    /// Dynamic shared memory that keeps each kernel to one block per SM, by kernel and its own bytes
    /// ([`Gpu::one_block_per_sm`]).
    spread_shared: Mutex<HashMap<(&'static str, u32), u32>>,
}

/// Whether `libcuda` can be loaded; without this check cudarc's dynamic loader panics.
pub fn driver_present() -> bool {
    // SAFETY: this only tries to dlopen libcuda and reports whether it succeeded.
    unsafe { sys::is_culib_present() }
}

/// The number of CUDA devices visible to this process ([`Error::NoDriver`] without libcuda).
pub fn device_count() -> Result<usize> {
    if !driver_present() {
        return Err(Error::NoDriver);
    }
    match CudaContext::device_count() {
        Ok(n) => Ok(n.max(0) as usize),
        Err(e) if e.0 == sys::CUresult::CUDA_ERROR_NO_DEVICE => Ok(0),
        Err(source) => Err(Error::Driver { during: "counting devices", source }),
    }
}

impl Gpu {
    /// Opens device `ordinal` (its primary context, shared with other cudarc/CUDA code in the process)
    /// and lists the kernels it runs; each is compiled by the driver when first launched.
    ///
    /// Errors: [`Error::NoDriver`] without libcuda, [`Error::NoDevice`] when the ordinal does not exist.
    pub fn new(ordinal: usize) -> Result<Self> {
        Self::open(ordinal, true)
    }

    /// Like [`Gpu::new`] but in a context of its own: its buffers cannot be used with another `Gpu`
    /// (tessera checks, [`Error::WrongContext`]), and a fault in it does not poison the primary context.
    pub fn new_isolated(ordinal: usize) -> Result<Self> {
        Self::open(ordinal, false)
    }

    fn open(ordinal: usize, primary: bool) -> Result<Self> {
        if !driver_present() {
            return Err(Error::NoDriver);
        }
        let count = device_count()?;
        if ordinal >= count {
            return Err(Error::NoDevice { ordinal, count });
        }
        let ctx = if primary { CudaContext::new(ordinal) } else { CudaContext::new_non_primary(ordinal, 0) }
            .map_err(Error::driver("creating the context", 0))?;
        let stream = ctx.default_stream();
        // Kernels may use more than the 48 KiB of dynamic shared memory a launch gets by default (the
        // 3-stage pipelines of k09): opt every kernel in to the device's per-block maximum.
        let max_shared = ctx
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .map_err(Error::driver("reading the shared-memory limit", 0))?;
        // The sm_90a module (Hopper-only instructions) loads on compute capability 9.0 only; elsewhere
        // its kernels are absent and launching one is `Error::UnsupportedDevice`.
        let hopper = ctx.compute_capability().map_err(Error::driver("reading the compute capability", 0))? == (9, 0);
        // Nothing is compiled here: each kernel's module is loaded when it is first launched
        // (`Gpu::kernel`, `crate::ptx_pieces`).
        let mut kernels = HashMap::new();
        for sm90a in [false, true] {
            if sm90a && !hopper {
                continue;
            }
            for name in kernel_names(sm90a) {
                kernels.insert(name, (sm90a, OnceLock::new()));
            }
        }
        let sm_count = ctx
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(Error::driver("reading the SM count", 0))?
            .max(1) as u32;
        let max_pitch = ctx
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_PITCH)
            .map_err(Error::driver("reading the 2D copy pitch limit", 0))?
            .max(0) as usize;
        Ok(Self {
            ctx,
            stream,
            kernels,
            max_shared,
            whole_modules: Default::default(),
            sm_count,
            last_kernel: Mutex::new(""),
            poisoned: Mutex::new(None),
            hopper,
            workspace: Mutex::new(None),
            flags: Mutex::new(None),
            max_pitch,
            tensor_maps: Default::default(),
            plans: Default::default(),
            auto_tuning: Default::default(),
            cluster_limits: Default::default(),
            spread_shared: Default::default(),
        })
    }

    /// The cudarc context, for interoperating with other cudarc code (cuBLAS, NVRTC modules…).
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The number of streaming multiprocessors.
    pub fn sm_count(&self) -> u32 {
        self.sm_count
    }

    /// Bytes of shared memory one block may have (the opt-in maximum every kernel is given).
    pub fn max_shared_bytes(&self) -> u32 {
        u32::try_from(self.max_shared).unwrap_or(0)
    }

    /// Whether this GPU runs the Hopper-only (sm_90a, `wgmma`) kernels: compute capability 9.0.
    pub fn has_sm90a(&self) -> bool {
        self.hopper
    }

    /// The largest row pitch, in bytes, of a 2D copy (`CU_DEVICE_ATTRIBUTE_MAX_PITCH`).
    pub fn max_pitch(&self) -> usize {
        self.max_pitch
    }

    /// The stream tessera's operations are queued on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Device name, compute capability, SM count, clock and memory size.
    pub fn info(&self) -> Result<DeviceInfo> {
        use sys::CUdevice_attribute as A;
        let attr = |a| self.ctx.attribute(a).map_err(Error::driver("reading a device attribute", 0));
        Ok(DeviceInfo {
            name: self.ctx.name().map_err(Error::driver("reading the device name", 0))?,
            ordinal: self.ctx.ordinal(),
            compute_capability: self.ctx.compute_capability().map_err(Error::driver("reading the compute capability", 0))?,
            sm_count: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32,
            sm_clock_khz: attr(A::CU_DEVICE_ATTRIBUTE_CLOCK_RATE)? as u32,
            total_memory_bytes: self.ctx.total_mem().map_err(Error::driver("reading the memory size", 0))?,
        })
    }

    /// `(free, total)` bytes of device memory, as the driver reports them now.
    pub fn memory_info(&self) -> Result<(usize, usize)> {
        self.ctx.bind_to_thread().map_err(Error::driver("binding the context", 0))?;
        cudarc::driver::result::mem_get_info().map_err(Error::driver("reading free memory", 0))
    }

    /// Waits for all queued work. A fault inside a kernel is reported as [`Error::KernelFault`] naming
    /// the last kernel launched, and poisons this `Gpu` (see [`Error::ContextPoisoned`]).
    pub fn synchronize(&self) -> Result<()> {
        self.check_usable()?;
        self.stream.synchronize().map_err(|e| self.fault(e, "synchronizing"))
    }

    /// Errors with [`Error::ContextPoisoned`] once a kernel has faulted.
    pub(crate) fn check_usable(&self) -> Result<()> {
        match self.poisoned.lock().map(|p| p.clone()) {
            Ok(None) => Ok(()),
            Ok(Some(why)) => Err(Error::ContextPoisoned(why)),
            Err(_) => Err(Error::ContextPoisoned("a thread panicked while holding tessera's state".into())),
        }
    }

    /// Turns a driver error into [`Error::KernelFault`] (and poisons) when it is a sticky kernel fault.
    pub(crate) fn fault(&self, source: cudarc::driver::DriverError, during: &'static str) -> Error {
        if Error::is_sticky(source.0) {
            let kernel = self.last_kernel.lock().map(|k| *k).unwrap_or("?");
            if let Ok(mut p) = self.poisoned.lock() {
                *p = Some(format!("kernel `{kernel}` failed: {source}"));
            }
            Error::KernelFault { kernel, source }
        } else {
            Error::Driver { during, source }
        }
    }

    /// Launches [`diagnostic_trap`](../tessera_kernels/diagnostics/index.html), a kernel that faults on
    /// purpose, and waits for it. Returns the [`Error::KernelFault`] that any faulting kernel produces;
    /// afterwards this `Gpu` answers [`Error::ContextPoisoned`]. For testing fault handling only.
    pub fn diagnostic_trap(&self) -> Result<()> {
        let cfg = cudarc::driver::LaunchConfig { grid_dim: (1, 1, 1), block_dim: (32, 1, 1), shared_mem_bytes: 0 };
        let mut launch = self.stream.launch_builder(self.kernel("diagnostic_trap")?);
        // SAFETY: the kernel takes no parameters and touches no memory; it only traps.
        self.launched(unsafe { launch.launch(cfg) })?;
        self.synchronize()
    }

    /// Looks up kernel `name` for a launch — loading its module the first time: the driver compiles
    /// it then — and remembers it as the last kernel launched so a later fault can name it. Errors if
    /// this `Gpu` is poisoned, or the driver's errors loading the module.
    pub(crate) fn kernel(&self, name: &'static str) -> Result<&CudaFunction> {
        self.check_usable()?;
        let (sm90a, cell) =
            self.kernels.get(name).ok_or(Error::UnsupportedDevice { kernel: name, needs: "compute capability 9.0 (sm_90a)" })?;
        let f = match cell.get() {
            Some(f) => f,
            None => {
                let f = self.load_kernel(name, *sm90a)?;
                // Two threads may load it at once: either function is the kernel, one is kept.
                cell.get_or_init(|| f)
            }
        };
        if let Ok(mut k) = self.last_kernel.lock() {
            *k = name;
        }
        Ok(f)
    }

    /// Loads kernel `name`'s module — the entry alone ([`PtxPieces::module`]), or the whole module it
    /// is in should the cut not find it — and opts the kernel in to the device's shared memory.
    fn load_kernel(&self, name: &'static str, sm90a: bool) -> Result<CudaFunction> {
        let piece = PIECES[usize::from(sm90a)].as_ref().ok().and_then(|p| p.module(name));
        let module = match piece {
            Some(text) => self.ctx.load_module(Ptx::from_src(text)).map_err(Error::driver("loading a kernel's PTX module", 0))?,
            None => self.whole_module(sm90a)?,
        };
        let f = module.load_function(name).map_err(Error::driver("resolving a kernel", 0))?;
        f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, self.max_shared)
            .map_err(Error::driver("raising a kernel's shared-memory limit", 0))?;
        Ok(f)
    }

    /// The embedded module of `sm90a`'s kernels whole, loaded once: where the cut into pieces found
    /// no piece for a kernel (`ptx_pieces`' tests make sure it finds every catalogue entry).
    fn whole_module(&self, sm90a: bool) -> Result<Arc<CudaModule>> {
        let cell = &self.whole_modules[usize::from(sm90a)];
        if let Some(m) = cell.get() {
            return Ok(m.clone());
        }
        let text = if sm90a { PTX_SM90A } else { PTX };
        let module = self.ctx.load_module(Ptx::from_src(text)).map_err(Error::driver("loading the PTX module", 0))?;
        Ok(cell.get_or_init(|| module).clone())
    }

    /// Remembers `name` as the last kernel launched, so that a later fault can name it.
    pub(crate) fn note_launch(&self, name: &'static str) {
        if let Ok(mut k) = self.last_kernel.lock() {
            *k = name;
        }
    }

    /// How many clusters of kernel `name` (`f`, launched with `config`'s blocks and shared memory; its
    /// cluster size is the kernel's `.reqnctapercluster`) the GPU keeps resident at once: the plan
    /// sizes kernel 24's grid by SMs / cluster size, which a GPU whose SMs do not all pair up cannot
    /// hold in one wave. Asked of the driver once per kernel.
    pub(crate) fn max_active_clusters(&self, name: &'static str, f: &CudaFunction, config: cudarc::driver::LaunchConfig) -> Result<u32> {
        let mut limits = self.cluster_limits.lock().map_err(|_| Error::ContextPoisoned("the cluster limits' lock was poisoned".into()))?;
        if let Some(&n) = limits.get(name) {
            return Ok(n);
        }
        let n = f
            .occupancy_max_active_clusters(config, &self.stream)
            .map_err(Error::driver("asking for the clusters a kernel keeps resident", 0))?;
        limits.insert(name, n);
        Ok(n)
    }

    /// The dynamic shared memory with which kernel `name` (`f`, launched with `config`'s blocks and
    /// `config.shared_mem_bytes` of its own) fits one block per SM and no more: its own bytes where
    /// registers or shared memory already hold it to one, else just past what two blocks could share
    /// (`cuOccupancyAvailableDynamicSMemPerBlock`), the rest of the SM left to other launches' blocks.
    /// Asked of the driver once per kernel and size.
    pub(crate) fn one_block_per_sm(&self, name: &'static str, f: &CudaFunction, config: cudarc::driver::LaunchConfig) -> Result<u32> {
        let own = config.shared_mem_bytes;
        let mut known =
            self.spread_shared.lock().map_err(|_| Error::ContextPoisoned("the shared-memory sizes' lock was poisoned".into()))?;
        if let Some(&bytes) = known.get(&(name, own)) {
            return Ok(bytes);
        }
        let asking = || Error::driver("asking how many blocks of a kernel an SM holds", 0);
        let block = config.block_dim.0 * config.block_dim.1 * config.block_dim.2;
        let blocks = f.occupancy_max_active_blocks_per_multiprocessor(block, own as usize, None).map_err(asking())?;
        let bytes = if blocks < 2 {
            own
        } else {
            let two = f.occupancy_available_dynamic_smem_per_block(2, block).map_err(asking())?;
            let one = f.occupancy_available_dynamic_smem_per_block(1, block).map_err(asking())?;
            // 16 bytes past the two-block limit, where one block of that size still fits.
            let padded = (two + 16).next_multiple_of(16);
            if padded <= one {
                u32::try_from(padded).unwrap_or(own).max(own)
            } else {
                own
            }
        };
        known.insert((name, own), bytes);
        Ok(bytes)
    }

    /// Maps the result of a launch to tessera's errors.
    pub(crate) fn launched<T>(&self, result: std::result::Result<T, cudarc::driver::DriverError>) -> Result<()> {
        result.map(|_| ()).map_err(|e| self.fault(e, "launching a kernel"))
    }
}

#[cfg(test)]
mod tests {
    use super::DeviceInfo;

    fn info(cc: (i32, i32), sms: u32, khz: u32) -> DeviceInfo {
        DeviceInfo { name: "test".into(), ordinal: 0, compute_capability: cc, sm_count: sms, sm_clock_khz: khz, total_memory_bytes: 0 }
    }

    #[test]
    fn peak_matches_hand_worked_values() {
        // H200 SXM: 132 SMs × 128 lanes × 2 × 1.98 GHz = 66.9 TFLOP/s (the datasheet's 67).
        let h200 = info((9, 0), 132, 1_980_000);
        assert_eq!(h200.peak_fp32_flops(), Some(132.0 * 128.0 * 2.0 * 1.98e9));
        // A100: 108 SMs × 64 × 2 × 1.41 GHz = 19.5 TFLOP/s.
        assert_eq!(info((8, 0), 108, 1_410_000).peak_fp32_flops(), Some(108.0 * 64.0 * 2.0 * 1.41e9));
        assert_eq!(info((3, 5), 1, 1).peak_fp32_flops(), None);
    }
}
