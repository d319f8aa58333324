//! NCCL communicators, one rank per GPU of this process, on raw device pointers.
//!
//! cudarc's safe `Comm` records its buffer-tracking events when each call returns; inside an NCCL
//! group the operation is only enqueued at `ncclGroupEnd`, so those events would complete before
//! the transfer. tessera orders its transfers with events of its own (see [`crate::multi`]) and
//! uses cudarc's `result` layer here: raw pointers, byte counts, explicit streams.
//!
//! One thread drives every rank, so each operation that involves several ranks is issued inside one
//! group (`Comms::group`): NCCL launches the ranks' parts together at the group's end.
use cudarc::driver::CudaStream;
use cudarc::nccl::{result, sys};

use crate::error::{Error, Result};

/// Whether `libnccl` can be loaded; cudarc's NCCL calls panic without it.
pub fn nccl_present() -> bool {
    // SAFETY: this only tries to dlopen the library and reports whether it succeeded.
    unsafe { sys::is_culib_present() }
}

/// The NCCL version as `major·10000 + minor·100 + patch` (e.g. 22703), or `Error::NoNccl`.
pub fn nccl_version() -> Result<i32> {
    if !nccl_present() {
        return Err(Error::NoNccl);
    }
    result::get_nccl_version().map_err(nccl_error("reading the NCCL version"))
}

fn nccl_error(during: &'static str) -> impl FnOnce(result::NcclError) -> Error {
    move |e| Error::Nccl { during, detail: format!("{e:?}") }
}

/// One communicator per GPU (rank `r` is device `ordinals[r]`), created once with `ncclCommInitAll`.
pub(crate) struct Comms {
    comms: Vec<sys::ncclComm_t>,
    /// Set when a call failed: the communicators were aborted (pending operations cancelled).
    aborted: bool,
}

// SAFETY: NCCL communicators may be used from any thread as long as calls on one communicator are not
// concurrent; `Comms` is only reached through a `Mutex` held for a whole group.
unsafe impl Send for Comms {}

impl Comms {
    /// Communicators over the devices `ordinals` (distinct, each a visible device).
    ///
    /// Errors: [`Error::NoNccl`] without the library, [`Error::Nccl`] when NCCL fails to initialise.
    pub fn new(ordinals: &[usize]) -> Result<Self> {
        if !nccl_present() {
            return Err(Error::NoNccl);
        }
        let devices: Vec<i32> = ordinals.iter().map(|&o| o as i32).collect();
        let mut comms = vec![std::ptr::null_mut(); devices.len()];
        // SAFETY: `comms` has room for one handle per device and `devices` lists that many ordinals.
        unsafe { result::comm_init_all(comms.as_mut_ptr(), devices.len() as i32, devices.as_ptr()) }
            .map_err(nccl_error("initialising the communicators"))?;
        Ok(Self { comms, aborted: false })
    }

    /// Runs `issue` between `ncclGroupStart` and `ncclGroupEnd` (the end is called even when `issue`
    /// fails, so NCCL's group state never stays open). On failure the communicators are aborted,
    /// which cancels what the ranks already queued (no rank is left waiting for a peer).
    pub fn group(&mut self, during: &'static str, issue: impl FnOnce(&Self) -> Result<()>) -> Result<()> {
        if self.aborted {
            return Err(Error::Nccl { during, detail: "the communicators were aborted after an earlier failure".into() });
        }
        result::group_start().map_err(nccl_error(during))?;
        let issued = issue(self);
        let ended = result::group_end().map_err(nccl_error(during));
        let out = issued.and(ended.map(|_| ()));
        if out.is_err() {
            self.abort();
        }
        out
    }

    /// Aborts every communicator (once).
    fn abort(&mut self) {
        if !self.aborted {
            for &comm in &self.comms {
                // SAFETY: each handle came from ncclCommInitAll and is released exactly once.
                let _ = unsafe { result::comm_abort(comm) };
            }
            self.aborted = true;
        }
    }

    /// Whether an earlier failure aborted the communicators.
    pub fn failed(&self) -> bool {
        self.aborted
    }

    /// Queues `bytes` bytes from `src` on rank `rank` to rank `peer`, on `stream` (inside a group).
    ///
    /// # Safety
    /// `src` must be valid device memory of rank `rank`'s device for `bytes` bytes, not written
    /// until the send completes on `stream`, which must belong to that device's context.
    pub unsafe fn send(&self, rank: usize, src: u64, bytes: usize, peer: usize, stream: &CudaStream) -> Result<()> {
        let ptr = src as *const std::ffi::c_void;
        let s = stream.cu_stream() as sys::cudaStream_t;
        // SAFETY: the caller's contract; the communicator handle is live.
        unsafe { result::send(ptr, bytes, sys::ncclDataType_t::ncclUint8, peer as i32, self.comms[rank], s) }
            .map(|_| ())
            .map_err(nccl_error("sending"))
    }

    /// Queues the receipt of `bytes` bytes from rank `peer` into `dst` on rank `rank` (inside a group).
    ///
    /// # Safety
    /// `dst` must be valid device memory of rank `rank`'s device for `bytes` bytes, not used by
    /// anything else until the receive completes on `stream` (a stream of that device).
    pub unsafe fn recv(&self, rank: usize, dst: u64, bytes: usize, peer: usize, stream: &CudaStream) -> Result<()> {
        let ptr = dst as *mut std::ffi::c_void;
        let s = stream.cu_stream() as sys::cudaStream_t;
        // SAFETY: the caller's contract; the communicator handle is live.
        unsafe { result::recv(ptr, bytes, sys::ncclDataType_t::ncclUint8, peer as i32, self.comms[rank], s) }
            .map(|_| ())
            .map_err(nccl_error("receiving"))
    }

    /// Rank `rank`'s part of a broadcast of `bytes` bytes from rank `root`: the root sends `buf`,
    /// every other rank receives into its `buf` (inside a group, one call per rank).
    ///
    /// # Safety
    /// `buf` must be valid device memory of rank `rank`'s device for `bytes` bytes, not used by
    /// anything else until the broadcast completes on `stream` (a stream of that device).
    pub unsafe fn broadcast(&self, rank: usize, buf: u64, bytes: usize, root: usize, stream: &CudaStream) -> Result<()> {
        let s = stream.cu_stream() as sys::cudaStream_t;
        // SAFETY: the caller's contract; in place (send = receive buffer) as NCCL allows on every rank.
        unsafe {
            result::broadcast(
                buf as *const std::ffi::c_void,
                buf as *mut std::ffi::c_void,
                bytes,
                sys::ncclDataType_t::ncclUint8,
                root as i32,
                self.comms[rank],
                s,
            )
        }
        .map(|_| ())
        .map_err(nccl_error("broadcasting"))
    }
}

impl Drop for Comms {
    fn drop(&mut self) {
        if !self.aborted {
            for &comm in &self.comms {
                // SAFETY: each handle came from ncclCommInitAll and is released exactly once.
                let _ = unsafe { result::comm_destroy(comm) };
            }
        }
    }
}
