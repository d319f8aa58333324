//! The time model of a product from GPU 0 over N GPUs of one host (the 1D split of
//! `tessera_catalogue::distribute`), fed with the run's own measurements: the one-GPU kernel time,
//! the one-GPU call's overhead, and the NCCL broadcast and send rates. It predicts the scaling at
//! 4 and 8 GPUs, and is checked against the measured 2-GPU time.
//!
//! Per receiving GPU (rows `n/N`, the first `lead` of them computed chunk by chunk as `B` arrives):
//! - everything it needs arrives after `t_in = (N−1)·lead·n·s/W_send + n²·s/W_bcast +
//!   (N−1)·(n/N − lead)·n·s/W_send` (GPU 0's egress carries every GPU's rows of `A` once and `B`
//!   once: NCCL's broadcast is pipelined, so `B` costs GPU 0 one copy whatever N);
//! - its lead band computes meanwhile (`t_lead = T_kernel·lead/n`), so it stalls `max(0, t_in − t_lead)`;
//! - it computes `T_kernel/N` in all;
//! - the last return band of every GPU reaches GPU 0 at the end: `(N−1)·band·n·4/W_send`.
//!
//! `T(N) = overhead + T_kernel/N + stall + tail`; the scaling is `T(1)/T(N)`. What it leaves out: the
//! SMs NCCL's kernels take on GPU 0 while it sends, the accumulation of the lead band's K chunks
//! (one extra read and write of the lead rows of `C` per chunk), and launch gaps between the bands.
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
    pub broadcast_gb_s: f64,
    pub send_gb_s: f64,
    pub lead_rows: usize,
    pub return_pieces: usize,
}

/// A predicted time and scaling for one GPU count.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Prediction {
    pub gpus: usize,
    pub ms: f64,
    pub scaling: f64,
    pub stall_ms: f64,
    pub tail_ms: f64,
}

/// `T(gpus)` in ms, with its stall and tail.
pub fn predict(x: &Inputs, gpus: usize) -> Prediction {
    let n = x.size as f64;
    let s = x.input_bytes as f64;
    let g = gpus.max(1) as f64;
    let one = x.overhead_ms + x.kernel_ms;
    if gpus <= 1 {
        return Prediction { gpus: 1, ms: one, scaling: 1.0, stall_ms: 0.0, tail_ms: 0.0 };
    }
    let ms = |bytes: f64, gb_s: f64| bytes / (gb_s * 1e9) * 1e3;
    let rows = n / g;
    let lead = (x.lead_rows as f64).min(rows);
    let t_in =
        ms((g - 1.0) * lead * n * s, x.send_gb_s) + ms(n * n * s, x.broadcast_gb_s) + ms((g - 1.0) * (rows - lead) * n * s, x.send_gb_s);
    let t_lead = x.kernel_ms * lead / n;
    let stall_ms = (t_in - t_lead).max(0.0);
    let band = (rows - lead) / x.return_pieces.max(1) as f64;
    let tail_ms = ms((g - 1.0) * band * n * 4.0, x.send_gb_s);
    let total = x.overhead_ms + x.kernel_ms / g + stall_ms + tail_ms;
    Prediction { gpus, ms: total, scaling: one / total, stall_ms, tail_ms }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(gb_s: f64) -> Inputs {
        Inputs {
            size: 16384,
            input_bytes: 4,
            kernel_ms: 187.0,
            overhead_ms: 1.0,
            broadcast_gb_s: gb_s,
            send_gb_s: gb_s,
            lead_rows: 512,
            return_pieces: 4,
        }
    }

    #[test]
    fn fast_links_scale_nearly_linearly_and_slow_ones_stall() {
        let fast = inputs(350.0);
        let p2 = predict(&fast, 2);
        assert!(p2.scaling > 1.9 && p2.scaling < 2.0, "{p2:?}");
        assert_eq!(p2.stall_ms, 0.0); // 1.1 GB of B in ~3 ms, under the 5.8 ms lead band
        let p8 = predict(&fast, 8);
        assert!(p8.scaling > 7.0 && p8.scaling < 8.0, "{p8:?}");
        // Over PCIe-like 25 GB/s, B alone takes 43 ms: the receivers wait for it.
        let slow = predict(&inputs(25.0), 2);
        assert!(slow.stall_ms > 30.0 && slow.scaling < 1.6, "{slow:?}");
        assert_eq!(predict(&fast, 1).scaling, 1.0);
    }
}
