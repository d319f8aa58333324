//! `Auto` tuned on request: the few candidates the host times on the first call for a shape in a
//! precision (`tessera::Gpu::set_auto_tuning`), chosen by the time models.
//!
//! The model with its measured residuals ranks FP32 kernels that are often 5–12 % apart on
//! launch-bound shapes with an error of about 4 %, so `Auto`'s pick is below 0.95 of the fastest kernel
//! on about one shape in twenty (`docs/tuning.md`); the tensor cores' models err more off the shapes
//! they were fitted on (issue 34: `Auto` below 0.95 of the best tessera kernel on some random shapes).
//! Timing the kernels a model ranks near the top settles those: the shortlist is the model's own
//! choice ([`model_choice`]) and the candidates whose expected time is within [`WITHIN`] of the least,
//! at most [`MOST`] in all. On FP32's calibration table, each shape ranked with its own rows left out,
//! the fastest of the shortlist is within 0.95 of the fastest measured kernel on every shape
//! (`tests/auto_model.rs`). Unlike the pick, the shortlist weighs kernels past the rows and columns up
//! to which the model alone may rely on them ([`crate::select::tuning::is_candidate`]: kernels 18 and
//! 19, the in-place tensor-core kernels): timed, a wrong estimate costs nothing.
use crate::precision::Precision;
use crate::registry::algo::MATMUL_KERNELS;
use crate::select::fp32_padding::{copies_us, padded_shape, runs_on_padded_copies, Fp32Padding};
use crate::select::tuning::{expected_at_best_splits, least_expected_on, residuals};
use crate::select::{model_choice, tc_model, tuning, Choice};
use crate::shape::MatmulShape;
use crate::target::Target;

/// Candidates expected to take up to this many times the least expected time are timed.
pub const WITHIN: f64 = 1.4;

/// The most candidates timed for one shape, the model's choice included.
pub const MOST: usize = 6;

/// A candidate of the shortlist and the time the model expects of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    pub choice: Choice,
    /// Microseconds: [`crate::select::tuning::expected_us`] (the padded path: its kernel's on the padded shape
    /// plus [`copies_us`]).
    pub expected_us: f64,
}

/// Every FP32 way to run `shape` the model prices, on `sms` SMs: each FP32 kernel with constants at
/// its best slice count (whatever its row and column bounds), and the padded path where N or K is
/// unaligned (its best kernel on the padded shape).
pub fn priced_on(shape: MatmulShape, sms: u32) -> Vec<Candidate> {
    let near = residuals().near(shape, false);
    let mut out: Vec<Candidate> = MATMUL_KERNELS
        .iter()
        // Kernel 29 finishes its sums: a finishing product's alone (`select::finishing_pick`).
        .filter(|k| k.precision == Precision::Fp32 && !k.config.fused_epilogue)
        .filter_map(|k| {
            let us = expected_at_best_splits(k.algo, shape, sms, &near)?;
            Some(Candidate { choice: Choice::Kernel(k.algo), expected_us: us })
        })
        .collect();
    if let Some(padded) = padded_shape(shape) {
        let (algo, us) = least_expected_on(padded, sms);
        if runs_on_padded_copies(algo) {
            let choice = Choice::Padded(Fp32Padding { shape, padded, algo });
            out.push(Candidate { choice, expected_us: us + copies_us(shape, padded) });
        }
    }
    out
}

/// Every way to run `shape` in `precision` on `target` that a model prices: FP32's
/// ([`priced_on`]); for TF32, BF16 and FP16 every TMA kernel `Auto` weighs (sm_90a; priced at its
/// split count, [`tc_model::best_splits`]), every kernel of the precision that reads its operands in
/// place (at the K slices it would launch, [`tuning::splits_on`]) and, for TF32, FP32's least
/// expected kernel (exact products: [`model_choice`]'s candidate too). Empty for FP8 (its products
/// keep the model's pick) and for kernels that finish their sums in their store (a fused product's
/// own choice).
pub fn priced_in(shape: MatmulShape, precision: Precision, target: Target) -> Vec<Candidate> {
    let kernel = |algo, us| Candidate { choice: Choice::Kernel(algo), expected_us: us };
    match precision {
        Precision::Fp32 => priced_on(shape, target.sms),
        p if p.is_fp8() => Vec::new(),
        p => {
            let mut out: Vec<Candidate> = MATMUL_KERNELS
                .iter()
                .filter(|k| k.precision == p && !k.config.fused_epilogue && (target.sm90a || !k.config.sm90a))
                .filter_map(|k| {
                    let us = if k.config.tma || k.config.producer_copies {
                        tc_model::best_splits(k.algo, shape, target.sms).1
                    } else {
                        tuning::predict_us(k.algo, shape, tuning::splits_on(k.algo, shape, target.sms), target.sms)?
                    };
                    us.is_finite().then(|| kernel(k.algo, us))
                })
                .collect();
            if p == Precision::Tf32 {
                let (algo, us) = least_expected_on(shape, target.sms);
                out.push(kernel(algo, us));
            }
            out
        }
    }
}

/// The candidates timed for `shape` in FP32 on `sms` SMs: [`shortlist_in`]'s.
pub fn shortlist_on(shape: MatmulShape, sms: u32) -> Vec<Candidate> {
    shortlist_in(shape, Precision::Fp32, Target::new(sms, true))
}

/// The candidates timed for `shape` in `precision` on `target`: [`shortlist`] of [`priced_in`], the
/// model's choice first (alone for FP8).
pub fn shortlist_in(shape: MatmulShape, precision: Precision, target: Target) -> Vec<Candidate> {
    shortlist(model_choice(shape, precision, target), priced_in(shape, precision, target))
}

/// The rule: `first` (the model's choice), then the other `priced` candidates within [`WITHIN`] of
/// the least expected time, fastest first, [`MOST`] in all. `first` leads even when it is not among
/// `priced` (then with the least expected time).
pub fn shortlist(first: Choice, mut priced: Vec<Candidate>) -> Vec<Candidate> {
    priced.sort_by(|a, b| a.expected_us.total_cmp(&b.expected_us));
    let least = priced.first().map_or(f64::INFINITY, |c| c.expected_us);
    let lead = priced.iter().find(|c| c.choice == first).copied().unwrap_or(Candidate { choice: first, expected_us: least });
    let rest = priced.into_iter().filter(|c| c.choice != first && c.expected_us <= least * WITHIN);
    std::iter::once(lead).chain(rest).take(MOST).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::algo::Algo;
    use crate::select::tuning::SMS;

    fn s(m: u32, n: u32, k: u32) -> MatmulShape {
        MatmulShape { m, n, k }
    }

    fn c(algo: Algo, us: f64) -> Candidate {
        Candidate { choice: Choice::Kernel(algo), expected_us: us }
    }

    #[test]
    fn the_rule_keeps_the_first_and_the_near_ones() {
        let priced = vec![c(Algo::Tiled, 12.0), c(Algo::Naive, 10.0), c(Algo::Warptile, 14.1), c(Algo::Vectorized, 13.9)];
        let list = shortlist(Choice::Kernel(Algo::Tiled), priced.clone());
        let labels: Vec<String> = list.iter().map(|c| c.choice.label()).collect();
        // Tiled first (the model's choice), then within 1.4 × 10 µs, fastest first; 14.1 is out.
        assert_eq!(labels, ["tiled", "naive", "vectorized"]);
        // A first choice not priced leads with the least time.
        let list = shortlist(Choice::Kernel(Algo::Dbuf64x64x16), priced);
        assert_eq!(list[0], c(Algo::Dbuf64x64x16, 10.0));
        assert_eq!(list.len(), 4);
        // At most MOST.
        let many: Vec<Candidate> = MATMUL_KERNELS.iter().map(|k| c(k.algo, 1.0)).collect();
        assert_eq!(shortlist(Choice::Kernel(Algo::Naive), many).len(), MOST);
        assert_eq!(shortlist(Choice::Kernel(Algo::Naive), Vec::new()).len(), 1);
    }

    #[test]
    fn a_choice_reads_back_from_its_label_for_a_shape_it_runs() {
        let (aligned, unaligned) = (s(64, 64, 64), s(1000, 1037, 519));
        for shape in [aligned, unaligned] {
            for cand in priced_on(shape, SMS) {
                assert_eq!(Choice::from_label(&cand.choice.label(), shape, Precision::Fp32), Some(cand.choice), "{shape:?}");
            }
        }
        assert!(priced_on(unaligned, SMS).iter().any(|c| matches!(c.choice, Choice::Padded(_))));
        // The padded path only where it pads; FP32 kernels only; known labels only.
        assert_eq!(Choice::from_label("dbuf-64x64x16+padded", aligned, Precision::Fp32), None);
        assert_eq!(Choice::from_label("mma-naive-bf16", aligned, Precision::Fp32), None);
        assert_eq!(Choice::from_label(Algo::Auto.label(), aligned, Precision::Fp32), None, "Auto is not a kernel");
        assert_eq!(Choice::from_label("tma-tf32-128x256+padded", unaligned, Precision::Fp32), None);
        assert_eq!(Choice::from_label("auto-fp32", aligned, Precision::Fp32), None);
        assert_eq!(Choice::from_label("", aligned, Precision::Fp32), None);
        // A plan of another shape does not run this one.
        let Some(Choice::Padded(plan)) = Choice::from_label("tiled+padded", unaligned, Precision::Fp32) else { panic!("tiled+padded") };
        assert!(!Choice::Padded(plan).runs(s(1000, 1037, 518), Precision::Fp32));
    }

    #[test]
    fn tensor_core_shortlists_lead_with_auto_and_hold_kernels_of_the_precision() {
        let shapes = [s(4096, 4096, 4096), s(16, 4096, 4096), s(3000, 3000, 3000), s(127, 8191, 129), s(512, 512, 512), s(7, 9, 11)];
        for target in [Target::H200, Target::new(SMS, false)] {
            for precision in [Precision::Bf16, Precision::Fp16, Precision::Tf32] {
                for shape in shapes {
                    let list = shortlist_in(shape, precision, target);
                    assert_eq!(list[0].choice, model_choice(shape, precision, target), "{precision:?} {shape:?}");
                    assert!(list.len() <= MOST);
                    let least = list.iter().map(|c| c.expected_us).fold(f64::INFINITY, f64::min);
                    for cand in &list {
                        assert!(cand.choice.runs(shape, precision), "{precision:?} {shape:?}: {cand:?}");
                        let k = cand.choice.kernel().kernel().unwrap();
                        assert!(!k.config.fused_epilogue && (target.sm90a || !k.config.sm90a), "{}", k.label);
                        assert_eq!(Choice::from_label(&cand.choice.label(), shape, precision), Some(cand.choice));
                    }
                    for cand in &list[1..] {
                        assert!(cand.expected_us <= least * WITHIN && cand.choice != list[0].choice, "{shape:?}: {cand:?}");
                    }
                }
            }
        }
        // Large aligned squares: more than the pick is timed (the TMA tiles are priced within 1.4×).
        assert!(shortlist_in(s(4096, 4096, 4096), Precision::Bf16, Target::H200).len() > 1);
        // FP8 keeps the model's pick: nothing else is priced.
        assert!(priced_in(s(4096, 4096, 4096), Precision::Fp8E4m3, Target::H200).is_empty());
        assert_eq!(shortlist_in(s(4096, 4096, 4096), Precision::Fp8E4m3, Target::H200).len(), 1);
    }

    #[test]
    fn the_shortlist_leads_with_auto_and_holds_fp32_kernels_only() {
        for shape in [s(4096, 4096, 4096), s(1, 44, 240), s(1000, 1037, 519), s(73, 74, 2552), s(8908, 3022, 1639), s(1, 1, 1)] {
            let list = shortlist_on(shape, SMS);
            assert_eq!(list[0].choice, model_choice(shape, Precision::Fp32, Target::H200), "{shape:?}");
            assert!(!list.is_empty() && list.len() <= MOST);
            let least = list.iter().map(|c| c.expected_us).fold(f64::INFINITY, f64::min);
            for cand in &list[1..] {
                assert!(cand.expected_us <= least * WITHIN, "{shape:?}: {cand:?}");
                assert!(cand.choice != list[0].choice);
            }
            for cand in &list {
                match cand.choice {
                    Choice::Kernel(a) => assert_eq!(a.precision(), Some(Precision::Fp32)),
                    Choice::Padded(p) => {
                        assert_eq!(Some(p.padded), padded_shape(shape));
                        assert!(runs_on_padded_copies(p.algo));
                    }
                }
            }
        }
        // Kernel 19 past its 32 columns: weighed here, not by the pick (1×44×240: measured fastest).
        let list = shortlist_on(s(1, 44, 240), SMS);
        assert!(list.iter().any(|c| c.choice == Choice::Kernel(Algo::FewCols4)), "{list:?}");
    }
}
