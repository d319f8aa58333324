//! The tensor-core ceilings without a GPU: the `wgmma` rate kernels' entries, their FLOPs per launch,
//! the exact result a launch writes (for the emulator and GPU tests), and the datasheet peaks the
//! measured rates are reported beside.
use tessera_kernels::wgmma_rate::{self, a_value, b_value, weight, ACC, GROUP};

use crate::Precision;

/// The `wgmma_rate` entry of `precision` and the FLOPs of one of its `wgmma` instructions
/// (`2·64·256·K`: `m64n256k8` for TF32, `m64n256k16` for BF16 and FP16, `m64n256k32` for FP8);
/// `None` for FP32.
pub fn wgmma_rate_entry(precision: Precision) -> Option<(&'static str, f64)> {
    match precision {
        Precision::Fp32 => None,
        Precision::Fp8E4m3 => Some(("wgmma_rate_e4m3", 2.0 * 64.0 * 256.0 * 32.0)),
        Precision::Fp8E5m2 => Some(("wgmma_rate_e5m2", 2.0 * 64.0 * 256.0 * 32.0)),
        Precision::Tf32 => Some(("wgmma_rate_tf32", 2.0 * 64.0 * 256.0 * 8.0)),
        Precision::Bf16 => Some(("wgmma_rate_bf16", 2.0 * 64.0 * 256.0 * 16.0)),
        Precision::Fp16 => Some(("wgmma_rate_f16", 2.0 * 64.0 * 256.0 * 16.0)),
    }
}

/// FLOPs of one `wgmma_rate` launch of `blocks` blocks of [`wgmma_rate::BLOCK`] threads (one
/// warpgroup each) running `iters` groups: `warpgroups · iters · GROUP · flops_per_wgmma`.
pub fn wgmma_rate_flops(precision: Precision, blocks: u32, iters: u32) -> Option<f64> {
    let (_, per) = wgmma_rate_entry(precision)?;
    let warpgroups = f64::from(blocks) * f64::from(wgmma_rate::BLOCK / 128);
    Some(warpgroups * f64::from(iters) * f64::from(GROUP) * per)
}

/// The value a `wgmma_rate` kernel of `precision` writes for thread `tid` of its block after `iters`
/// groups, computed here independently of the kernel: the operand pair as a plain matrix product
/// (`A` 64 × `GROUP·K`, `B` `GROUP·K` × 256) and the accumulator layout written out from the PTX ISA
/// (`wgmma` `m64nNk16` D fragment: warp `w` of the warpgroup, lane `(g, t)`, register `i` holds row
/// `16w + g + 8·⌊(i mod 4) / 2⌋`, column `8·⌊i / 4⌋ + 2t + (i mod 2)`). Exact (an integer) while the
/// kernel's sums stay below 2^24, which holds for `iters ≤ 8`. `None` for FP32.
pub fn wgmma_rate_expected(precision: Precision, tid: u32, iters: u32) -> Option<f64> {
    let k = match precision {
        Precision::Fp32 => return None,
        Precision::Tf32 => 8,
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => 32,
        Precision::Bf16 | Precision::Fp16 => 16,
    };
    let (warp, lane) = ((tid % 128) / 32, tid % 32);
    let (g, t) = (lane / 4, lane % 4);
    let mut sum = 0.0f64;
    for i in 0..ACC as u32 {
        let row = 16 * warp + g + 8 * ((i % 4) / 2);
        let col = 8 * (i / 4) + 2 * t + i % 2;
        let per_group: i64 = (0..GROUP * k).map(|kk| i64::from(a_value(row, kk)) * i64::from(b_value(kk, col))).sum();
        sum += f64::from(weight(i)) * f64::from(iters) * per_group as f64;
    }
    Some(sum)
}

/// A datasheet peak: dense tensor-core TFLOP/s and where the figure comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DatasheetPeak {
    pub tflops: f64,
    pub source: &'static str,
}

/// The H200 datasheet's dense (no sparsity) tensor-core peak of `precision` for a device named
/// `device` (the driver's name): NVIDIA H200 Tensor Core GPU datasheet, H200 SXM column — BF16 and
/// FP16 1,979 TFLOP/s, TF32 989 TFLOP/s, FP8 3,958, each *with sparsity*; dense is half, 989.4, 494.7 and 1,978.9 as
/// NVIDIA's H100 SXM figures state it (the same 132 SMs and clocks). By arithmetic, 989.4 TFLOP/s
/// = 132 SMs × 4096 dense BF16 FLOP per clock × 1.83 GHz: the figure assumes a 1830 MHz clock
/// (nvidia-smi's maximum SM clock on our H200 is 1980 MHz). `None` for other devices (no figure is
/// guessed) and for FP32 (no tensor cores).
pub fn datasheet_dense_peak(device: &str, precision: Precision) -> Option<DatasheetPeak> {
    const SOURCE: &str = "NVIDIA H200 datasheet, H200 SXM: FP8 3,958, BF16/FP16 1,979 and TF32 989 TFLOP/s with sparsity, dense half \
                          of it (1,978.9 / 989.4 / 494.7 as NVIDIA states the H100 SXM's, same SMs and clocks)";
    if !device.contains("H200") {
        return None;
    }
    match precision {
        Precision::Fp32 => None,
        Precision::Tf32 => Some(DatasheetPeak { tflops: 494.7, source: SOURCE }),
        Precision::Bf16 | Precision::Fp16 => Some(DatasheetPeak { tflops: 989.4, source: SOURCE }),
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => Some(DatasheetPeak { tflops: 1978.9, source: SOURCE }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp8_operand_bits_are_the_formats_values() {
        use tessera_kernels::wgmma_rate::fp8_bits;
        for v in -15..=15 {
            assert_eq!(fp8_bits(v, 7, 3), float8::F8E4M3::from_f32(v as f32).to_bits(), "E4M3 {v}");
        }
        for v in -7..=7 {
            assert_eq!(fp8_bits(v, 15, 2), float8::F8E5M2::from_f32(v as f32).to_bits(), "E5M2 {v}");
        }
        assert_eq!(wgmma_rate_flops(Precision::Fp8E4m3, 1, 1), Some(4.0 * 1_048_576.0));
    }

    #[test]
    fn flops_per_launch_match_hand_worked_values() {
        // One block (one warpgroup) · 1 group · 4 wgmmas · 524288 (BF16/FP16) or 262144 (TF32) FLOPs.
        assert_eq!(wgmma_rate_flops(Precision::Bf16, 1, 1), Some(4.0 * 524_288.0));
        assert_eq!(wgmma_rate_flops(Precision::Tf32, 1, 1), Some(4.0 * 262_144.0));
        assert_eq!(wgmma_rate_flops(Precision::Fp16, 132 * 2, 1000), Some(264.0 * 1000.0 * 4.0 * 524_288.0));
        assert_eq!(wgmma_rate_flops(Precision::Fp32, 1, 1), None);
    }

    #[test]
    fn expected_values_are_linear_in_iters_and_differ_by_thread() {
        for p in [Precision::Tf32, Precision::Bf16, Precision::Fp16] {
            assert_eq!(wgmma_rate_expected(p, 5, 0), Some(0.0));
            let one = wgmma_rate_expected(p, 5, 1).unwrap();
            assert_ne!(one, 0.0);
            assert_eq!(wgmma_rate_expected(p, 5, 3), Some(3.0 * one));
            assert!(wgmma_rate_expected(p, 6, 1) != Some(one) || wgmma_rate_expected(p, 37, 1) != Some(one));
            // Exact in f32 at the largest iteration count the tests use.
            let big = wgmma_rate_expected(p, 0, 8).unwrap();
            assert!(big.abs() < 16_777_216.0 && big == big.trunc(), "{p:?}: {big}");
        }
        assert_eq!(wgmma_rate_expected(Precision::Fp32, 0, 1), None);
    }

    #[test]
    fn datasheet_peaks_only_for_the_h200() {
        assert_eq!(datasheet_dense_peak("NVIDIA H200", Precision::Bf16).map(|p| p.tflops), Some(989.4));
        assert_eq!(datasheet_dense_peak("NVIDIA H200", Precision::Tf32).map(|p| p.tflops), Some(494.7));
        assert_eq!(datasheet_dense_peak("NVIDIA H100 80GB HBM3", Precision::Bf16), None);
        assert_eq!(datasheet_dense_peak("NVIDIA H200", Precision::Fp32), None);
    }
}
