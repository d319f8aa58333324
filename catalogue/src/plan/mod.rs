//! Planning: a product, the caller's choice of kernel and a [`Target`] in, a [`Plan`] out — every
//! step the product takes, decided once. The host library (`tessera`) and the emulator are two
//! interpreters of the same plan: neither chooses a kernel, a grid or a split count itself.
//!
//! - [`Planner`] carries what the caller asked for (kernel or `Auto`, precision), the target, the
//!   limits of one launch and the picks measured on request; [`Planner::choice`] is the one function
//!   through which every path — `matmul`, `gemm`, blocks past 2³¹ elements, each GPU's blocks in
//!   `MultiGpu` — reaches [`crate::select::choose`].
//! - [`LaunchPlan`]: one launch-sized product: the [`Choice`] and its [`KernelLaunch`] (entry, grid,
//!   whether `C` is zeroed first, the TMA's operand layouts, the TF32 preparation), plus FP32's padded
//!   copies where the choice is [`Choice::Padded`].
//! - [`Plan`]: nothing, `C = 0`, one [`LaunchPlan`], or a product past one launch's limits cut into
//!   blocks ([`crate::plan::blocks`]) whose every product is a [`LaunchPlan`].
//! - [`grouped`]: a batch or groups of products, one launch of kernel 26 (its own plan: the products
//!   are many, the kernel one).
pub mod blocks;
pub mod distribute;
pub mod gemm;
pub mod grouped;
pub mod kernel_launch;

use std::fmt;

use crate::error::PlanError;
use crate::plan::blocks::{plan_steps, step_ops, workspace_of, Align, BlockOp, BlockPlan, GemmDims, Limits, Loc, Step, Workspace};
use crate::precision::{OutputFormat, Precision};
use crate::registry::algo::{Algo, MatmulKernel};
use crate::registry::launch::LaunchDims;
use crate::registry::tma::{self, Packing};
use crate::select::{choose, tc_model, Choice, Finishing};
use crate::shape::MatmulShape;
use crate::target::Target;

/// What K an FP8 product must be a multiple of: its one-byte rows are read in place by the TMA,
/// which needs them 16 bytes apart.
pub const FP8_K_MULTIPLE: u32 = 16;

/// One launch of a matmul kernel, as planned: everything the host needs to queue it and the emulator
/// to run it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelLaunch {
    /// The concrete kernel.
    pub algo: Algo,
    /// The shape it computes (the padded one on FP32's unaligned path).
    pub shape: MatmulShape,
    /// The PTX entry launched: the kernel's, or its by-rows twin where N % 4 ≠ 0
    /// ([`MatmulKernel::launched`]).
    pub entry: &'static str,
    /// Grid, block and dynamic shared memory.
    pub dims: LaunchDims,
    /// Blocks that share one output tile along K (split-K, the persistent kernel); 1 otherwise.
    pub splits: u32,
    /// Whether `C` is zeroed before the launch (the kernel adds its partial sums into it).
    pub zero_c: bool,
    /// Zeroed `u32` counters the kernel hands shared tiles over with (the TMA stream-K kernels:
    /// [`MatmulKernel::flag_words`]); 0 for none. The launch leaves them zero.
    pub flag_words: u32,
    /// The TMA kernels' operand layouts (rows padded where the TMA cannot read them, or where the
    /// model finds reading them off a 32-byte sector slower than copying them: `tc_model::best_packing`);
    /// `None` for kernels that read pointers.
    pub tma: Option<Packing>,
    /// The element type the kernel writes `C` in (not `f32`: no K slices, `splits` is 1).
    pub output: OutputFormat,
    /// Whether the kernel applies a fused epilogue (bias, activation) to each sum as it stores it
    /// (then too no K slices).
    pub fused: bool,
}

impl KernelLaunch {
    /// Plans `algo` (a concrete kernel) on `shape` for `target`. Errors: [`PlanError::Invalid`] for
    /// `Auto`, [`PlanError::Shape`] when the TMA cannot describe the operands (for FP8: K not a
    /// multiple of [`FP8_K_MULTIPLE`]).
    pub fn new(algo: Algo, shape: MatmulShape, target: Target) -> Result<KernelLaunch, PlanError> {
        Self::finishing(algo, shape, target, OutputFormat::F32, false)
    }

    /// [`KernelLaunch::new`] writing `C` in `output`, with a fused epilogue where `fused`: either
    /// takes each tile whole (no K slices: partial sums cannot be added in BF16 or after an
    /// activation). Errors as `new`'s, and [`PlanError::Invalid`] for a kernel that does not write
    /// `output` or fuse ([`OutputFormat::written_by`], [`crate::precision::fuses_epilogue`]).
    pub fn finishing(algo: Algo, shape: MatmulShape, target: Target, output: OutputFormat, fused: bool) -> Result<KernelLaunch, PlanError> {
        let kernel = algo.kernel().ok_or(PlanError::Invalid { op: "matmul", detail: "Auto is not a kernel: choose first".into() })?;
        if !output.written_by(&kernel.config) {
            let detail = format!("{} writes C in f32 only, not {output:?}", kernel.label);
            return Err(PlanError::Invalid { op: "matmul", detail });
        }
        if fused && !crate::precision::fuses_epilogue(&kernel.config) {
            let detail = format!("{} has no fused epilogue (bias, activation)", kernel.label);
            return Err(PlanError::Invalid { op: "matmul", detail });
        }
        let splits = if output == OutputFormat::F32 && !fused { kernel.splits(shape, target) } else { 1 };
        if kernel.config.fp8_operands && !shape.k.is_multiple_of(FP8_K_MULTIPLE) {
            let detail = format!(
                "K = {} is not a multiple of {FP8_K_MULTIPLE}: FP8 operands are read in place, in rows of whole 16-byte units \
                 (pad K with zeros to the next multiple)",
                shape.k
            );
            return Err(crate::error::ShapeError::Unaligned { op: "matmul (FP8)", detail }.into());
        }
        let tma = if kernel.config.tma {
            let elem_bytes = kernel.precision.input_bytes();
            let packing = tc_model::best_packing(algo, shape, splits, target.sms)
                .map_or_else(|| tma::plan(kernel.config, shape, elem_bytes), |p| p.0);
            tma::operands(kernel.config, &packing, elem_bytes)?;
            Some(packing)
        } else {
            None
        };
        let dims = kernel.launch_sliced(shape, target, splits);
        if dims.grid.1 > crate::shape::MAX_GRID_Y || dims.grid.2 > crate::shape::MAX_GRID_Y {
            let detail =
                format!("{} needs a grid of {:?} blocks: y and z hold at most {}", kernel.label, dims.grid, crate::shape::MAX_GRID_Y);
            return Err(crate::error::ShapeError::TooLarge { op: "matmul", detail }.into());
        }
        Ok(KernelLaunch {
            algo,
            shape,
            entry: kernel.launched(shape.n).0,
            dims,
            splits,
            zero_c: kernel.accumulates_sliced(splits),
            flag_words: kernel.flag_words(shape, target),
            tma,
            output,
            fused,
        })
    }

    /// [`KernelLaunch::new`] with `slices` K slices of each output tile (`C` in `f32`, added into a zeroed
    /// `C` where `slices` > 1) instead of the models' count: the caller's schedule for a split-K or
    /// persistent kernel ([`Planner::with_k_slices`]). Errors as `new`'s, and [`PlanError::Invalid`]
    /// for a kernel whose launch takes no slices, or `slices` outside `1 ..=`
    /// [`MatmulKernel::most_k_slices`].
    pub fn sliced(algo: Algo, shape: MatmulShape, target: Target, slices: u32) -> Result<KernelLaunch, PlanError> {
        let planned = Self::new(algo, shape, target)?;
        let kernel = planned.kernel();
        let invalid = |detail: String| PlanError::Invalid { op: "matmul", detail };
        let Some(most) = kernel.most_k_slices(shape) else {
            return Err(invalid(format!(
                "{} takes no K slices (only the split-K kernels and the persistent kernel outside clusters do)",
                kernel.label
            )));
        };
        if !(1..=most).contains(&slices) {
            let detail = format!(
                "{slices} K slices of {}: between 1 and {most} on {}×{}×{} (one K-step of {} at least each)",
                kernel.label, shape.m, shape.n, shape.k, kernel.config.bk
            );
            return Err(invalid(detail));
        }
        let tma = if kernel.config.tma {
            let packing = tc_model::best_packing(algo, shape, slices, target.sms)
                .map_or_else(|| tma::plan(kernel.config, shape, kernel.precision.input_bytes()), |p| p.0);
            tma::operands(kernel.config, &packing, kernel.precision.input_bytes())?;
            Some(packing)
        } else {
            None
        };
        Ok(KernelLaunch {
            dims: kernel.launch_sliced(shape, target, slices),
            splits: slices,
            zero_c: kernel.accumulates_sliced(slices),
            tma,
            ..planned
        })
    }

    /// The catalogue line of the kernel.
    pub fn kernel(&self) -> &'static MatmulKernel {
        // `new` only builds launches of concrete kernels.
        self.algo.kernel().unwrap_or(&crate::registry::algo::MATMUL_KERNELS[0])
    }

    /// Whether the host prepares the operands first (kernels 14–16's TF32 entries: `A` rounded, `Bᵀ`
    /// rounded and transposed).
    pub fn prepares_tf32(&self) -> bool {
        self.kernel().config.tf32_operands
    }
}

/// One product within one launch's limits, planned: what was chosen and the launch that runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchPlan {
    /// The caller's shape.
    pub shape: MatmulShape,
    pub precision: Precision,
    pub choice: Choice,
    /// The kernel's launch (on `choice`'s padded shape for [`Choice::Padded`], whose copies come
    /// before it and whose crop of `C` after).
    pub launch: KernelLaunch,
}

/// What a product runs, from the first step to the last.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// `M = 0` or `N = 0`: nothing to do.
    Nothing { dims: GemmDims },
    /// `K = 0`: `C` is set to zeros.
    ZeroC { dims: GemmDims },
    /// One launch-sized product.
    One(LaunchPlan),
    /// A product past one launch's limits, in blocks.
    Blocks(BlockedPlan),
}

impl Plan {
    /// The product's dimensions.
    pub fn dims(&self) -> GemmDims {
        match self {
            Plan::Nothing { dims } | Plan::ZeroC { dims } => *dims,
            Plan::One(l) => GemmDims { m: l.shape.m as usize, n: l.shape.n as usize, k: l.shape.k as usize },
            Plan::Blocks(b) => b.dims,
        }
    }

    /// Every launch-sized product of the plan, in order.
    pub fn launches(&self) -> Vec<&LaunchPlan> {
        match self {
            Plan::Nothing { .. } | Plan::ZeroC { .. } => Vec::new(),
            Plan::One(l) => vec![l],
            Plan::Blocks(b) => b.launches().collect(),
        }
    }
}

/// A product past one launch's limits: the block schedule and its operations, each product planned.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockedPlan {
    pub dims: GemmDims,
    pub steps: Vec<Step>,
    pub ops: Vec<Op>,
    /// The work buffers the operations use.
    pub workspace: Workspace,
}

impl BlockedPlan {
    /// The planned products, in order.
    pub fn launches(&self) -> impl Iterator<Item = &LaunchPlan> {
        self.ops.iter().filter_map(|op| match op {
            Op::Product { launch, .. } => Some(launch),
            _ => None,
        })
    }
}

/// One operation of a blocked product ([`BlockOp`], its product planned).
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// `height` rows of `width` elements from `src` to `dst` (pitches in elements).
    Copy2d { src: Loc, src_pitch: usize, dst: Loc, dst_pitch: usize, width: usize, height: usize },
    /// `c = a · b`, a launch-sized product.
    Product { a: Loc, b: Loc, c: Loc, launch: LaunchPlan },
    /// `dst += src` over `len` floats.
    AddInto { dst: Loc, src: Loc, len: usize },
}

/// Picks measured (or set) on request, by shape and precision: `tessera::Gpu` keeps them
/// (`AutoTuning::Measured`); the planner consults them for `Auto` before the models.
pub trait Picks {
    /// The pick for `shape` in `precision`, if there is one.
    fn pick(&self, shape: MatmulShape, precision: Precision) -> Option<Choice>;
}

/// No picks: the models alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoPicks;

impl Picks for NoPicks {
    fn pick(&self, _: MatmulShape, _: Precision) -> Option<Choice> {
        None
    }
}

/// Everything planning needs besides the product: see the [module documentation](self).
#[derive(Clone, Copy)]
pub struct Planner<'t> {
    /// The operation named in errors (`"matmul"`, `"gemm"`, …).
    pub op: &'static str,
    /// The kernel asked for, or `Auto`.
    pub requested: Algo,
    pub precision: Precision,
    pub target: Target,
    /// One launch's limits and the block size past them.
    pub limits: Limits,
    /// Picks measured on request (`Auto` only).
    pub tuned: &'t dyn Picks,
    /// The element type of `C` (`f32` unless the caller asks for another: [`Planner::with_output`]).
    pub output: OutputFormat,
    /// Whether the kernel applies a fused epilogue ([`Planner::with_fused_epilogue`]).
    pub fused: bool,
    /// K slices of each output tile the caller asked for ([`Planner::with_k_slices`]); `None`: the
    /// models' count.
    pub k_slices: Option<u32>,
}

impl fmt::Debug for Planner<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Planner")
            .field("op", &self.op)
            .field("requested", &self.requested)
            .field("precision", &self.precision)
            .field("target", &self.target)
            .field("limits", &self.limits)
            .field("output", &self.output)
            .field("fused", &self.fused)
            .field("k_slices", &self.k_slices)
            .finish_non_exhaustive()
    }
}

impl Planner<'static> {
    /// A planner for `requested` in `precision` on `target`, with the kernels' limits and no tuned picks.
    pub fn new(op: &'static str, requested: Algo, precision: Precision, target: Target) -> Self {
        Planner {
            op,
            requested,
            precision,
            target,
            limits: Limits::KERNELS,
            tuned: &NoPicks,
            output: OutputFormat::F32,
            fused: false,
            k_slices: None,
        }
    }
}

impl<'t> Planner<'t> {
    /// The same planner, consulting `tuned` for picks measured on request.
    pub fn with_tuned<'u>(self, tuned: &'u dyn Picks) -> Planner<'u> {
        let Planner { op, requested, precision, target, limits, output, fused, k_slices, .. } = self;
        Planner { op, requested, precision, target, limits, tuned, output, fused, k_slices }
    }

    /// The same planner, its products writing `C` in `output` (each launch's tiles whole; a product
    /// past one launch's limits is refused: its blocks add partial sums in `f32`).
    pub fn with_output(self, output: OutputFormat) -> Self {
        Planner { output, ..self }
    }

    /// The same planner, its products finishing each sum with a fused epilogue (bias, activation:
    /// tiles whole, as [`Planner::with_output`]'s; kernels that fuse only).
    pub fn with_fused_epilogue(self, fused: bool) -> Self {
        Planner { fused, ..self }
    }

    /// The same planner, each launch splitting every output tile's K into `k_slices` slices (`None`:
    /// the models' count): the caller's schedule for a named split-K or persistent kernel, whose
    /// slices add into a zeroed `f32` `C` ([`KernelLaunch::sliced`]). Planning refuses it with
    /// [`PlanError::Invalid`] for `Auto`, a 16-bit `C` or a fused epilogue (whole tiles only), a
    /// kernel that takes no slices, or more slices than the kernel has K-steps.
    pub fn with_k_slices(self, k_slices: Option<u32>) -> Self {
        Planner { k_slices, ..self }
    }

    /// The same planner with other launch limits (tests cut small products into blocks with them).
    pub fn with_limits(self, limits: Limits) -> Self {
        Planner { limits, ..self }
    }

    /// The choice for one launch-sized `shape`: the one function every path chooses through.
    pub fn choice(&self, shape: MatmulShape) -> Result<Choice, PlanError> {
        self.supported()?;
        let tuned = if self.requested == Algo::Auto { self.tuned.pick(shape, self.precision) } else { None };
        let finishing = match (self.fused, self.output) {
            (true, _) => Finishing::Fused,
            (false, OutputFormat::F32) => Finishing::No,
            (false, _) => Finishing::Store,
        };
        choose(self.op, self.requested, shape, self.precision, self.target, tuned, finishing)
    }

    /// `shape` (within one launch's limits) planned with [`Planner::choice`].
    pub fn launch(&self, shape: MatmulShape) -> Result<LaunchPlan, PlanError> {
        self.launch_of(shape, self.choice(shape)?)
    }

    /// `shape` planned with `choice` (a tuning candidate, or the padded path asked for by name).
    /// Errors: [`PlanError::Invalid`] when `choice` does not run `shape` in this precision.
    pub fn launch_of(&self, shape: MatmulShape, choice: Choice) -> Result<LaunchPlan, PlanError> {
        if !choice.runs(shape, self.precision) {
            let detail = format!("{} does not run {}×{}×{} in {:?}", choice.label(), shape.m, shape.n, shape.k, self.precision);
            return Err(PlanError::Invalid { op: self.op, detail });
        }
        let on = match choice {
            Choice::Kernel(_) => shape,
            Choice::Padded(p) => p.padded,
        };
        let launch = match self.k_slices {
            None => KernelLaunch::finishing(choice.kernel(), on, self.target, self.output, self.fused)?,
            Some(slices) => {
                let refused = if self.requested == Algo::Auto || !matches!(choice, Choice::Kernel(_)) {
                    Some("K slices schedule a named kernel; Auto chooses its own")
                } else if self.output != OutputFormat::F32 || self.fused {
                    Some("K slices add partial sums into an f32 C: a 16-bit C or a fused epilogue takes whole tiles")
                } else {
                    None
                };
                if let Some(why) = refused {
                    return Err(PlanError::Invalid { op: self.op, detail: why.into() });
                }
                KernelLaunch::sliced(choice.kernel(), on, self.target, slices).map_err(|e| match e {
                    PlanError::Invalid { detail, .. } => PlanError::Invalid { op: self.op, detail },
                    other => other,
                })?
            }
        };
        Ok(LaunchPlan { shape, precision: self.precision, choice, launch })
    }

    /// [`PlanError::NoKernel`] for a precision no kernel of the target multiplies in: FP8 off sm_90a
    /// (its only kernels use Hopper's FP8 `wgmma`).
    fn supported(&self) -> Result<(), PlanError> {
        if self.precision.is_fp8() && !self.target.sm90a {
            return Err(PlanError::NoKernel { op: self.op, precision: self.precision });
        }
        Ok(())
    }

    /// The block alignment of the kernel a large product runs (its tile, rounded up to 8).
    pub fn align(&self) -> Result<Align, PlanError> {
        let large = MatmulShape { m: 1 << 14, n: 1 << 14, k: 1 << 14 };
        let tile = self.choice(large)?.kernel().config().unwrap_or(tessera_kernels::matmul::k01_naive::CONFIG);
        let up8 = |x: u32| (x.max(1) as usize).next_multiple_of(8);
        Ok(Align { rows: up8(tile.bm), cols: up8(tile.bn), depth: up8(tile.bk) })
    }

    /// The whole plan of `C = A · B` for `dims`.
    ///
    /// Errors: [`PlanError::NoKernel`] in a precision no kernel of the target multiplies in (FP8 off
    /// sm_90a), [`PlanError::Shape`] for FP8 with K not a multiple of 16,
    /// [`PlanError::PrecisionMismatch`] when the kernel asked for computes in another
    /// precision (whatever the size), [`PlanError::Shape`] when a launch cannot be planned.
    pub fn product(&self, dims: GemmDims) -> Result<Plan, PlanError> {
        self.supported()?;
        if let Some(kernel) = self.requested.kernel().filter(|k| k.precision != self.precision) {
            return Err(PlanError::PrecisionMismatch {
                op: self.op,
                kernel: kernel.entry,
                kernel_precision: kernel.precision,
                requested: self.precision,
            });
        }
        if dims.m == 0 || dims.n == 0 {
            return Ok(Plan::Nothing { dims });
        }
        if dims.k == 0 {
            return Ok(Plan::ZeroC { dims });
        }
        if self.limits.fits(dims.m, dims.n, dims.k) {
            let shape = MatmulShape::check((dims.m, dims.k), (dims.k, dims.n), (dims.m, dims.n))?;
            return Ok(Plan::One(self.launch(shape)?));
        }
        if self.output != OutputFormat::F32 || self.fused {
            let fused = if self.fused { " and a fused epilogue" } else { "" };
            let detail = format!(
                "{}×{}×{} past one launch's limits with C in {:?}{fused}: its blocks add partial sums in f32",
                dims.m, dims.n, dims.k, self.output
            );
            return Err(PlanError::Invalid { op: self.op, detail });
        }
        let schedule = BlockPlan::new(dims, self.limits, self.align()?);
        let steps = plan_steps(&schedule, 0, &[]);
        let mut ops = Vec::new();
        for step in &steps {
            ops.extend(self.step_ops(step, dims)?);
        }
        let workspace = workspace_of_ops(&ops);
        Ok(Plan::Blocks(BlockedPlan { dims, steps, ops, workspace }))
    }

    /// The operations of one block step of a product of `dims` ([`step_ops`]), each product planned.
    pub fn step_ops(&self, step: &Step, dims: GemmDims) -> Result<Vec<Op>, PlanError> {
        step_ops(step, dims)
            .into_iter()
            .map(|op| {
                Ok(match op {
                    BlockOp::Copy2d { src, src_pitch, dst, dst_pitch, width, height } => {
                        Op::Copy2d { src, src_pitch, dst, dst_pitch, width, height }
                    }
                    BlockOp::Gemm { a, b, c, shape } => Op::Product { a, b, c, launch: self.launch(shape)? },
                    BlockOp::AddInto { dst, src, len } => Op::AddInto { dst, src, len },
                })
            })
            .collect()
    }

    /// Plans every product of `steps` (a GPU's share of a `MultiGpu` product), before anything runs.
    pub fn check_steps(&self, steps: &[Step], dims: GemmDims) -> Result<(), PlanError> {
        steps.iter().try_for_each(|s| self.step_ops(s, dims).map(|_| ()))
    }
}

/// The work buffers `ops` use ([`workspace_of`] of the block operations).
fn workspace_of_ops(ops: &[Op]) -> Workspace {
    let block_ops: Vec<BlockOp> = ops
        .iter()
        .map(|op| match *op {
            Op::Copy2d { src, src_pitch, dst, dst_pitch, width, height } => {
                BlockOp::Copy2d { src, src_pitch, dst, dst_pitch, width, height }
            }
            Op::Product { a, b, c, launch } => BlockOp::Gemm { a, b, c, shape: launch.shape },
            Op::AddInto { dst, src, len } => BlockOp::AddInto { dst, src, len },
        })
        .collect();
    workspace_of(&block_ops)
}

impl fmt::Display for KernelLaunch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (g, b) = (self.dims.grid, self.dims.block);
        write!(
            f,
            "{} on {}×{}×{}: grid {}×{}×{}, block {}×{}, {} B shared",
            self.entry, self.shape.m, self.shape.n, self.shape.k, g.0, g.1, g.2, b.0, b.1, self.dims.shared_bytes
        )?;
        if self.splits > 1 {
            write!(f, ", {} K slices", self.splits)?;
        }
        if self.zero_c {
            write!(f, ", C zeroed first")?;
        }
        if self.prepares_tf32() {
            write!(f, ", operands prepared (TF32)")?;
        }
        if self.kernel().config.fp8_operands {
            write!(f, ", Bᵀ read K-major (FP8)")?;
        }
        if self.output != OutputFormat::F32 {
            write!(f, ", C in {:?}", self.output)?;
        }
        if self.fused {
            write!(f, ", fused epilogue")?;
        }
        if let Some(p) = self.tma.filter(|p| !p.in_place()) {
            write!(f, ", rows padded for the TMA (lda {}, ldb {})", p.a.ld, p.b.ld)?;
        }
        Ok(())
    }
}

impl fmt::Display for LaunchPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.choice {
            Choice::Kernel(_) => write!(f, "{}", self.launch),
            Choice::Padded(p) => {
                write!(f, "FP32 padded path to {}×{}×{}: ", p.padded.m, p.padded.n, p.padded.k)?;
                if p.pads_a() {
                    write!(f, "copy A, ")?;
                }
                if p.pads_b() {
                    write!(f, "copy B, ")?;
                }
                write!(f, "{}", self.launch)?;
                if p.crops_c() {
                    write!(f, ", crop C")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.dims();
        match self {
            Plan::Nothing { .. } => write!(f, "{}×{}×{}: nothing to do", d.m, d.n, d.k),
            Plan::ZeroC { .. } => write!(f, "{}×{}×{}: C = 0", d.m, d.n, d.k),
            Plan::One(l) => write!(f, "{}×{}×{} {:?}: {}", d.m, d.n, d.k, l.precision, l),
            Plan::Blocks(b) => {
                writeln!(f, "{}×{}×{}: {} blocks, {} operations", d.m, d.n, d.k, b.steps.len(), b.ops.len())?;
                let mut last = None;
                for l in b.launches() {
                    if last != Some(l.launch) {
                        writeln!(f, "  {l}")?;
                        last = Some(l.launch);
                    }
                }
                Ok(())
            }
        }
    }
}
