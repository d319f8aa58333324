//! FP32 `Auto` tuned on request ([`AutoTuning::Measured`]): on a shape's first product the model's
//! shortlist ([`tessera_catalogue::shortlist`]) is timed on the caller's operands and the fastest is
//! kept on the [`Gpu`] for every later product of that shape.
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
//! Tuning covers [`Gpu::matmul`] on `f32` with `Algo::Auto` in one launch's limits; [`Gpu::gemm`],
//! products cut into blocks and the tensor-core precisions keep the model's pick.
use std::collections::HashMap;
use std::sync::{Arc, MutexGuard};

use cudarc::driver::CudaStream;
use tessera_catalogue::shortlist::{model_choice_on, priced_on, shortlist, Candidate, Fp32Choice};
use tessera_catalogue::MatmulShape;

use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::event::QueuedTimer;

/// How FP32 `Algo::Auto` chooses what runs on a [`Gpu`] ([`Gpu::set_auto_tuning`]).
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

/// One shape's tuning: what `Auto` runs for it and what each candidate took.
#[derive(Debug, Clone, PartialEq)]
pub struct TunedPick {
    pub shape: MatmulShape,
    /// The fastest candidate, run from now on.
    pub choice: Fp32Choice,
    /// Each candidate timed, in the shortlist's order (the model's choice first): the time the model
    /// expected and the GPU time measured, microseconds per product (infinite for a candidate whose
    /// workspace did not fit in memory). Empty where the shortlist had one candidate or the pick was
    /// set ([`Gpu::set_tuned_pick`]).
    pub timed: Vec<(Candidate, f64)>,
}

/// The tuning mode and the picks of one [`Gpu`].
#[derive(Default)]
pub(crate) struct TuningState {
    mode: AutoTuning,
    picks: HashMap<MatmulShape, TunedPick>,
    /// Created on the first tuning (it measures its hold once).
    timer: Option<QueuedTimer>,
}

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
    /// How FP32 `Algo::Auto` chooses on this GPU from now on ([`AutoTuning::Model`] by default).
    /// Picks already measured are kept ([`Gpu::forget_tuned_picks`]).
    pub fn set_auto_tuning(&self, mode: AutoTuning) -> Result<()> {
        self.tuning()?.mode = mode;
        Ok(())
    }

    /// The current [`AutoTuning`] mode.
    pub fn auto_tuning(&self) -> Result<AutoTuning> {
        Ok(self.tuning()?.mode)
    }

    /// Every shape tuned on this GPU so far, by shape.
    pub fn tuned_picks(&self) -> Result<Vec<TunedPick>> {
        let mut picks: Vec<TunedPick> = self.tuning()?.picks.values().cloned().collect();
        picks.sort_by_key(|p| (p.shape.m, p.shape.n, p.shape.k));
        Ok(picks)
    }

    /// Sets the pick for `shape` without timing (picks saved from an earlier run: store each
    /// [`TunedPick`]'s shape and `choice.label()`, read them back with
    /// [`Fp32Choice::from_label`]); used under [`AutoTuning::Measured`].
    ///
    /// Errors: [`Error::TooLarge`] for a shape past one launch's limits, [`Error::InvalidArgument`]
    /// for a choice that does not compute `shape` in FP32 ([`Fp32Choice::runs`]).
    pub fn set_tuned_pick(&self, shape: MatmulShape, choice: Fp32Choice) -> Result<()> {
        let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
        MatmulShape::check((m, k), (k, n), (m, n))?;
        if !choice.runs(shape) {
            let detail = format!("{} does not compute {m}×{n}×{k} in FP32", choice.label());
            return Err(Error::InvalidArgument { op: "set_tuned_pick", detail });
        }
        self.tuning()?.picks.insert(shape, TunedPick { shape, choice, timed: Vec::new() });
        Ok(())
    }

    /// Drops the measured picks: the next product of each shape is tuned again.
    pub fn forget_tuned_picks(&self) -> Result<()> {
        self.tuning()?.picks.clear();
        Ok(())
    }

    fn tuning(&self) -> Result<MutexGuard<'_, TuningState>> {
        self.auto_tuning.lock().map_err(|_| Error::ContextPoisoned("the auto-tuning lock was poisoned".into()))
    }

    /// What FP32 `Auto` runs for `shape`: the model's choice, or under [`AutoTuning::Measured`] the
    /// shape's measured pick — timed now, on the operands at `a`, `b`, `c`, if it has none.
    ///
    /// # Safety
    /// As [`Gpu::run_fp32_choice`] for every candidate of the shape (`c` is overwritten by each).
    pub(crate) unsafe fn auto_fp32_choice(
        &self,
        stream: &Arc<CudaStream>,
        shape: MatmulShape,
        a: u64,
        b: u64,
        c: u64,
    ) -> Result<Fp32Choice> {
        let mut state = self.tuning()?;
        if state.mode == AutoTuning::Model {
            return Ok(model_choice_on(shape, self.sm_count()));
        }
        if let Some(pick) = state.picks.get(&shape) {
            return Ok(pick.choice);
        }
        let model = model_choice_on(shape, self.sm_count());
        let list = shortlist(model, priced_on(shape, self.sm_count()));
        if list.len() <= 1 {
            state.picks.insert(shape, TunedPick { shape, choice: model, timed: Vec::new() });
            return Ok(model);
        }
        // The timer is kept for the next tuning (dropped with an error: made again then).
        let mut timer = match state.timer.take() {
            Some(t) => t,
            None => QueuedTimer::new(self)?,
        };
        let mut best = vec![f64::INFINITY; list.len()];
        // A candidate whose workspace does not fit (the padded path's copies) drops out; the model's
        // own choice failing so is the error the model mode would have returned.
        let mut out_of_memory: Vec<Option<Error>> = list.iter().map(|_| None).collect();
        for _ in 0..ROUNDS {
            for ((cand, least), oom) in list.iter().zip(best.iter_mut()).zip(out_of_memory.iter_mut()) {
                if oom.is_some() {
                    continue;
                }
                let iters = ((BATCH_US / cand.expected_us.max(1.0)).ceil() as usize).clamp(MIN_BATCH, MAX_BATCH);
                // SAFETY: the caller's contract covers every candidate of the shortlist.
                match timer.time_ms(self, 1, iters, || unsafe { self.run_fp32_choice(stream, shape, cand.choice, a, b, c) }) {
                    Ok(t) => *least = least.min(t.ms * 1e3),
                    Err(e @ Error::OutOfMemory { .. }) => *oom = Some(e),
                    Err(e) => return Err(e),
                }
            }
        }
        if let Some(e) = out_of_memory[0].take() {
            return Err(e);
        }
        let timed: Vec<(Candidate, f64)> = list.into_iter().zip(best).collect();
        let choice = timed.iter().min_by(|x, y| x.1.total_cmp(&y.1)).map_or(model, |x| x.0.choice);
        state.picks.insert(shape, TunedPick { shape, choice, timed });
        state.timer = Some(timer);
        Ok(choice)
    }

    /// Queues `choice` for `shape` on the `f32` operands at `a`, `b`, `c`.
    ///
    /// # Safety
    /// `a`, `b`, `c` address `m·k`, `k·n`, `m·n` floats of this context (16-byte aligned), not
    /// written by other work until the launches complete on `stream` (this GPU's stream); `shape`
    /// passed [`MatmulShape::check`]; `choice` is one of the catalogue's for `shape`
    /// ([`tessera_catalogue::shortlist`]: a concrete FP32 kernel, or a padding plan of `shape`).
    pub(crate) unsafe fn run_fp32_choice(
        &self,
        stream: &Arc<CudaStream>,
        shape: MatmulShape,
        choice: Fp32Choice,
        a: u64,
        b: u64,
        c: u64,
    ) -> Result<()> {
        match choice {
            // SAFETY: the caller's contract; the plan's kernel reads plain pointers (the catalogue's).
            Fp32Choice::Padded(plan) if plan.shape == shape => unsafe { self.matmul_padded_on(stream, &plan, a, b, c) },
            Fp32Choice::Padded(_) => Err(Error::InvalidArgument { op: "matmul", detail: "a padding plan of another shape".into() }),
            // SAFETY: the caller's contract; an FP32 kernel reads A, B as f32.
            Fp32Choice::InPlace(algo) => unsafe { self.launch_matmul_raw(stream, algo, shape, a, b, c) },
        }
    }
}
