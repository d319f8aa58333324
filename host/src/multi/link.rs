//! How fast the GPUs of one host move data between them: NCCL broadcast and send from GPU 0, and
//! the copy engines' peer copy (`cuMemcpyPeerAsync`), each over buffers of the same size.
use std::time::Instant;

use cudarc::driver::result;

use super::MultiGpu;
use crate::blocked::{alloc_bytes, raw_ptr};
use crate::error::{Error, Result};

/// Measured link rates in GB/s (10⁹ bytes per second) over buffers of `bytes`.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkReport {
    pub bytes: usize,
    pub reps: usize,
    /// NCCL broadcast from GPU 0 to all GPUs: bytes ÷ time (NCCL's "algorithm bandwidth").
    pub broadcast_gb_s: f64,
    /// NCCL send from GPU 0 to GPU `g` (index `g - 1`).
    pub send_gb_s: Vec<f64>,
    /// `cuMemcpyPeerAsync` from GPU 0 to GPU `g` (index `g - 1`): the copy engines, no SMs.
    pub peer_copy_gb_s: Vec<f64>,
}

impl MultiGpu {
    /// Times `reps` transfers of `bytes` each way listed in [`LinkReport`] (after one untimed
    /// transfer each), host wall time from the first issue to the last completion: no
    /// synchronization between repetitions.
    ///
    /// Errors: [`Error::InvalidArgument`] with one GPU, `bytes == 0` or `reps == 0`;
    /// [`Error::OutOfMemoryOn`], [`Error::Nccl`], driver errors.
    pub fn link_bandwidth(&self, bytes: usize, reps: usize) -> Result<LinkReport> {
        const OP: &str = "MultiGpu::link_bandwidth";
        if self.len() < 2 || bytes == 0 || reps == 0 {
            return Err(Error::InvalidArgument {
                op: OP,
                detail: format!("{} GPU(s), {bytes} bytes, {reps} reps: needs 2+ GPUs, 1+ byte, 1+ rep", self.len()),
            });
        }
        self.check_usable()?;
        for g in 0..self.len() {
            self.check_free(g, bytes)?;
        }
        let bufs = self.gpus().iter().map(|gpu| alloc_bytes(gpu, gpu.stream(), "link test buffers", bytes)).collect::<Result<Vec<_>>>()?;
        let ptrs: Vec<u64> = bufs.iter().zip(self.gpus()).map(|(b, gpu)| raw_ptr(b, gpu.stream())).collect();
        self.fence(&mut super::timeline::Recorder::new(false, self.len()))?;
        let time = |issue: &dyn Fn() -> Result<()>| -> Result<f64> {
            issue()?;
            self.synchronize()?;
            let t0 = Instant::now();
            for _ in 0..reps {
                issue()?;
            }
            self.synchronize()?;
            Ok(bytes as f64 * reps as f64 / t0.elapsed().as_secs_f64() / 1e9)
        };
        let broadcast_gb_s = time(&|| {
            self.group("broadcasting (link test)", |comms| {
                for (g, &p) in ptrs.iter().enumerate() {
                    // SAFETY: each buffer holds `bytes` bytes on GPU g and is used by this test only.
                    unsafe { comms.broadcast(g, p, bytes, 0, self.transfer_stream(g))? };
                }
                Ok(())
            })
        })?;
        let mut send_gb_s = Vec::new();
        let mut peer_copy_gb_s = Vec::new();
        for g in 1..self.len() {
            send_gb_s.push(time(&|| {
                self.group("sending (link test)", |comms| {
                    // SAFETY: as above.
                    unsafe {
                        comms.send(0, ptrs[0], bytes, g, self.transfer_stream(0))?;
                        comms.recv(g, ptrs[g], bytes, 0, self.transfer_stream(g))
                    }
                })
            })?);
            let (root, peer) = (&self.gpus()[0], &self.gpus()[g]);
            peer_copy_gb_s.push(time(&|| {
                root.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;
                // SAFETY: both buffers hold `bytes` bytes in their contexts; the copy runs on GPU 0's
                // transfer stream and nothing else uses the buffers.
                unsafe {
                    result::memcpy_peer_async(
                        peer.context().cu_ctx(),
                        ptrs[g],
                        root.context().cu_ctx(),
                        ptrs[0],
                        bytes,
                        self.transfer_stream(0).cu_stream(),
                    )
                }
                .map_err(|e| root.fault(e, "copying between GPUs"))
            })?);
        }
        self.synchronize()?;
        drop(bufs);
        Ok(LinkReport { bytes, reps, broadcast_gb_s, send_gb_s, peer_copy_gb_s })
    }
}
