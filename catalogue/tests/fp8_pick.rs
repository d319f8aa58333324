//! `Auto` between kernel 25's tiles and its pairs (clusters of two sharing `Bᵀ`), per-tensor and block
//! scales: the pairs where the model prices them faster, as they ran on odd random shapes; the
//! unpaired tiles on the large aligned ones (`docs/results/2026-12-05-pingpong-pairs`).
use tessera_catalogue::select::{fp8_scaled, tc_model, Fp8Scaling};
use tessera_catalogue::{Algo, MatmulShape, Precision};

const SMS: u32 = 132;

fn paired(algo: Algo) -> bool {
    algo.kernel().expect("a concrete kernel").config.cluster > 1
}

#[test]
fn the_pairs_take_the_shapes_they_ran_faster_on_and_leave_the_others() {
    // Measured E4M3 (µs): 6320×6781×1456 pairs 196 against 330; 4096³ 156 against 136.
    for p in [Precision::Fp8E4m3, Precision::Fp8E5m2] {
        let odd = MatmulShape { m: 6320, n: 6781, k: 1456 };
        let square = MatmulShape { m: 4096, n: 4096, k: 4096 };
        assert!(paired(tc_model::pick(odd, p, SMS).unwrap()), "{p:?} {odd:?}");
        assert!(!paired(tc_model::pick(square, p, SMS).unwrap()), "{p:?} {square:?}");
        // Block scales follow the per-tensor pick.
        let blocks = |s| fp8_scaled("test", Algo::Auto, p, Fp8Scaling::Blocks, s, SMS).unwrap();
        let (b_odd, b_square) = (blocks(odd), blocks(square));
        for (algo, pairs) in [(b_odd, true), (b_square, false)] {
            let k = algo.kernel().unwrap();
            assert!(k.config.fp8_block_scales && k.precision == p && paired(algo) == pairs, "{p:?}: {algo:?}");
        }
        // Per-tensor `Auto` stays `Auto`; a named kernel stays itself.
        assert_eq!(fp8_scaled("test", Algo::Auto, p, Fp8Scaling::PerTensor, odd, SMS), Ok(Algo::Auto));
        assert_eq!(fp8_scaled("test", b_odd, p, Fp8Scaling::Blocks, square, SMS), Ok(b_odd));
        // A product of one row of tiles never runs in pairs (the second block would compute nothing).
        for s in [MatmulShape { m: 7, n: 32, k: 592 }, MatmulShape { m: 1, n: 732, k: 48 }, MatmulShape { m: 200, n: 8094, k: 1008 }] {
            assert!(tc_model::pick(s, p, SMS).is_none_or(|a| !paired(a)), "{p:?} {s:?}");
        }
    }
}

/// FP8 splits over K only for a predicted gain of at least `tc_model::FP8_SPLIT_MIN_GAIN`: where the
/// model found a few percent, the split `f32` launches ran 0.57–0.84 of the unsplit ones.
#[test]
fn fp8_splits_only_for_a_clear_gain() {
    use tessera_catalogue::select::tc_model::{best_splits, pick_timed, predict_us, FP8_SPLIT_MIN_GAIN};
    use tessera_catalogue::{MatmulShape, Precision};
    let shapes = [(4246, 289, 6112), (5633, 2943, 1696), (6968, 3495, 3520), (1003, 830, 3904), (457, 5911, 2032), (64, 4096, 16384)];
    let mut split = 0;
    for (m, n, k) in shapes {
        let shape = MatmulShape { m, n, k };
        let (algo, _) = pick_timed(shape, Precision::Fp8E4m3, 132).expect("an FP8 kernel");
        let (splits, us) = best_splits(algo, shape, 132);
        let one = predict_us(algo, shape, 1, 132).unwrap();
        if splits > 1 {
            split += 1;
            assert!(us * (1.0 + FP8_SPLIT_MIN_GAIN) <= one, "{m}×{n}×{k}: {splits} slices for {us:.1} µs against {one:.1}");
        }
    }
    assert!(split >= 2, "the deep products with few tiles still split");
}
