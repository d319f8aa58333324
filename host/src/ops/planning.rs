//! Planning on this GPU: its [`Target`] and its tuned picks handed to the catalogue's [`Planner`].
//! Every operation that multiplies plans here, once, and then runs the plan.
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::plan::Picks;
use tessera_catalogue::{Algo, Choice, MatmulShape, OutputFormat, Plan, Planner, Precision, Target};

use crate::context::Gpu;
use crate::error::Result;

impl Gpu {
    /// This GPU as the planner sees it: its SM count and whether it runs the sm_90a kernels.
    pub fn target(&self) -> Target {
        Target::new(self.sm_count(), self.has_sm90a())
    }

    /// What `C = A·B` with `A` `m × k` and `B` `k × n` runs on this GPU with `algo` in `precision`:
    /// the kernels, their grids and split counts, FP32's padded copies, the blocks of a product past
    /// one launch's limits. `Display` prints it; [`Gpu::matmul`] runs exactly this plan (under
    /// [`AutoTuning::Measured`](crate::AutoTuning) a shape's first product may time other candidates
    /// and keep a faster one).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// let gpu = tessera::Gpu::new(0)?;
    /// println!("{}", gpu.plan(tessera::Algo::Auto, tessera::Precision::Bf16, (4096, 4096, 4096))?);
    /// # Ok(()) }
    /// ```
    ///
    /// Errors: [`Error::ShapeMismatch`](crate::Error::ShapeMismatch) never (the dimensions agree by
    /// construction), [`Error::TooLarge`](crate::Error::TooLarge) when an element count overflows,
    /// [`Error::PrecisionMismatch`](crate::Error::PrecisionMismatch) for a kernel of another precision.
    pub fn plan(&self, algo: Algo, precision: Precision, (m, n, k): (usize, usize, usize)) -> Result<Plan> {
        let dims = GemmDims::check((m, k), (k, n), (m, n))?;
        self.plan_as("plan", algo, precision, dims)
    }

    /// The plan of a product of `dims` for the operation `op`, with this GPU's tuned picks.
    ///
    /// Plans are kept by request ([`crate::plan_cache`]): a repeated product is planned once. A request
    /// that fails is planned (and refused) again each time, naming `op`.
    pub(crate) fn plan_as(&self, op: &'static str, algo: Algo, precision: Precision, dims: GemmDims) -> Result<Plan> {
        self.plan_request(op, algo, precision, dims, (OutputFormat::F32, false), None)
    }

    /// The plan of one request — `C` in `finish.0`, a fused epilogue where `finish.1`, `k_slices` K
    /// slices of each output tile where the caller asks for them
    /// ([`tessera_catalogue::Planner::with_k_slices`]) — from the cache where it was made before.
    pub(crate) fn plan_request(
        &self,
        op: &'static str,
        algo: Algo,
        precision: Precision,
        dims: GemmDims,
        finish: (OutputFormat, bool),
        k_slices: Option<u32>,
    ) -> Result<Plan> {
        let key = (algo, precision, dims, finish, k_slices);
        if let Some(plan) = self.plans.lock().ok().and_then(|cache| cache.get(&key).cloned()) {
            return Ok(plan);
        }
        let planner = self.planner(op, algo, precision).with_output(finish.0).with_fused_epilogue(finish.1).with_k_slices(k_slices);
        let plan = planner.product(dims)?;
        if let Ok(mut cache) = self.plans.lock() {
            cache.insert(key, plan.clone());
        }
        Ok(plan)
    }

    /// Forgets the plans made so far (the tuned picks or the tuning mode changed).
    pub(crate) fn forget_plans(&self) {
        if let Ok(mut cache) = self.plans.lock() {
            cache.clear();
        }
    }

    /// The planner of `algo` in `precision` on this GPU, with its tuned picks: what [`Gpu::plan`] and
    /// every product use (its `align`, `step_ops`, `launch` for tools that cut products themselves).
    pub fn planner_for(&self, algo: Algo, precision: Precision) -> Planner<'_> {
        self.planner("plan", algo, precision)
    }

    /// The planner of `op` with `algo` in `precision` on this GPU, with its tuned picks.
    pub(crate) fn planner(&self, op: &'static str, algo: Algo, precision: Precision) -> Planner<'_> {
        Planner::new(op, algo, precision, self.target()).with_tuned(self)
    }
}

impl Picks for Gpu {
    fn pick(&self, shape: MatmulShape, precision: Precision) -> Option<Choice> {
        self.tuned_choice(shape, precision)
    }
}
