//! The traffic model behind the roofline's x-axis: global-memory bytes a kernel *issues*.
use tessera::{Algo, MatmulShape};

/// Bytes of global-memory loads and stores `algo` issues for `shape`, counted from its code (caches
/// may serve part of them; this is the traffic the algorithm asks for):
/// - naive: every thread loads a row of A and a column of B (`2·M·N·K` floats) and stores one float;
/// - tiled: each `T×T` block loads its A and B tiles once per K-step (`2·M·N·K / T` floats, counted
///   over padded tiles) and stores its outputs;
/// - block-tiled (k03 onwards), tile `BM×BN×BK`: every block loads its `BM×K` strip of A and `K×BN`
///   strip of B once (`M·N·K·(1/BN + 1/BM)` floats over padded extents) and stores its outputs
///   (split-K: `S` atomic additions per output).
pub fn global_bytes(algo: Algo, shape: MatmulShape) -> f64 {
    let (m, n, k) = (shape.m as f64, shape.n as f64, shape.k as f64);
    let stores = 4.0 * m * n;
    let pad = |x: f64, t: f64| (x / t).ceil() * t;
    let algo = algo.resolve(shape);
    let Some(cfg) = algo.config() else { return shape.min_bytes() };
    let (bm, bn, bk) = (cfg.bm as f64, cfg.bn as f64, cfg.bk as f64);
    match algo {
        Algo::Naive => 4.0 * 2.0 * m * n * k + stores,
        Algo::Tiled => {
            let (mp, np, kp) = (pad(m, bm), pad(n, bn), pad(k, bk));
            4.0 * 2.0 * mp * np * kp / bk + stores
        }
        _ => {
            let (mp, np, kp) = (pad(m, bm), pad(n, bn), pad(k, bk));
            4.0 * (mp * kp * np / bn + kp * np * mp / bm) + stores * algo.splits(shape) as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traffic_counts_match_hand_worked_values() {
        let s = MatmulShape { m: 1024, n: 1024, k: 1024 };
        // The seed's figures: naive issues 2.1 B float loads at 1024³, tiled 134 M.
        assert_eq!((global_bytes(Algo::Naive, s) - 4.0 * 1024.0 * 1024.0) / 4.0, 2_147_483_648.0);
        assert_eq!((global_bytes(Algo::Tiled, s) - 4.0 * 1024.0 * 1024.0) / 4.0, 134_217_728.0);
        // 17×33×9 pads to 32×48×16 for the tiled count: 2·32·48·16/16 loads + 17·33 stores.
        let odd = MatmulShape { m: 17, n: 33, k: 9 };
        assert_eq!(global_bytes(Algo::Tiled, odd), 4.0 * (2.0 * 32.0 * 48.0 + 17.0 * 33.0));
        // 128×128 block tile at 1024³: M·N·K·(2/128) loads.
        assert_eq!((global_bytes(Algo::Blocktile2d, s) - 4.0 * 1024.0 * 1024.0) / 4.0, 1024.0f64.powi(3) * 2.0 / 128.0);
    }
}
