//! CPU time of planning a strided batch: `Auto` (every tile priced over every product) against the tile
//! `Auto` takes, named. Run as a catalogue example (copied to catalogue/examples/, release build).
use tessera_catalogue::plan::grouped::{plan_finishing, BufferLens, Products, ProductsFinish, ProductsPlan, Stack};
use tessera_catalogue::registry::grouped::GroupedAlgo;
use tessera_catalogue::{OutputFormat, Precision, Target};
fn main() {
    for (cnt, m, n, k) in [(512usize, 64usize, 64usize, 64usize), (256, 128, 128, 128), (64, 512, 512, 64)] {
        let a = Stack { count: cnt, rows: m, cols: k, stride: m * k };
        let b = Stack { count: cnt, rows: k, cols: n, stride: k * n };
        let c = Stack { count: cnt, rows: m, cols: n, stride: m * n };
        let lens = BufferLens { a: cnt * m * k, b: cnt * k * n, c: cnt * m * n };
        for out in [OutputFormat::F32, OutputFormat::Bf16] {
            let fin = ProductsFinish { out, epilogue: false };
            let plan = |algo| plan_finishing(Products::Batched { a, b, c }, lens, Precision::Bf16, algo, Target::H200, fin).unwrap();
            let ProductsPlan::Launch(l) = plan(GroupedAlgo::Auto) else { panic!() };
            let pick = l.kernel.algo;
            let time = |algo| {
                let (t, reps) = (std::time::Instant::now(), 2000);
                for _ in 0..reps {
                    std::hint::black_box(plan(algo));
                }
                t.elapsed().as_secs_f64() * 1e6 / reps as f64
            };
            println!("{cnt} x {m}x{n}x{k} C {out:?}: Auto {:.2} us a plan, {} named {:.2} us", time(GroupedAlgo::Auto), l.kernel.label, time(pick));
        }
    }
}
