//! `select::expected_us`, the time a run records beside each measured Rust row, is the time
//! `model_choice` compared for the kernel it picked: a measured ÷ expected ratio read from a run is the
//! model's error at that run's commit.
use tessera_catalogue::select::{expected_us, in_place_pick, model_choice, tc_model, tuning};
use tessera_catalogue::{MatmulShape, Precision, Target};

fn s(m: u32, n: u32, k: u32) -> MatmulShape {
    MatmulShape { m, n, k }
}

const SHAPES: [(u32, u32, u32); 8] = [
    (4096, 4096, 4096),
    (3000, 3000, 3000),
    (4416, 24, 496),
    (16, 4096, 4096),
    (200, 2750, 188),
    (127, 8191, 129),
    (1000, 1037, 519),
    (8, 8, 8),
];

#[test]
fn the_pick_is_the_kernel_of_least_expected_time_and_its_time_is_what_was_compared() {
    let target = Target::H200;
    for (m, n, k) in SHAPES {
        let shape = s(m, n, k);
        for precision in [Precision::Bf16, Precision::Fp16, Precision::Tf32] {
            let pick = model_choice(shape, precision, target).kernel();
            let expected = expected_us(pick, shape, target).unwrap_or_else(|| panic!("{shape:?} {precision:?}: {pick:?} has no time"));
            let compared = [tc_model::pick_timed(shape, precision, target.sms), in_place_pick(shape, precision, target)]
                .into_iter()
                .flatten()
                .chain((precision == Precision::Tf32).then(|| tuning::least_expected_on(shape, target.sms)))
                .map(|(_, us)| us)
                .fold(f64::INFINITY, f64::min);
            assert!(
                (expected - compared).abs() <= 1e-9 * compared,
                "{shape:?} {precision:?}: {pick:?} expected {expected} µs, Auto compared {compared}"
            );
        }
    }
}

#[test]
fn fp32_picks_in_place_carry_their_neighbourhood_factor() {
    let target = Target::H200;
    for (m, n, k) in SHAPES.iter().copied().filter(|&(_, n, k)| n % 4 == 0 && k % 4 == 0) {
        let shape = s(m, n, k);
        let (algo, us) = tuning::least_expected_on(shape, target.sms);
        let expected = expected_us(algo, shape, target).unwrap();
        assert!((expected - us).abs() <= 1e-9 * us, "{shape:?}: {algo:?} expected {expected} µs, least_expected_on {us}");
    }
}

#[test]
fn a_kernel_of_no_model_has_no_expected_time() {
    assert_eq!(expected_us(tessera_catalogue::Algo::Auto, s(64, 64, 64), Target::H200), None);
}
