//! Choosing what runs one launch-sized product: the caller's kernel, or what `Auto`'s models pick.
//!
//! [`choose`] is the one place `Algo::Auto` becomes something that runs. Every path that multiplies —
//! `Gpu::matmul`, `Gpu::gemm`, the blocks of a product past one launch, each GPU's blocks in
//! `MultiGpu`, the emulator — reaches it through [`crate::plan::Planner`], so the same sub-problem gets
//! the same choice everywhere. The models live in [`crate::select::tuning`] (FP32), [`crate::select::fp32_padding`]
//! (FP32's unaligned path) and [`crate::select::tc_model`] (the tensor cores); a pick measured on request
//! (`tessera::AutoTuning::Measured`) comes in as `tuned`.
pub mod fp32_padding;
pub mod residuals;
pub mod shortlist;
pub mod tc_model;
pub mod tuning;

use crate::error::PlanError;
use crate::precision::Precision;
use crate::registry::algo::Algo;
use crate::select::fp32_padding::{choose_padding, padded_shape, runs_on_padded_copies, Fp32Padding};
use crate::select::tuning::least_expected_on;
use crate::shape::MatmulShape;
use crate::target::Target;

/// One way to run a launch-sized product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// A concrete kernel on the caller's operands.
    Kernel(Algo),
    /// FP32's unaligned path: padded copies and an FP32 kernel on them ([`crate::select::fp32_padding`]).
    Padded(Fp32Padding),
}

/// What [`Choice::label`] appends to the kernel's label on the unaligned path.
const PADDED_SUFFIX: &str = "+padded";

impl Choice {
    /// The kernel that is launched (on the padded shape for [`Choice::Padded`]).
    pub fn kernel(&self) -> Algo {
        match self {
            Choice::Kernel(algo) => *algo,
            Choice::Padded(p) => p.algo,
        }
    }

    /// The kernel's label, `+padded` after it on the unaligned path (`dbuf-64x64x16+padded`).
    pub fn label(&self) -> String {
        match self {
            Choice::Kernel(algo) => algo.label().to_string(),
            Choice::Padded(p) => format!("{}{PADDED_SUFFIX}", p.algo.label()),
        }
    }

    /// The choice `label` ([`Choice::label`]'s form) names for `shape` in `precision`, if it can run
    /// it ([`Choice::runs`]): how a saved tuned pick is read back. `None` for an unknown label, a
    /// kernel of another precision, or the padded path where N and K need no padding.
    pub fn from_label(label: &str, shape: MatmulShape, precision: Precision) -> Option<Choice> {
        let choice = match label.strip_suffix(PADDED_SUFFIX) {
            Some(kernel) => Choice::Padded(Fp32Padding { shape, padded: padded_shape(shape)?, algo: Algo::from_label(kernel)? }),
            None => Choice::Kernel(Algo::from_label(label)?),
        };
        choice.runs(shape, precision).then_some(choice)
    }

    /// Whether this choice computes `shape` in `precision`: a concrete kernel of that precision (for
    /// TF32 also an FP32 kernel: exact `f32` products, never less precise — [`model_choice`]'s pick
    /// for the smallest products), or (FP32) a padding plan of `shape` whose kernel reads the padded
    /// copies.
    pub fn runs(&self, shape: MatmulShape, precision: Precision) -> bool {
        match self {
            Choice::Kernel(algo) => {
                algo.precision() == Some(precision) || (precision == Precision::Tf32 && algo.precision() == Some(Precision::Fp32))
            }
            Choice::Padded(p) => {
                precision == Precision::Fp32 && p.shape == shape && Some(p.padded) == padded_shape(shape) && runs_on_padded_copies(p.algo)
            }
        }
    }
}

/// How a product's sums leave the kernel: as they are (`f32`), rounded into a 16-bit `C` by the
/// store, or through a fused epilogue (bias, activation; any `C`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finishing {
    No,
    Store,
    Fused,
}

/// What runs `shape` in `precision` on `target` when the caller asked for `requested`: that kernel
/// (it must compute in `precision`), or for `Auto` the `tuned` pick where there is one that runs the
/// shape, else [`model_choice`] — or, where the product is `finishing` (a fused epilogue or a
/// 16-bit `C`), the kernel that finishes its sums in its store of least predicted time
/// ([`finishing_pick`], told whether the epilogue is fused).
///
/// Errors: [`PlanError::PrecisionMismatch`] for a kernel of another precision (`op` names the
/// caller); [`PlanError::Invalid`] for `Auto` on a finishing product where no kernel of the target
/// finishes its sums in `precision` (BF16, FP16, TF32 off sm_90a).
pub fn choose(
    op: &'static str,
    requested: Algo,
    shape: MatmulShape,
    precision: Precision,
    target: Target,
    tuned: Option<Choice>,
    finishing: Finishing,
) -> Result<Choice, PlanError> {
    let Some(kernel) = requested.kernel() else {
        if finishing != Finishing::No && !precision.is_fp8() {
            // Kernel 27 (BF16, FP16, TF32) needs sm_90a; kernel 29 (FP32) runs anywhere.
            let pick = if target.sm90a || precision == Precision::Fp32 {
                finishing_pick(shape, precision, target.sms, finishing == Finishing::Fused)
            } else {
                None
            };
            return pick.map(|(algo, _)| Choice::Kernel(algo)).ok_or_else(|| PlanError::Invalid {
                op,
                detail: format!(
                    "no {} kernel of this GPU finishes its sums in its store (a fused epilogue, a 16-bit C): \
                     kernel 27 runs BF16, FP16 and TF32 on sm_90a, kernel 29 FP32",
                    precision.label()
                ),
            });
        }
        return Ok(tuned.filter(|t| t.runs(shape, precision)).unwrap_or_else(|| model_choice(shape, precision, target)));
    };
    if kernel.precision != precision {
        return Err(PlanError::PrecisionMismatch { op, kernel: kernel.entry, kernel_precision: kernel.precision, requested: precision });
    }
    Ok(Choice::Kernel(requested))
}

/// The kernel of `precision` that finishes its sums in its store (`TileConfig::fused_epilogue`:
/// kernels 27 and 29, kernel 25's promoted entries, and for a `fused` epilogue kernel 31's ping-pong
/// entries that [`tc_model::ping_pong_in_auto`] admits) of least predicted time on `shape`, unsplit, and that time — in FP32's model
/// ([`tuning::predict_us`]) for kernel 29, the tensor cores' ([`tc_model::predict_us`]) for the
/// others, a `fused` epilogue (bias, activation) priced on kernels 27 and 31 with its measured share
/// ([`tc_model::FUSED_SERIAL`], [`tc_model::FUSED_OVERLAPPED`]): what runs a product with a fused
/// epilogue or a 16-bit `C`. `None` where no such kernel computes in `precision`.
pub fn finishing_pick(shape: MatmulShape, precision: Precision, sms: u32, fused: bool) -> Option<(Algo, f64)> {
    let predicted = |k: &crate::registry::algo::MatmulKernel| match precision {
        Precision::Fp32 => tuning::predict_us(k.algo, shape, 1, sms),
        _ => tc_model::predict_us(k.algo, shape, 1, sms).map(|us| us * tc_model::finishing_share(k.config, fused, shape, sms)),
    };
    crate::registry::algo::MATMUL_KERNELS
        .iter()
        .filter(|k| {
            k.precision == precision && k.config.fused_epilogue && (!k.config.ping_pong || fused && tc_model::ping_pong_in_auto(k.config))
        })
        .filter_map(|k| Some((k.algo, predicted(k)?)))
        .min_by(|x, y| x.1.total_cmp(&y.1))
}

/// How an FP8 product's scales are given: one per tensor (or none), or per block (1 × 128 of A,
/// 128 × 128 of `Bᵀ`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fp8Scaling {
    PerTensor,
    Blocks,
}

/// The kernel an FP8 product of `shape` with `scaling` asks the planner for on a GPU of `sms` SMs,
/// given `requested`: `Auto` stays `Auto` for per-tensor scales (the models choose) and becomes a
/// block-scaled kernel of the format for block scales — in pairs (clusters of two) where the
/// per-tensor model takes the pairs ([`tc_model::pick`]: the block-scaled pairs ran at the same
/// ratio to the block-scaled tiles as the per-tensor pairs to theirs, on the 28 shapes of
/// `docs/results/2026-12-05-pingpong-pairs`); a named kernel must take the scales it is given.
///
/// Errors: [`PlanError::Invalid`] for a kernel that takes the other kind of scales (`op` names the
/// caller); a kernel of another precision is left to the planner ([`PlanError::PrecisionMismatch`]).
pub fn fp8_scaled(
    op: &'static str,
    requested: Algo,
    precision: Precision,
    scaling: Fp8Scaling,
    shape: MatmulShape,
    sms: u32,
) -> Result<Algo, PlanError> {
    let blocks = scaling == Fp8Scaling::Blocks;
    match requested.kernel() {
        None if blocks => {
            let paired = tc_model::pick(shape, precision, sms).and_then(Algo::kernel).is_some_and(|k| k.config.cluster > 1);
            Ok(match (precision == Precision::Fp8E5m2, paired) {
                (true, true) => Algo::Fp8E5m2BlocksPairs,
                (true, false) => Algo::Fp8E5m2Blocks,
                (false, true) => Algo::Fp8E4m3BlocksPairs,
                (false, false) => Algo::Fp8E4m3Blocks,
            })
        }
        None => Ok(Algo::Auto),
        Some(k) if k.precision.is_fp8() && k.config.fp8_block_scales != blocks => {
            let (takes, given) = if blocks { ("per-tensor", "block") } else { ("block", "per-tensor") };
            Err(PlanError::Invalid { op, detail: format!("{} takes {takes} scales, {given} scales were given", k.label) })
        }
        Some(_) => Ok(requested),
    }
}

/// `Auto`'s choice from the models alone (deterministic: the same shape, precision and target always
/// give the same choice).
///
/// - FP32: the padded path where [`choose_padding`] takes it, else the FP32 kernel of least expected
///   time ([`least_expected_on`]: the time model × its measured residuals). Never a TF32 kernel.
/// - TF32, BF16, FP16: the kernel of least predicted time among the TMA kernels (15, 16, 22 and 23,
///   sm_90a only: [`crate::select::tc_model::pick_timed`]) and the kernels that read their operands in
///   place ([`in_place_pick`]: 11–13, 18–21, and 14's 16-bit entries on sm_90a). The in-place kernels
///   take the small products, where a TMA kernel's fixed costs are most of its time
///   (docs/results/2026-12-02-tc-small).
/// - FP8 (E4M3, E5M2; sm_90a only): the promoted kernel-25 entry of least predicted time — never an
///   unpromoted one (`TileConfig::unpromoted`: less accurate, the caller's explicit choice alone) —
///   for per-tensor scales; block scales go through [`fp8_scaled`] first.
/// - TF32 only: FP32's pick in place too ([`least_expected_on`]) where its expected time is lower —
///   products of a few microseconds, where TF32's preparation of `Bᵀ` (one more launch) and the
///   tensor cores' fixed costs outweigh the work. Its products are exact `f32`: more precise than
///   TF32's, never less; BF16 and FP16 keep their kernels (their inputs are the caller's 16-bit data).
pub fn model_choice(shape: MatmulShape, precision: Precision, target: Target) -> Choice {
    if precision == Precision::Fp32 {
        return match choose_padding(shape, target.sms) {
            Some(p) => Choice::Padded(p),
            None => Choice::Kernel(least_expected_on(shape, target.sms).0),
        };
    }
    let tma = if target.sm90a { crate::select::tc_model::pick_timed(shape, precision, target.sms) } else { None };
    if precision.is_fp8() {
        // Kernel 25's promoted entries alone (`pick_timed` leaves out the unpromoted ones); the
        // planner refuses FP8 off sm_90a before choosing.
        let promoted = if precision == Precision::Fp8E5m2 { Algo::Fp8E5m2 } else { Algo::Fp8E4m3 };
        return Choice::Kernel(tma.map_or(promoted, |(algo, _)| algo));
    }
    let in_place = in_place_pick(shape, precision, target);
    let exact = (precision == Precision::Tf32).then(|| least_expected_on(shape, target.sms));
    // Ties go to the TMA kernel (the first), then to the tensor cores.
    let best = [tma, in_place, exact].into_iter().flatten().min_by(|x, y| x.1.total_cmp(&y.1));
    let portable = match precision {
        Precision::Fp16 => Algo::MmaPipeF16x128,
        Precision::Tf32 => Algo::MmaPipeTf32,
        _ => Algo::MmaPipeBf16x128,
    };
    Choice::Kernel(best.map_or(portable, |(algo, _)| algo))
}

/// The time (µs) the models expect of the kernel `algo` on `shape` on `target`, at the K slices it
/// would launch there: the TMA kernels' [`crate::select::tc_model::best_splits`], the others'
/// [`crate::select::tuning::predict_us`] at [`crate::select::tuning::splits_on`] — the figures
/// [`model_choice`] compares (FP32 `Auto` adds each kernel's neighbourhood factor). `None` for a kernel
/// without a model on `shape`. A run that records it beside the measured time tells how far the
/// model was off without replaying the model of that commit.
pub fn expected_us(algo: Algo, shape: MatmulShape, target: Target) -> Option<f64> {
    let kernel = algo.kernel()?;
    if kernel.config.tma || kernel.config.producer_copies {
        let us = crate::select::tc_model::best_splits(algo, shape, target.sms).1;
        return us.is_finite().then_some(us);
    }
    let splits = crate::select::tuning::splits_on(algo, shape, target.sms);
    if kernel.precision == Precision::Fp32 {
        crate::select::tuning::expected_us(algo, shape, splits, target.sms)
    } else {
        crate::select::tuning::predict_us(algo, shape, splits, target.sms)
    }
}

/// The kernel of `precision` that reads its operands in place (a kernel with constants in
/// [`crate::select::tuning::cost`] that `Auto` weighs for `shape`: [`crate::select::tuning::is_candidate`];
/// the sm_90a ones only on such a target) of least predicted time on
/// `shape` at the K slices it would launch ([`crate::select::tuning::splits_on`]: kernel 20's), and
/// that time (µs); `None` for FP32.
pub fn in_place_pick(shape: MatmulShape, precision: Precision, target: Target) -> Option<(Algo, f64)> {
    if precision == Precision::Fp32 {
        return None;
    }
    crate::registry::algo::MATMUL_KERNELS
        .iter()
        .filter(|k| k.precision == precision && !k.config.tma && (target.sm90a || !k.config.sm90a))
        .filter(|k| crate::select::tuning::is_candidate(k.algo, shape))
        .filter_map(|k| {
            let splits = crate::select::tuning::splits_on(k.algo, shape, target.sms);
            Some((k.algo, crate::select::tuning::predict_us(k.algo, shape, splits, target.sms)?))
        })
        .min_by(|x, y| x.1.total_cmp(&y.1))
}
