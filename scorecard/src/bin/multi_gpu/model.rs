//! The time model of a product from GPU 0 over N GPUs of one host (the 1D split of
//! `tessera_catalogue::plan::distribute`), fed with a run's own measurements: the one-GPU kernel time,
//! the one-GPU call's overhead, the NCCL broadcast and send rates, and the matmul's wave time (one
//! round of blocks over all SMs). It predicts 2, 4 and 8 GPUs; the 2-GPU prediction is checked
//! against the measured time.
//!
//! Notation: `n` the size, `s` bytes per input element, `T` the one-GPU kernel time, `rows = n/N`,
//! `lead` the lead band, `W_b`, `W_s` the broadcast and send rates.
//!
//! **GPU 0 waits for its sends** (the default): it sends every other GPU's rows of `A`
//! (`(N−1)·rows·n·s / W_s`) and `B` once (`n²·s / W_b`: NCCL pipelines the broadcast, so `B` costs
//! GPU 0 one copy whatever N) — `t_sends` — and then computes `T/N`. A receiving GPU computes its
//! lead band while `B` arrives (`T·lead/n`), the rest of its rows once they arrived
//! (`T·(rows − lead)/n`), and sends them back (`(N−1)·(rows − lead)·n·4 / W_s` into GPU 0 at the
//! end). `T(N) = overhead + max(t_sends + T/N, max(t_sends, T·lead/n) + T·(rows − lead)/n + tail)`.
//!
//! **GPU 0 computes at once**: measured, each NCCL transfer from a GPU whose matmul fills every SM
//! starts only when a wave of blocks ends, so transfer `j` arrives after about `j` waves; the
//! receivers start their rows after the `(1 + chunks)`-th transfer.
//!
//! Left out: partial last waves (a GPU's share rarely is a whole number of waves: at 16384³ on two
//! GPUs GPU 0 runs 31.03 waves in 32), SMs taken by NCCL kernels, launch gaps.
use serde::Serialize;

/// The measured inputs of the model.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Inputs {
    pub size: usize,
    pub input_bytes: usize,
    /// `Gpu::matmul` alone on one GPU (CUDA events), ms.
    pub kernel_ms: f64,
    /// The one-GPU call's time beyond the kernel (checks, issue, synchronization), ms.
    pub overhead_ms: f64,
    /// One wave of the kernel's blocks over all SMs: `kernel_ms / ⌈blocks / SMs⌉`.
    pub wave_ms: f64,
    pub broadcast_gb_s: f64,
    pub send_gb_s: f64,
    pub lead_rows: usize,
    pub b_chunks: usize,
    pub return_pieces: usize,
    pub root_waits_for_sends: bool,
}

/// A predicted time and scaling for one GPU count.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Prediction {
    pub gpus: usize,
    pub ms: f64,
    pub scaling: f64,
    /// When GPU 0 starts computing, and when the last receiving GPU has computed its rows (ms).
    pub root_start_ms: f64,
    pub receivers_done_ms: f64,
    pub tail_ms: f64,
}

/// `T(gpus)` in ms and its parts.
pub fn predict(x: &Inputs, gpus: usize) -> Prediction {
    let (n, s, g) = (x.size as f64, x.input_bytes as f64, gpus.max(1) as f64);
    let one = x.overhead_ms + x.kernel_ms;
    if gpus <= 1 {
        return Prediction { gpus: 1, ms: one, scaling: 1.0, root_start_ms: 0.0, receivers_done_ms: 0.0, tail_ms: 0.0 };
    }
    let ms = |bytes: f64, gb_s: f64| bytes / (gb_s * 1e9) * 1e3;
    let rows = n / g;
    let lead = (x.lead_rows as f64).min(rows);
    let compute = |r: f64| x.kernel_ms * r / n;
    let band = (rows - lead) / x.return_pieces.max(1) as f64;
    let tail_ms = ms((g - 1.0) * band * n * 4.0, x.send_gb_s);
    let (root_start_ms, receivers_start) = if x.root_waits_for_sends {
        let sends = ms((g - 1.0) * rows * n * s, x.send_gb_s) + ms(n * n * s, x.broadcast_gb_s);
        (sends, sends.max(compute(lead)))
    } else {
        // Transfer j arrives after about j waves of GPU 0's matmul; the rest of the rows need the
        // first piece after the lead rows and B: transfer 1 + chunks.
        (0.0, ((1 + x.b_chunks) as f64 * x.wave_ms).max(compute(lead)))
    };
    let receivers_done_ms = receivers_start + compute(rows - lead);
    let total = x.overhead_ms + (root_start_ms + compute(rows)).max(receivers_done_ms + tail_ms);
    Prediction { gpus, ms: total, scaling: one / total, root_start_ms, receivers_done_ms, tail_ms }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(gb_s: f64, root_waits: bool) -> Inputs {
        Inputs {
            size: 16384,
            input_bytes: 4,
            kernel_ms: 179.5,
            overhead_ms: 0.2,
            wave_ms: 179.5 / 63.0,
            broadcast_gb_s: gb_s,
            send_gb_s: gb_s,
            lead_rows: 512,
            b_chunks: 8,
            return_pieces: 1,
            root_waits_for_sends: root_waits,
        }
    }

    #[test]
    fn hand_worked_two_gpu_cases() {
        // Root waits: sends 0.54 GB + 1.07 GB at 365 GB/s = 4.41 ms, then 89.75 ms.
        let p = predict(&inputs(365.0, true), 2);
        assert!((p.root_start_ms - 4.41).abs() < 0.01, "{p:?}");
        assert!((p.ms - (0.2 + 4.41 + 89.75)).abs() < 0.02, "{p:?}");
        assert!(p.scaling > 1.89 && p.scaling < 1.91);
        // Root at once: the rest of the rows arrive after 9 waves (25.6 ms), then 84.1 ms of rows.
        let q = predict(&inputs(365.0, false), 2);
        assert!(q.scaling > 1.6 && q.scaling < 1.66, "{q:?}");
        // Slow links: everything waits for the sends.
        let slow = predict(&inputs(25.0, true), 2);
        assert!(slow.root_start_ms > 60.0 && slow.scaling < 1.3, "{slow:?}");
        assert_eq!(predict(&inputs(365.0, true), 1).scaling, 1.0);
    }

    #[test]
    fn eight_gpus_are_bound_by_the_root_sends() {
        let p8 = predict(&inputs(365.0, true), 8);
        // 7/8 of A and B leave GPU 0 first (5.5 ms) before its 22.4 ms.
        assert!(p8.root_start_ms > 5.0 && p8.scaling > 6.0 && p8.scaling < 7.0, "{p8:?}");
    }
}
