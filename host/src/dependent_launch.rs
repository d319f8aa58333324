//! Kernel launches through `cuLaunchKernelEx`, optionally as the programmatic dependent of the
//! launch before them on the stream (sm_90), and `C`'s zeroing as the kernel such a launch overlaps.
//!
//! A split-K launch adds its slices into a zeroed `C`. Zeroed by a memset node, the launch starts
//! only after the memset has finished and its writes are flushed, a fixed ~2 µs gap that the time
//! model priced into every split (`tc_model::STREAM_OP_US`). Zeroed by kernel `zero_f32`, which lets
//! its dependents start at once, and launched with the *programmatic stream serialization*
//! attribute, the split kernel runs its K-loops while the zeros land and waits for them
//! (`griddepcontrol.wait`, `tessera_kernels::device::dependent_launch`) only before its first add.
//!
//! Every `chained` kernel (`TileConfig::chained`: the TMA kernels, kernels 18, 19 and 20) is queued
//! the same way after any launch: each lets its successor start early and waits for its
//! predecessors before it touches memory (`dependent_launch::follow_prior`), so the start of one
//! product overlaps the end of the launch before it. Such a launch's blocks are placed while the
//! launch before it still holds SMs; one of at most one block per SM asks for the shared memory that
//! fits one block per SM (`Gpu::one_block_per_sm`), so that the SMs left idle do not take two each.
//!
//! `TESSERA_DEPENDENT_LAUNCH=0` in the environment turns the overlap off (the same kernels, launched
//! one after the other), `split` keeps it only after the zeroing: for measuring what it buys, and
//! for tools that do not follow it.
use std::ffi::c_void;
use std::marker::PhantomData;
use std::sync::OnceLock;

use cudarc::driver::{sys, CudaFunction, CudaStream, DeviceRepr, DriverError, LaunchConfig};

/// The argument list of one launch: pointers to values that outlive it (`'a`).
pub(crate) struct RawArgs<'a> {
    ptrs: Vec<*mut c_void>,
    values: PhantomData<&'a ()>,
}

impl<'a> RawArgs<'a> {
    /// An empty list.
    pub(crate) fn new() -> Self {
        Self { ptrs: Vec::with_capacity(16), values: PhantomData }
    }

    /// Appends `value` (passed by value to the kernel's next parameter).
    pub(crate) fn arg<T: DeviceRepr>(&mut self, value: &'a T) -> &mut Self {
        self.ptrs.push(value as *const T as *mut c_void);
        self
    }
}

/// Which launches overlap the one before them, from `TESSERA_DEPENDENT_LAUNCH` (read once): `0`
/// none, `split` only the launches after `C`'s zeroing, anything else (or unset) those and every
/// `chained` kernel's.
fn mode() -> u8 {
    static MODE: OnceLock<u8> = OnceLock::new();
    *MODE.get_or_init(|| match std::env::var("TESSERA_DEPENDENT_LAUNCH").as_deref().map(str::trim) {
        Ok("0") => 0,
        Ok("split") => 1,
        _ => 2,
    })
}

/// Whether split launches overlap their zeroing (unless `TESSERA_DEPENDENT_LAUNCH=0`).
pub(crate) fn overlap_enabled() -> bool {
    mode() >= 1
}

/// Whether a `chained` kernel that stores `C` overlaps the launch before it (unless
/// `TESSERA_DEPENDENT_LAUNCH` is `0` or `split`).
pub(crate) fn chain_enabled() -> bool {
    mode() >= 2
}

/// Queues `f` with `args` on `stream`; where `dependent`, as the programmatic dependent of the
/// launch queued just before it on the stream.
///
/// # Safety
/// `args` match `f`'s parameters in number, order and types, and every pointer among them is valid
/// for what `f` does with it until the launch completes; `config` is a launch `f` can run (threads,
/// dynamic shared memory set on it). Where `dependent`, `f` calls `griddepcontrol.wait` before it
/// reads or writes anything the launch before it touches, and the launch before it on the stream is
/// one the caller queued for that purpose.
pub(crate) unsafe fn launch(
    stream: &CudaStream,
    f: &CudaFunction,
    config: LaunchConfig,
    args: &mut RawArgs<'_>,
    dependent: bool,
) -> Result<(), DriverError> {
    stream.context().bind_to_thread()?;
    // SAFETY: plain data; the union's field for this attribute id is the one written.
    let mut attr: sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
    attr.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attr.value.programmaticStreamSerializationAllowed = 1;
    let cfg = sys::CUlaunchConfig {
        gridDimX: config.grid_dim.0,
        gridDimY: config.grid_dim.1,
        gridDimZ: config.grid_dim.2,
        blockDimX: config.block_dim.0,
        blockDimY: config.block_dim.1,
        blockDimZ: config.block_dim.2,
        sharedMemBytes: config.shared_mem_bytes,
        hStream: stream.cu_stream(),
        attrs: if dependent { &mut attr } else { std::ptr::null_mut() },
        numAttrs: u32::from(dependent),
    };
    // SAFETY: the caller's contract for `f`, `config` and `args`; `cfg` and `attr` live through the
    // call, which copies them.
    unsafe { sys::cuLaunchKernelEx(&cfg, f.cu_function(), args.ptrs.as_mut_ptr(), std::ptr::null_mut()).result() }
}
