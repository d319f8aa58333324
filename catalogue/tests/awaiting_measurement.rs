//! Kernels priced but not yet fitted on an H200 (`select::AWAITING_MEASUREMENT`) stay out of `Auto`'s
//! pick from the models alone, on shapes where their price is the least of all.
use tessera_catalogue::select::{model_choice, tuning, AWAITING_MEASUREMENT};
use tessera_catalogue::{MatmulShape, Precision, Target};

#[test]
fn auto_leaves_out_the_kernels_awaiting_measurement_where_they_are_priced_first() {
    // One-slice products a few columns wide: kernel 19's K-split entries are priced below every other kernel.
    for (m, n, k) in [(41, 1, 159), (166, 2, 123), (614, 1, 803)] {
        let shape = MatmulShape { m, n, k };
        for algo in AWAITING_MEASUREMENT {
            let precision = algo.precision().expect("a kernel has a precision");
            assert!(matches!(precision, Precision::Bf16 | Precision::Fp16));
            let splits = tuning::splits_on(algo, shape, tuning::SMS);
            let priced = tuning::predict_us(algo, shape, splits, tuning::SMS).expect("priced");
            let pick = model_choice(shape, precision, Target::H200).kernel();
            assert_ne!(pick, algo, "{m}×{n}×{k}: Auto took {} before a GPU run measured it", algo.label());
            let pick_us =
                tessera_catalogue::select::tc_model::predict_us(pick, shape, tuning::splits_on(pick, shape, tuning::SMS), tuning::SMS)
                    .or_else(|| tuning::predict_us(pick, shape, tuning::splits_on(pick, shape, tuning::SMS), tuning::SMS))
                    .expect("the pick is priced");
            assert!(
                priced < pick_us,
                "{m}×{n}×{k}: {} priced {priced:.2} µs, Auto's {} {pick_us:.2}: not a shape that shows the gate",
                algo.label(),
                pick.label()
            );
        }
    }
}
