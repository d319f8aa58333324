//! `Auto`'s picks where sessions 47 and 48's measurements moved them (`docs/results/2026-12-06-s47`, `-s48`): each
//! shape here is one whose new pick was measured faster than the old, and each test fails with the
//! model before its change.
use tessera_catalogue::registry::algo::Algo;
use tessera_catalogue::select::model_choice;
use tessera_catalogue::select::tc_model::{best_splits, narrow_register_rate};
use tessera_catalogue::{MatmulShape, Precision, Target};

fn s(m: u32, n: u32, k: u32) -> MatmulShape {
    MatmulShape { m, n, k }
}

/// Kernel 16's split launches ran 1.39× their price where the tiles alone fill the SMs (H200):
/// 2304³ BF16 took the 128×128 tile in two slices at 61.4 µs where the 128×192 tiles ran 46–47 (H100).
#[test]
fn kernel_16_is_not_split_where_its_tiles_fill_the_sms() {
    let sms = Target::H200.sms;
    for (algo, shape) in [(Algo::PersistentBf16Narrow, s(2304, 2304, 2304)), (Algo::PersistentBf16, s(15724, 2473, 1278))] {
        let (splits, _) = best_splits(algo, shape, sms);
        assert_eq!(splits, 1, "{}: {splits} slices", algo.label());
    }
    for precision in [Precision::Bf16, Precision::Fp16] {
        let pick = model_choice(s(2304, 2304, 2304), precision, Target::H200).kernel();
        assert!(![Algo::PersistentBf16Narrow, Algo::PersistentF16Narrow].contains(&pick), "2304³ {precision:?}: {}", pick.label());
    }
}

/// Kernel 20's 128×32 entries were priced 1.2× fast: on held-out shapes (H200 seeds 20271250/51)
/// `Auto` took them at 4.4–5.4 µs where kernel 20's 16×128 tile ran 3.6–4.4.
#[test]
fn kernel_20_s_128x32_tile_is_not_taken_where_the_16x128_tile_ran_faster() {
    for shape in [s(292, 596, 60), s(43, 432, 126), s(2, 64, 188)] {
        for (precision, slow) in [(Precision::Bf16, Algo::MmaSplitKBf16Cols32), (Precision::Fp16, Algo::MmaSplitKF16Cols32)] {
            let pick = model_choice(shape, precision, Target::H200).kernel();
            assert_ne!(pick, slow, "{}×{}×{} {precision:?}", shape.m, shape.n, shape.k);
        }
    }
}

/// Kernel 18's branch-free loop (H100): 4×4357×544 ran 8.2 µs on it against 10.9 on the TMA tile
/// `Auto` took (tuned on request, seed 20271252).
#[test]
fn auto_takes_kernel_18_on_four_rows_against_wide_weights() {
    for (precision, entry) in [(Precision::Bf16, Algo::FewRowsBf16), (Precision::Fp16, Algo::FewRowsF16)] {
        let pick = model_choice(s(4, 4357, 544), precision, Target::H200).kernel();
        assert_eq!(pick, entry, "{precision:?}: {}", pick.label());
    }
}

/// TF32's 128×128 tile (A fed from registers) on launches of several rounds ran 1.15–1.30× slower
/// than the 128×256 one, priced within 0.2 % of it (session 48, `docs/results/2026-12-06-s48`: H100
/// 4200³ 795 against 622 µs, 3072×6144×8192 1104 against 966, 3000³ 315 against 261; H200 seed
/// 20271206 9441×1400×3288 394 against 329). Launches of one round, where the 128×128 tile ran as
/// priced or faster, are priced as before.
#[test]
fn tf32_takes_the_256_wide_tile_over_several_rounds() {
    for shape in [s(4200, 4200, 4200), s(3072, 6144, 8192), s(3000, 3000, 3000), s(9441, 1400, 3288)] {
        let pick = model_choice(shape, Precision::Tf32, Target::H200).kernel();
        assert_ne!(pick, Algo::PersistentTf32Narrow, "{}×{}×{}: {}", shape.m, shape.n, shape.k, pick.label());
    }
    assert_eq!(narrow_register_rate(128, 128, true, 1.0), 1.0);
    assert_eq!(narrow_register_rate(128, 256, true, 4.0), 1.0);
    assert_eq!(narrow_register_rate(128, 128, false, 4.0), 1.0, "A through shared memory (BF16, FP16)");
    assert!(narrow_register_rate(128, 128, true, 2.0) < 0.9);
}
