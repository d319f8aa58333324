//! Plans a `Gpu` has made, by what was asked (kernel or `Auto`, precision, dimensions): planning FP32
//! `Auto` weighs every FP32 kernel and its calibrated neighbourhood, which takes longer than a small
//! product does. A keyed cache beside the GPU's other state; emptied whenever the tuned picks or the
//! tuning mode change (they enter the plans), and when full.
use std::collections::HashMap;

use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::{Algo, OutputFormat, Plan, Precision};

/// How a product finishes its sums: `C`'s format, and whether a fused epilogue applies.
pub(crate) type Finish = (OutputFormat, bool);

/// The plans, by (kernel asked for, precision, dimensions, finish).
#[derive(Default)]
pub(crate) struct PlanCache(HashMap<(Algo, Precision, GemmDims, Finish), Plan>);

impl PlanCache {
    /// Plans kept before the cache is emptied (a blocked plan holds a few hundred operations at most).
    pub const CAPACITY: usize = 1024;

    /// The plan made for this request, if any.
    pub fn get(&self, algo: Algo, precision: Precision, dims: GemmDims, finish: Finish) -> Option<&Plan> {
        self.0.get(&(algo, precision, dims, finish))
    }

    /// Keeps `plan` for this request.
    pub fn insert(&mut self, algo: Algo, precision: Precision, dims: GemmDims, finish: Finish, plan: Plan) {
        if self.0.len() >= Self::CAPACITY {
            self.0.clear();
        }
        self.0.insert((algo, precision, dims, finish), plan);
    }

    /// Forgets every plan.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}
