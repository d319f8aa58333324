//! The traffic model behind the roofline's x-axis: global-memory bytes a kernel *issues*.
use tessera::{tuning, Algo, MatmulShape, Precision};

/// Bytes of one input element in `precision` (`f32` for FP32 and TF32, 2 for BF16 and FP16).
pub fn input_bytes(precision: Precision) -> f64 {
    if precision.takes_f32() {
        4.0
    } else {
        2.0
    }
}

/// The least global traffic of any GEMM in `precision`: read A and B once (input type), write C once (f32).
pub fn min_bytes(shape: MatmulShape, precision: Precision) -> f64 {
    let (m, n, k) = (shape.m as f64, shape.n as f64, shape.k as f64);
    input_bytes(precision) * (m * k + k * n) + 4.0 * m * n
}

/// Bytes of global-memory loads and stores `algo` issues for `shape`, counted from its code (caches
/// may serve part of them; this is the traffic the algorithm asks for):
/// - naive: every thread loads a row of A and a column of B (`2·M·N·K` floats) and stores one float;
/// - tiled: each `T×T` block loads its A and B tiles once per K-step (`2·M·N·K / T` floats, counted
///   over padded tiles) and stores its outputs;
/// - block-tiled (k03 onwards), tile `BM×BN×BK`: every block loads its `BM×K` strip of A and `K×BN`
///   strip of B once (`M·N·K·(1/BN + 1/BM)` floats over padded extents) and stores its outputs
///   (split-K: `S` atomic additions per output; stream-K: one store or atomic addition per piece of
///   a tile its walk makes, `tuning::stream_k_walk`);
/// - `mma-naive-*` (k11): every warp loads its own `16×K` strip of A and `K×8` strip of B (nothing
///   is shared within the block), so the block-tile rule with a 16×8 tile;
/// - the tensor-core tiles (k12, k13) follow the block-tile rule with their input element size
///   (2 bytes for BF16/FP16, 4 for TF32); C is f32 in every precision.
///
/// `precision` is the one the product runs in (`Auto` resolves to a kernel of it).
pub fn global_bytes(algo: Algo, precision: Precision, shape: MatmulShape) -> f64 {
    let (m, n, k) = (shape.m as f64, shape.n as f64, shape.k as f64);
    let stores = 4.0 * m * n;
    let pad = |x: f64, t: f64| (x / t).ceil() * t;
    let Ok(planned) = tessera::catalogue::Planner::new("traffic", algo, precision, tessera::Target::H200).launch(shape) else {
        return min_bytes(shape, precision);
    };
    let algo = planned.launch.algo;
    let Some(cfg) = algo.config() else { return min_bytes(shape, precision) };
    let e = input_bytes(algo.precision().unwrap_or(precision));
    let (bm, bn, bk) = (cfg.bm as f64, cfg.bn as f64, cfg.bk as f64);
    let block_tiled = |bm: f64, bn: f64, bk: f64| {
        let (mp, np, kp) = (pad(m, bm), pad(n, bn), pad(k, bk));
        let writes = if cfg.stream_k {
            let walk = tuning::stream_k_walk(cfg, shape, u64::from(tuning::stream_k_blocks(algo, shape, tuning::SMS)));
            (walk.whole + walk.partial) as f64 / walk.tiles.max(1) as f64
        } else {
            planned.launch.splits as f64
        };
        e * (mp * kp * np / bn + kp * np * mp / bm) + stores * writes
    };
    match algo {
        Algo::Naive => e * 2.0 * m * n * k + stores,
        Algo::Tiled => {
            let (mp, np, kp) = (pad(m, bm), pad(n, bn), pad(k, bk));
            e * 2.0 * mp * np * kp / bk + stores
        }
        Algo::MmaNaiveBf16 | Algo::MmaNaiveF16 | Algo::MmaNaiveTf32 => block_tiled(16.0, 8.0, bk),
        _ => block_tiled(bm, bn, bk),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traffic_counts_match_hand_worked_values() {
        let s = MatmulShape { m: 1024, n: 1024, k: 1024 };
        // The seed's figures: naive issues 2.1 B float loads at 1024³, tiled 134 M.
        assert_eq!((global_bytes(Algo::Naive, Precision::Fp32, s) - 4.0 * 1024.0 * 1024.0) / 4.0, 2_147_483_648.0);
        assert_eq!((global_bytes(Algo::Tiled, Precision::Fp32, s) - 4.0 * 1024.0 * 1024.0) / 4.0, 134_217_728.0);
        // 17×33×9 pads to 32×48×16 for the tiled count: 2·32·48·16/16 loads + 17·33 stores.
        let odd = MatmulShape { m: 17, n: 33, k: 9 };
        assert_eq!(global_bytes(Algo::Tiled, Precision::Fp32, odd), 4.0 * (2.0 * 32.0 * 48.0 + 17.0 * 33.0));
        // 128×128 block tile at 1024³: M·N·K·(2/128) loads.
        assert_eq!((global_bytes(Algo::Blocktile2d, Precision::Fp32, s) - 4.0 * 1024.0 * 1024.0) / 4.0, 1024.0f64.powi(3) * 2.0 / 128.0);
        // k11 on BF16: 2-byte inputs over 16×8 warp tiles: M·N·K·(1/8 + 1/16) elements of 2 bytes.
        let mma = global_bytes(Algo::MmaNaiveBf16, Precision::Bf16, s) - 4.0 * 1024.0 * 1024.0;
        assert_eq!(mma, 2.0 * 1024.0f64.powi(3) * (1.0 / 8.0 + 1.0 / 16.0));
        // cuBLAS's minimum in BF16: 2-byte A and B, 4-byte C.
        assert_eq!(min_bytes(s, Precision::Bf16), 1024.0 * 1024.0 * (2.0 + 2.0 + 4.0));
        // Stream-K 128×256 at 1024³: 32 tiles of 64 steps over 132 blocks (15–16 steps each), so
        // every piece is part of a tile: 132 blocks × 1–2 pieces, each a tile's 32768 outputs.
        let walk = tuning::stream_k_walk(Algo::StreamK128x256x16.config().unwrap(), s, 132);
        assert_eq!((walk.tiles, walk.whole), (32, 0));
        assert!((132..=264).contains(&walk.partial), "{walk:?}");
        let loads = 4.0 * 1024.0f64.powi(3) * (1.0 / 256.0 + 1.0 / 128.0);
        let writes = global_bytes(Algo::StreamK128x256x16, Precision::Fp32, s) - loads;
        assert_eq!(writes, 4.0 * 1024.0 * 1024.0 * walk.partial as f64 / 32.0);
    }
}
