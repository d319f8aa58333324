//! `Auto`'s tuning on request, as data: the mode, the picks and the timer's calibration a `Gpu`
//! keeps (`crate::ops::auto_tuning` measures them). A leaf: it knows no GPU.
use std::collections::HashMap;

use tessera_catalogue::select::shortlist::Candidate;
use tessera_catalogue::{Choice, MatmulShape, Precision};

/// How `Algo::Auto` chooses what runs on a `Gpu` (`Gpu::set_auto_tuning`): FP32, TF32, BF16 and FP16
/// products (FP8's keep the model's pick).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutoTuning {
    /// The time model alone (the default): deterministic, nothing measured on the GPU.
    #[default]
    Model,
    /// The model's shortlist timed on the first product of each shape, the fastest kept for the next
    /// (the first call waits for its timings). Not deterministic across runs: two candidates within
    /// the timing noise may swap.
    Measured,
}

/// One shape's tuning in one precision: what `Auto` runs for it and what each candidate took.
#[derive(Debug, Clone, PartialEq)]
pub struct TunedPick {
    pub shape: MatmulShape,
    pub precision: Precision,
    /// The fastest candidate, run from now on.
    pub choice: Choice,
    /// Each candidate timed, in the shortlist's order (the model's choice first): the time the model
    /// expected and the GPU time measured, microseconds per product (infinite for a candidate whose
    /// workspace did not fit in memory). Empty where the shortlist had one candidate or the pick was
    /// set (`Gpu::set_tuned_pick`).
    pub timed: Vec<(Candidate, f64)>,
}

/// The tuning mode and the picks of one `Gpu`.
#[derive(Default)]
pub(crate) struct TuningState {
    pub mode: AutoTuning,
    pub picks: HashMap<(MatmulShape, Precision), TunedPick>,
    /// The tuning timer's calibration (GPU nanoseconds per dependent FMA of its hold,
    /// `QueuedTimer::ns_per_fma`), measured on the first tuning and kept for the next.
    pub timer_ns_per_fma: Option<f64>,
}
