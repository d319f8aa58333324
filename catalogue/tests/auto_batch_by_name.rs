//! `Auto`'s tile for a strided batch, named: the host keeps the tile `Auto` took for a batch and plans
//! that tile by name the next time (pricing every tile over every product costs more than a small
//! batch runs), so the plan by name must be `Auto`'s plan — the same entry, launch, maps and price —
//! for every precision, output type and epilogue.
use tessera_catalogue::plan::grouped::{plan_finishing, BufferLens, Products, ProductsFinish, ProductsPlan, Stack};
use tessera_catalogue::registry::grouped::GroupedAlgo;
use tessera_catalogue::{OutputFormat, Precision, Target};

#[test]
fn the_tile_auto_takes_plans_the_same_launch_by_name() {
    let batches = [
        (512, 64, 64, 64),
        (64, 512, 512, 64),
        (256, 128, 128, 128),
        (8, 2048, 2048, 2048),
        (6, 3000, 1000, 704),
        (3, 130, 136, 72),
        (16, 96, 1000, 200),
    ];
    let mut planned = 0;
    for (count, m, n, k) in batches {
        // B shared by every product in one of them (stride 0).
        let b_stride = if m == 130 { 0 } else { k * n };
        let (a, b, c) = (
            Stack { count, rows: m, cols: k, stride: m * k },
            Stack { count, rows: k, cols: n, stride: b_stride },
            Stack { count, rows: m, cols: n, stride: m * n },
        );
        let lens = BufferLens { a: count * m * k, b: b.span().unwrap(), c: count * m * n };
        for p in [Precision::Bf16, Precision::Fp16, Precision::Fp32] {
            let finishes: &[ProductsFinish] = if p == Precision::Fp32 {
                &[ProductsFinish::NONE]
            } else {
                &[
                    ProductsFinish::NONE,
                    ProductsFinish { out: OutputFormat::Bf16, epilogue: false },
                    ProductsFinish { out: OutputFormat::F16, epilogue: true },
                ]
            };
            for &finish in finishes {
                let plan = |algo| plan_finishing(Products::Batched { a, b, c }, lens, p, algo, Target::H200, finish);
                let auto = plan(GroupedAlgo::Auto).unwrap_or_else(|e| panic!("{count} × {m}×{n}×{k} {p:?} {finish:?}: {e}"));
                let ProductsPlan::Launch(l) = &auto else { panic!("{count} × {m}×{n}×{k}: {auto:?}") };
                let named = plan(l.kernel.algo).unwrap_or_else(|e| panic!("{}: {e}", l.kernel.label));
                assert_eq!(named, auto, "{count} × {m}×{n}×{k} {p:?} {finish:?}: {} by name", l.kernel.label);
                planned += 1;
            }
        }
    }
    assert_eq!(planned, 7 * 7);
}
