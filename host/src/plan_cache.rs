//! Plans a `Gpu` has made, by what was asked (kernel or `Auto`, precision, dimensions): planning FP32
//! `Auto` weighs every FP32 kernel and its calibrated neighbourhood, which takes longer than a small
//! product does. A keyed cache beside the GPU's other state; emptied whenever the tuned picks or the
//! tuning mode change (they enter the plans), and when full. Beside them, the tile `Auto` took for a
//! strided batch: pricing every tile over every product took 4.0 µs on the CPU for 512 products of
//! 64³, 0.3 for the tile named (`docs/results/2026-12-05-s40/planning-cpu`), against the batch's 6
//! µs on the GPU.
use std::collections::HashMap;

use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::plan::grouped::{ProductsFinish, Stack};
use tessera_catalogue::registry::grouped::GroupedAlgo;
use tessera_catalogue::{Algo, OutputFormat, Plan, Precision};

/// How a product finishes its sums: `C`'s format, and whether a fused epilogue applies.
pub(crate) type Finish = (OutputFormat, bool);

/// A request: the kernel asked for (or `Auto`), the precision, the dimensions, the finish and the
/// caller's K slices (`None`: the models' count).
pub(crate) type PlanKey = (Algo, Precision, GemmDims, Finish, Option<u32>);

/// A strided batch as `Auto` plans it: the inputs' precision, A's, B's and `C`'s stacks, the finish.
pub(crate) type BatchKey = (Precision, Stack, Stack, Stack, ProductsFinish);

/// The plans, by request ([`PlanKey`]), and `Auto`'s tiles for batches.
#[derive(Default)]
pub(crate) struct PlanCache {
    plans: HashMap<PlanKey, Plan>,
    batch_tiles: HashMap<BatchKey, GroupedAlgo>,
}

impl PlanCache {
    /// Plans kept before the cache is emptied (a blocked plan holds a few hundred operations at most).
    pub const CAPACITY: usize = 1024;

    /// The plan made for this request, if any.
    pub fn get(&self, key: &PlanKey) -> Option<&Plan> {
        self.plans.get(key)
    }

    /// Keeps `plan` for this request.
    pub fn insert(&mut self, key: PlanKey, plan: Plan) {
        if self.plans.len() >= Self::CAPACITY {
            self.plans.clear();
        }
        self.plans.insert(key, plan);
    }

    /// The tile `Auto` took for this batch, if it planned it before.
    pub fn batch_tile(&self, key: &BatchKey) -> Option<GroupedAlgo> {
        self.batch_tiles.get(key).copied()
    }

    /// Keeps `tile` as `Auto`'s for this batch.
    pub fn insert_batch_tile(&mut self, key: BatchKey, tile: GroupedAlgo) {
        if self.batch_tiles.len() >= Self::CAPACITY {
            self.batch_tiles.clear();
        }
        self.batch_tiles.insert(key, tile);
    }

    /// Forgets every plan and tile.
    pub fn clear(&mut self) {
        self.plans.clear();
        self.batch_tiles.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_tile_is_kept_by_its_whole_key_and_forgotten_with_the_plans() {
        let stack = |count, rows, cols| Stack { count, rows, cols, stride: rows * cols };
        let key = (Precision::Bf16, stack(512, 64, 64), stack(512, 64, 64), stack(512, 64, 64), ProductsFinish::NONE);
        let mut cache = PlanCache::default();
        assert_eq!(cache.batch_tile(&key), None);
        cache.insert_batch_tile(key, GroupedAlgo::MmaBf16Rows64);
        assert_eq!(cache.batch_tile(&key), Some(GroupedAlgo::MmaBf16Rows64));
        // Another precision, output type or stride is another batch.
        assert_eq!(cache.batch_tile(&(Precision::Fp16, key.1, key.2, key.3, key.4)), None);
        assert_eq!(cache.batch_tile(&(key.0, key.1, key.2, key.3, ProductsFinish { out: OutputFormat::Bf16, epilogue: false })), None);
        assert_eq!(cache.batch_tile(&(key.0, key.1, Stack { stride: 0, ..key.2 }, key.3, key.4)), None);
        cache.clear();
        assert_eq!(cache.batch_tile(&key), None);
    }
}
