//! A GEMM over several GPUs of one host: the 1D split (rows of `A` and `C` per GPU, all of `B` on
//! every GPU), the order the operands travel in, and what each GPU computes while they travel.
//! Pure arithmetic: the host library issues the copies, collectives and launches; the tests replay
//! a plan on host arrays, with memory that has not arrived yet poisoned.
//!
//! **The split.** GPU `g` owns rows [`GpuPlan::rows`] of `A` and `C` (even in whole tiles:
//! [`split`]) and needs all of `B`. Its rows are computed in *bands*: a short **lead band** first,
//! then the rest in [`DistOptions::return_pieces`] bands. Each band is an ordinary [`BlockPlan`]
//! (so a band past 2³¹ elements is cut into blocks like any other product).
//!
//! **The transfers** ([`DistPlan::transfers`], the same order on every GPU, as NCCL needs): the lead
//! rows of `A`, then `B` in [`DistOptions::b_chunks`] chunks along K, then the other rows of `A`
//! band by band (each band starts as soon as its rows arrived, while the next band's travel).
//! The lead band's K blocks are cut at the chunk boundaries, so a receiving GPU starts computing as
//! soon as the lead rows and the first chunk of `B` arrived, and computes the lead band chunk by
//! chunk (accumulating into `C`) while the rest of `B` travels; the later bands need all of `B` and
//! run with whole K (no accumulation). Each step records the last transfer it needs
//! ([`GpuPlan::needs`]).
//!
//! **The result** travels band by band ([`GpuPlan::bands`]) when `C` ends on the root: a band is
//! sent as soon as its last step is done, while the next band computes.
// Plans are lists of ranges: a list of one range (one block, one band) is a plan like any other.
#![allow(clippy::single_range_in_vec_init)]
use std::ops::Range;

use crate::plan::blocks::{plan_steps, split, step_ops, workspace_of, Align, BlockPlan, GemmDims, Limits, Step, Workspace};

/// Where the operands start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// On GPU 0 (the root): GPU 0 computes its rows in place; the others receive theirs.
    Root,
    /// In host memory: every GPU receives its rows of `A` and all of `B` from the host.
    Host,
}

/// The knobs of a distributed product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DistOptions {
    /// Chunks `B` travels in along K.
    pub b_chunks: usize,
    /// Rows of the lead band (rounded up to the row alignment; 0: no lead band).
    pub lead_rows: usize,
    /// Bands the rows after the lead band are computed (and returned) in.
    pub return_pieces: usize,
    /// Block limits for every band (see [`BlockPlan`]).
    pub limits: Limits,
    /// Operands from the root: the root's own steps wait until every operand has been sent (its
    /// matmul then never competes with NCCL's kernels for SMs), at the cost of starting later; the
    /// rows of `A` after the lead band then travel as one piece.
    pub root_waits_for_sends: bool,
}

impl Default for DistOptions {
    /// 8 chunks of `B`, a lead band of 512 rows, one band after it, the kernels' limits, and the
    /// root computing after its sends: at 16384³ on two GPUs the lead band is 512 × 16384 × 2048 per
    /// chunk (4 × 64 tiles of 128 × 256) and one chunk of `B` is 128 MiB of FP32.
    ///
    /// Measured on two H200s (docs/results/2026-11-30-multi-gpu): with the root's matmul running,
    /// each NCCL transfer from it waited for a wave of matmul blocks (2.9 ms at K = 16384), and the
    /// split reached 1.54–1.60×; with the root waiting for its sends (4.8 ms) and one band after the
    /// lead band (fewer partial waves), 1.87×.
    fn default() -> Self {
        DistOptions { b_chunks: 8, lead_rows: 512, return_pieces: 1, limits: Limits::KERNELS, root_waits_for_sends: true }
    }
}

/// One transfer of the operands, in [`DistPlan::transfers`] order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transfer {
    /// Rows [`GpuPlan::a_pieces`]`[piece]` of each receiving GPU's `A` (piece `j`: the rows of band `j`).
    A { piece: usize },
    /// Rows [`DistPlan::b_chunks`]`[chunk]` of `B`, to every GPU that receives.
    B { chunk: usize },
}

/// What one GPU holds and does. Row ranges are local (row 0 is the GPU's first row) unless said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuPlan {
    /// Its rows of `A` and `C`, global.
    pub rows: Range<usize>,
    /// Whether its operands arrive by transfers (all GPUs from the host; GPUs ≥ 1 from the root).
    pub receives: bool,
    /// Its rows of `A` in the pieces that travel: one per band (the lead band's first); empty when
    /// it does not receive.
    pub a_pieces: Vec<Range<usize>>,
    /// Row bands in compute order: the lead band, then [`DistOptions::return_pieces`] bands (some
    /// may be empty). A GPU that does not receive has one band.
    pub bands: Vec<Range<usize>>,
    /// The sub-GEMMs in issue order (band after band).
    pub steps: Vec<Step>,
    /// For each band, the index of its last step (`None`: empty band).
    pub band_last_step: Vec<Option<usize>>,
    /// For each step, the index in [`DistPlan::transfers`] of the last transfer it needs (`None`:
    /// it needs none; the root's steps wait for the last chunk of `B` with
    /// [`DistOptions::root_waits_for_sends`]).
    pub needs: Vec<Option<usize>>,
    /// The work buffers its steps need.
    pub workspace: Workspace,
}

/// A product over several GPUs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistPlan {
    pub dims: GemmDims,
    pub origin: Origin,
    /// Rows of `B` per chunk (empty when K = 0).
    pub b_chunks: Vec<Range<usize>>,
    /// The transfers, in the order every GPU issues them.
    pub transfers: Vec<Transfer>,
    pub gpus: Vec<GpuPlan>,
}

impl DistPlan {
    /// The plan of `dims` over `gpus` GPUs (at least 1) with operands from `origin`.
    pub fn new(dims: GemmDims, gpus: usize, origin: Origin, align: Align, opts: DistOptions) -> DistPlan {
        let gpus = gpus.max(1);
        let GemmDims { m, n, k } = dims;
        let b_chunks: Vec<Range<usize>> =
            if dims.is_empty() { Vec::new() } else { split(k, opts.b_chunks, align.depth).into_iter().filter(|r| !r.is_empty()).collect() };
        let receives = |g: usize| !dims.is_empty() && (origin == Origin::Host || g > 0);
        // A root that waits for every send gains nothing from band-sized pieces of A.
        let one_rest_piece = origin == Origin::Root && opts.root_waits_for_sends;
        let any_receive = (0..gpus).any(receives);
        let transfers = if any_receive {
            let mut t = vec![Transfer::A { piece: 0 }];
            t.extend((0..b_chunks.len()).map(|chunk| Transfer::B { chunk }));
            let pieces = if one_rest_piece { 1 } else { opts.return_pieces.max(1) };
            t.extend((1..=pieces).map(|piece| Transfer::A { piece }));
            t
        } else {
            Vec::new()
        };
        let b_index = |depth_end: usize| b_chunks.iter().position(|c| depth_end <= c.end).unwrap_or(b_chunks.len().saturating_sub(1));
        let plans = split(m, gpus, align.rows)
            .into_iter()
            .enumerate()
            .map(|(g, rows)| {
                let local = rows.len();
                let band = |r: &Range<usize>| BlockPlan::new(GemmDims { m: r.len(), n, k }, opts.limits, align);
                let (bands, steps_per_band, a_pieces) = if dims.is_empty() {
                    (vec![0..local], vec![Vec::new()], Vec::new())
                } else if receives(g) {
                    let lead = if opts.lead_rows == 0 { 0 } else { opts.lead_rows.next_multiple_of(align.rows.max(1)).min(local) };
                    let mut bands = vec![0..lead];
                    bands.extend(split(local - lead, opts.return_pieces, align.rows).into_iter().map(|r| r.start + lead..r.end + lead));
                    let steps =
                        bands
                            .iter()
                            .enumerate()
                            .map(|(j, r)| {
                                if r.is_empty() {
                                    Vec::new()
                                } else {
                                    plan_steps(&band(r), r.start, if j == 0 { &b_chunks } else { &[] })
                                }
                            })
                            .collect();
                    let pieces = if one_rest_piece { vec![0..lead, lead..local] } else { bands.clone() };
                    (bands, steps, pieces)
                } else {
                    let r = 0..local;
                    let steps = if local == 0 { Vec::new() } else { plan_steps(&band(&r), 0, &[]) };
                    (vec![r], vec![steps], Vec::new())
                };
                let mut steps = Vec::new();
                let mut band_last_step = Vec::new();
                for band_steps in steps_per_band {
                    let before = steps.len();
                    steps.extend(band_steps);
                    band_last_step.push((steps.len() > before).then(|| steps.len() - 1));
                }
                // The root, when asked to, waits for the last transfer to leave.
                let root_wait = (one_rest_piece && g == 0 && any_receive).then(|| transfers.len() - 1);
                let needs = steps
                    .iter()
                    .map(|s| {
                        if !receives(g) {
                            return root_wait;
                        }
                        Some({
                            // Bands never straddle a piece (piece j is band j, or the rest is one piece).
                            let piece = a_pieces.iter().position(|r| s.rows.end <= r.end).unwrap_or(a_pieces.len() - 1);
                            let a = if piece == 0 { 0 } else { b_chunks.len() + piece };
                            a.max(1 + b_index(s.depth.end))
                        })
                    })
                    .collect();
                let dims_local = GemmDims { m: local, n, k };
                let ops: Vec<_> = steps.iter().flat_map(|s| step_ops(s, dims_local)).collect();
                GpuPlan { rows, receives: receives(g), a_pieces, bands, band_last_step, needs, workspace: workspace_of(&ops), steps }
            })
            .collect();
        DistPlan { dims, origin, b_chunks, transfers, gpus: plans }
    }

    /// The largest work buffers of any GPU (elements), and of each GPU.
    pub fn workspace(&self) -> Vec<Workspace> {
        self.gpus.iter().map(|g| g.workspace).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precision::Precision;
    use crate::registry::algo::Algo;

    #[test]
    fn two_gpus_at_16384_from_the_root() {
        let dims = GemmDims { m: 16384, n: 16384, k: 16384 };
        let align = crate::plan::Planner::new("matmul", Algo::Auto, Precision::Fp32, crate::target::Target::H200).align().unwrap();
        let at_once = DistOptions { return_pieces: 4, root_waits_for_sends: false, ..DistOptions::default() };
        let plan = DistPlan::new(dims, 2, Origin::Root, align, at_once);
        assert_eq!(plan.gpus[0].rows, 0..8192);
        assert_eq!(plan.gpus[1].rows, 8192..16384);
        assert_eq!(plan.b_chunks.len(), 8);
        assert_eq!(plan.transfers.len(), 1 + 8 + 4);
        // The root computes its rows in one launch, with nothing to wait for (or after B has left).
        assert!(!plan.gpus[0].receives);
        assert_eq!(plan.gpus[0].steps.len(), 1);
        assert_eq!(plan.gpus[0].needs, vec![None]);
        let waiting = DistPlan::new(dims, 2, Origin::Root, align, DistOptions { root_waits_for_sends: true, ..at_once });
        assert_eq!(waiting.transfers.len(), 1 + 8 + 1);
        assert_eq!(waiting.gpus[0].needs, vec![Some(9)]);
        assert!(waiting.gpus[1].needs[8..].iter().all(|&n| n == Some(9)));
        // The defaults: the root waits, one band after the lead band.
        let default = DistPlan::new(dims, 2, Origin::Root, align, DistOptions::default());
        assert_eq!(default.gpus[1].bands, vec![0..512, 512..8192]);
        assert_eq!((default.transfers.len(), default.gpus[1].steps.len()), (10, 9));
        // GPU 1: the lead band in 8 K chunks (each needing its own chunk of B), then 4 bands with whole K.
        let g = &plan.gpus[1];
        assert_eq!(g.bands[0], 0..512);
        assert_eq!(g.steps.len(), 8 + 4);
        assert_eq!(g.needs[..8], (1..=8).map(Some).collect::<Vec<_>>()[..]);
        assert_eq!(g.needs[8..], [Some(9), Some(10), Some(11), Some(12)]);
        assert_eq!(g.band_last_step, vec![Some(7), Some(8), Some(9), Some(10), Some(11)]);
        assert_eq!(g.workspace.scratch, 512 * 16384);
        assert_eq!((g.workspace.a_pack, g.workspace.b_pack, g.workspace.c_pack), (512 * 2048, 0, 0));
    }

    #[test]
    fn one_gpu_is_the_single_gpu_product() {
        let dims = GemmDims { m: 100, n: 30, k: 70 };
        let plan = DistPlan::new(dims, 1, Origin::Root, Align::NONE, DistOptions::default());
        assert!(plan.transfers.is_empty());
        assert_eq!(plan.gpus.len(), 1);
        assert_eq!(plan.gpus[0].steps, vec![Step { rows: 0..100, cols: 0..30, depth: 0..70, first: true, last: true }]);
    }

    #[test]
    fn empty_products_have_no_steps_and_no_transfers() {
        for dims in [GemmDims { m: 0, n: 5, k: 5 }, GemmDims { m: 5, n: 5, k: 0 }, GemmDims { m: 5, n: 0, k: 5 }] {
            let plan = DistPlan::new(dims, 3, Origin::Host, Align::NONE, DistOptions::default());
            assert!(plan.transfers.is_empty());
            assert!(plan.gpus.iter().all(|g| g.steps.is_empty() && !g.receives));
        }
    }
}
