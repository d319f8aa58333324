//! `Auto` on products that finish their sums in the store: a fused epilogue (bias, activation) weighs
//! kernel 27's tiles (alone or in kernel 24's clusters), whose consumers finish a tile while the tensor
//! cores wait, against kernel 31's ping-pong, whose warpgroups overlap one's epilogue with the other's
//! main loop; a plain 16-bit store stays on kernel 27.
use tessera_catalogue::select::{finishing_pick, tc_model};
use tessera_catalogue::{MatmulShape, Precision, MATMUL_KERNELS};

const SMS: u32 = 132;

fn shape(m: u32, n: u32, k: u32) -> MatmulShape {
    MatmulShape { m, n, k }
}

fn config(algo: tessera_catalogue::Algo) -> tessera_kernels::launch::TileConfig {
    MATMUL_KERNELS.iter().find(|k| k.algo == algo).expect("a catalogue kernel").config
}

/// With each chunk's biases loaded during the chunk before, kernel 27's 128×256 tile finished bias +
/// GELU into BF16 at 8192×4096×4096 and 8192×14336×4096 faster than the ping-pong (0.438 against 0.476
/// ms, 1.54 against 1.57 on an H100, `docs/results/2026-12-05-s40/prefetch-h100`); where rows start off a
/// 32-byte sector (K = 2000) the clusters sharing B's tiles finish them (0.142 ms against 0.158 and 0.160).
#[test]
fn a_fused_epilogue_takes_kernel_27_and_its_clusters_where_rows_are_off_a_sector() {
    for p in [Precision::Bf16, Precision::Fp16] {
        for s in [shape(8192, 4096, 4096), shape(8192, 14336, 4096)] {
            let (algo, _) = finishing_pick(s, p, SMS, true).expect("a finishing kernel");
            let cfg = config(algo);
            assert!(!cfg.ping_pong && cfg.cluster == 1 && (cfg.bm, cfg.bn) == (128, 256), "{p:?} {s:?}: {algo:?}");
            let (store, _) = finishing_pick(s, p, SMS, false).expect("a finishing kernel");
            assert!(!config(store).ping_pong && config(store).fused_epilogue, "{p:?} {s:?}: {store:?}");
        }
        let (algo, _) = finishing_pick(shape(3000, 5000, 2000), p, SMS, true).expect("a finishing kernel");
        assert_eq!(config(algo).cluster, 2, "{p:?}: {algo:?}");
    }
}

#[test]
fn the_fused_price_is_the_tile_price_times_its_measured_share() {
    let s = shape(3000, 5000, 2000);
    for k in MATMUL_KERNELS.iter().filter(|k| k.precision == Precision::Bf16 && k.config.fused_epilogue) {
        let plain = tc_model::predict_us(k.algo, s, 1, SMS).expect("priced");
        let share = tc_model::finishing_share(k.config, true, s, SMS);
        if k.config.ping_pong {
            // Between the overlapped and the serial share: each block's last unit finishes alone.
            assert!(share > tc_model::FUSED_OVERLAPPED && share < tc_model::FUSED_SERIAL, "{}: {share}", k.label);
        } else {
            assert_eq!(share, tc_model::FUSED_SERIAL, "{}", k.label);
        }
        assert!(plain > 0.0);
        assert_eq!(tc_model::finishing_share(k.config, false, s, SMS), 1.0, "{}", k.label);
    }
    // The pick is the least of those prices, over every finishing entry of the precision.
    let (_, us) = finishing_pick(s, Precision::Bf16, SMS, true).expect("a finishing kernel");
    let least = MATMUL_KERNELS
        .iter()
        .filter(|k| k.precision == Precision::Bf16 && k.config.fused_epilogue)
        .filter(|k| !k.config.ping_pong || tc_model::ping_pong_in_auto(k.config))
        .map(|k| tc_model::predict_us(k.algo, s, 1, SMS).unwrap() * tc_model::finishing_share(k.config, true, s, SMS))
        .fold(f64::INFINITY, f64::min);
    assert_eq!(us, least);
}

#[test]
fn one_unit_per_block_finishes_serially_on_the_ping_pong_too() {
    let cfg = config(tessera_catalogue::Algo::PingPongBf16x128);
    // 8 × 16 = 128 units on 132 SMs: one round, nothing to overlap.
    assert_eq!(tc_model::finishing_share(cfg, true, shape(1024, 2048, 4096), SMS), tc_model::FUSED_SERIAL);
    let many = tc_model::finishing_share(cfg, true, shape(8192, 14336, 4096), SMS);
    assert!(many < tc_model::FUSED_OVERLAPPED + 0.01, "{many}");
}

#[test]
fn tf32_and_fp8_have_no_ping_pong_to_take() {
    let s = shape(8192, 4096, 4096);
    let (tf32, _) = finishing_pick(s, Precision::Tf32, SMS, true).expect("kernel 27 in TF32");
    assert!(!config(tf32).ping_pong && config(tf32).fused_epilogue);
    for p in [Precision::Fp8E4m3, Precision::Fp8E5m2] {
        if let Some((algo, _)) = finishing_pick(s, p, SMS, true) {
            assert!(!config(algo).ping_pong, "{p:?}: {algo:?}");
        }
    }
}
