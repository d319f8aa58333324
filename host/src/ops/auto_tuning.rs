//! `Auto` tuned on request ([`AutoTuning::Measured`]): on a shape's first product in a precision
//! (FP32, TF32, BF16, FP16) the models' shortlist ([`tessera_catalogue::select::shortlist`]) is timed
//! on the caller's operands and the fastest is kept on the [`Gpu`] for every later product of that
//! shape in that precision.
//!
//! The default, [`AutoTuning::Model`], measures nothing: `Auto` runs what the time model picks,
//! the same kernel for the same shape on every run. The model ranks kernels that are often 5–12 %
//! apart on launch-bound shapes with an error of about 4 %, so its pick is below 0.95 of the fastest
//! kernel on about one shape in twenty; timing its few best-ranked candidates settles those at the
//! cost of one synchronous first call per shape: 2–6 candidates, each run once and then twice over
//! ~200 µs of launches (at least two) queued behind a hold ([`crate::QueuedTimer`]) — on the H200 a
//! median of 6.7 ms over 99 random shapes, 0.12 s at 4096³, 0.9 s at 8192³
//! (`docs/results/2026-12-01-auto-tuned`). The picks live as long as the
//! `Gpu` ([`Gpu::tuned_picks`] lists them, [`Gpu::forget_tuned_picks`] drops them,
//! [`Gpu::set_tuned_pick`] sets one saved from an earlier run).
//!
//! The mode and the picks belong to the `Gpu` and are shared by every thread that uses it (a pick
//! describes the GPU and the shape, not the caller). The candidates are timed on a stream of their own,
//! forked from the caller's and joined back, so work other threads queue on the `Gpu`'s stream meanwhile
//! never lands inside a timed batch (it may still share the GPU with it).
//!
//! Tuning covers `Algo::Auto` through [`Gpu::matmul`] (and `matmul_tf32`) and [`Gpu::gemm`]: a
//! launch-sized product is timed on its first call; a pick (measured or set) is used by every path
//! that plans that shape in that precision (`tessera_catalogue::plan::Planner`), the blocks of larger
//! products and `MultiGpu`'s included. The tensor-core models err more than FP32's off the shapes
//! they were fitted on, so their shortlists are longer on the same rule (every TMA and in-place
//! kernel priced within 1.4× of the least). FP8 products and products that finish their sums in
//! their store (`Gpu::matmul_fused`, a 16-bit `C`) keep the model's pick.
use std::sync::{Arc, MutexGuard};

use cudarc::driver::CudaStream;
use tessera_catalogue::select::shortlist::{priced_in, shortlist, Candidate};
use tessera_catalogue::{Algo, Choice, LaunchPlan, MatmulShape, Planner, Precision};

use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::event::QueuedTimer;
use crate::tuning_state::{AutoTuning, TunedPick, TuningState};

/// Launches per timed batch: about this many microseconds of the candidate's expected time…
const BATCH_US: f64 = 200.0;
/// …and at least this many, at most…
const MIN_BATCH: usize = 2;
/// …this many (the padded path queues four launches per product; the whole batch waits in the
/// stream's queue behind the hold).
const MAX_BATCH: usize = 50;
/// Batches per candidate, interleaved (one of each candidate per round); the least counts.
const ROUNDS: usize = 2;

impl Gpu {
    /// How `Algo::Auto` chooses on this GPU from now on ([`AutoTuning::Model`] by default).
    /// Picks already measured are kept ([`Gpu::forget_tuned_picks`]).
    pub fn set_auto_tuning(&self, mode: AutoTuning) -> Result<()> {
        self.tuning()?.mode = mode;
        self.forget_plans();
        Ok(())
    }

    /// The current [`AutoTuning`] mode.
    pub fn auto_tuning(&self) -> Result<AutoTuning> {
        Ok(self.tuning()?.mode)
    }

    /// Every shape tuned on this GPU so far, by shape, then precision.
    pub fn tuned_picks(&self) -> Result<Vec<TunedPick>> {
        let mut picks: Vec<TunedPick> = self.tuning()?.picks.values().cloned().collect();
        picks.sort_by_key(|p| (p.shape.m, p.shape.n, p.shape.k, p.precision.label()));
        Ok(picks)
    }

    /// Sets the pick for `shape` in `precision` without timing (picks saved from an earlier run:
    /// store each [`TunedPick`]'s shape, precision and `choice.label()`, read them back with
    /// [`Choice::from_label`]); used under [`AutoTuning::Measured`].
    ///
    /// Errors: [`Error::TooLarge`] for a shape past one launch's limits, [`Error::InvalidArgument`]
    /// for a choice that does not compute `shape` in `precision` ([`Choice::runs`]) and for FP8 (its
    /// products are not tuned).
    pub fn set_tuned_pick(&self, shape: MatmulShape, precision: Precision, choice: Choice) -> Result<()> {
        let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
        MatmulShape::check((m, k), (k, n), (m, n))?;
        if precision.is_fp8() || !choice.runs(shape, precision) {
            let detail = format!("{} does not compute {m}×{n}×{k} in {} as a tuned pick", choice.label(), precision.label());
            return Err(Error::InvalidArgument { op: "set_tuned_pick", detail });
        }
        self.tuning()?.picks.insert((shape, precision), TunedPick { shape, precision, choice, timed: Vec::new() });
        self.forget_plans();
        Ok(())
    }

    /// Drops the measured picks: the next product of each shape is tuned again.
    pub fn forget_tuned_picks(&self) -> Result<()> {
        self.tuning()?.picks.clear();
        self.forget_plans();
        Ok(())
    }

    fn tuning(&self) -> Result<MutexGuard<'_, TuningState>> {
        self.auto_tuning.lock().map_err(|_| Error::ContextPoisoned("the auto-tuning lock was poisoned".into()))
    }

    /// The pick `Auto` uses for `shape` in `precision` under [`AutoTuning::Measured`] (measured or
    /// set); `None` in the model mode or for a shape not tuned yet.
    pub(crate) fn tuned_choice(&self, shape: MatmulShape, precision: Precision) -> Option<Choice> {
        let state = self.tuning().ok()?;
        (state.mode == AutoTuning::Measured).then(|| state.picks.get(&(shape, precision)).map(|p| p.choice)).flatten()
    }

    /// Under [`AutoTuning::Measured`], for `Auto` on a shape with no pick yet in the plan's precision
    /// (not FP8): times the models' shortlist on the operands at `a`, `b`, `c`, keeps the fastest, and
    /// returns its plan where it is not `planned` (the model's choice). `None` where nothing is to be
    /// tuned.
    ///
    /// # Safety
    /// As [`Gpu::run_launch`] for `planned` (`c` is overwritten by each candidate).
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn tune_if_asked(
        &self,
        stream: &Arc<CudaStream>,
        op: &'static str,
        requested: Algo,
        planned: &LaunchPlan,
        a: u64,
        b: u64,
        c: u64,
    ) -> Result<Option<LaunchPlan>> {
        let (shape, precision) = (planned.shape, planned.precision);
        if requested != Algo::Auto || precision.is_fp8() {
            return Ok(None);
        }
        let mut state = self.tuning()?;
        if state.mode == AutoTuning::Model || state.picks.contains_key(&(shape, precision)) {
            return Ok(None);
        }
        let model = planned.choice;
        let list = shortlist(model, priced_in(shape, precision, self.target()));
        if list.len() <= 1 {
            state.picks.insert((shape, precision), TunedPick { shape, precision, choice: model, timed: Vec::new() });
            self.forget_plans();
            return Ok(None);
        }
        let planner = Planner::new(op, Algo::Auto, precision, self.target());
        // The candidates run on a stream of their own, after everything queued on `stream` so far and
        // before anything queued on it later: work other threads queue on the shared stream meanwhile
        // cannot land inside a timed batch.
        let tuning = stream.fork().map_err(Error::driver("creating the tuning stream", 0))?;
        let plans = list.iter().map(|cand| planner.launch_of(shape, cand.choice)).collect::<std::result::Result<Vec<_>, _>>()?;
        // The timer's calibration is kept for the next tuning.
        let mut timer = match state.timer_ns_per_fma {
            Some(ns) => QueuedTimer::calibrated_on(self, &tuning, ns)?,
            None => QueuedTimer::new_on(self, &tuning)?,
        };
        state.timer_ns_per_fma = Some(timer.ns_per_fma());
        let mut best = vec![f64::INFINITY; list.len()];
        // A candidate whose workspace does not fit (the padded path's copies) drops out; the model's
        // own choice failing so is the error the model mode would have returned.
        let mut out_of_memory: Vec<Option<Error>> = list.iter().map(|_| None).collect();
        for _ in 0..ROUNDS {
            for (((cand, plan), least), oom) in list.iter().zip(&plans).zip(best.iter_mut()).zip(out_of_memory.iter_mut()) {
                if oom.is_some() {
                    continue;
                }
                let iters = ((BATCH_US / cand.expected_us.max(1.0)).ceil() as usize).clamp(MIN_BATCH, MAX_BATCH);
                // SAFETY: the caller's contract covers every candidate of the shortlist (each planned
                // for this shape on this GPU).
                match timer.time_ms(self, 1, iters, || unsafe { self.run_launch(&tuning, plan, a, b, c) }) {
                    Ok(t) => *least = least.min(t.ms * 1e3),
                    Err(e @ Error::OutOfMemory { .. }) => *oom = Some(e),
                    Err(e) => {
                        // Later work on the shared stream still waits for what the tuning queued.
                        let _ = stream.join(&tuning);
                        return Err(e);
                    }
                }
            }
        }
        stream.join(&tuning).map_err(Error::driver("joining the tuning stream", 0))?;
        if let Some(e) = out_of_memory[0].take() {
            return Err(e);
        }
        let fastest = best.iter().enumerate().min_by(|x, y| x.1.total_cmp(y.1)).map_or(0, |(i, _)| i);
        let (choice, plan) = (list[fastest].choice, plans[fastest]);
        let timed: Vec<(Candidate, f64)> = list.into_iter().zip(best).collect();
        state.picks.insert((shape, precision), TunedPick { shape, precision, choice, timed });
        self.forget_plans();
        Ok((choice != model).then_some(plan))
    }
}
