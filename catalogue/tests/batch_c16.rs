//! A batch writing a 16-bit `C` (as `torch.bmm` does): kernel 30 stores it itself, at half the store's
//! bytes, and kernel 26 through its finishing twins — the planner weighs both (`tuning::batch_us`,
//! `tuning::finished_c16_over_f32`) and takes kernel 30 on small products, kernel 26 on large ones.
use tessera_catalogue::plan::grouped::{plan_finishing, BufferLens, Products, ProductsFinish, ProductsPlan, Stack};
use tessera_catalogue::registry::grouped::GroupedAlgo;
use tessera_catalogue::select::tuning::{batch_us, finished_c16_over_f32};
use tessera_catalogue::{OutputFormat, Precision, Target};

fn auto_plan(count: usize, m: usize, n: usize, k: usize, out: OutputFormat) -> &'static str {
    let (a, b, c) = (
        Stack { count, rows: m, cols: k, stride: m * k },
        Stack { count, rows: k, cols: n, stride: k * n },
        Stack { count, rows: m, cols: n, stride: m * n },
    );
    let lens = BufferLens { a: count * m * k, b: count * k * n, c: count * m * n };
    let finish = ProductsFinish { out, epilogue: false };
    match plan_finishing(Products::Batched { a, b, c }, lens, Precision::Bf16, GroupedAlgo::Auto, Target::H200, finish) {
        Ok(ProductsPlan::Launch(l)) => l.kernel.label,
        other => panic!("{count} × {m}×{n}×{k} {out:?}: {other:?}"),
    }
}

#[test]
fn a_16_bit_c_lowers_kernel_30s_price_and_raises_kernel_26s() {
    for algo in [GroupedAlgo::MmaBf16, GroupedAlgo::MmaBf16Rows64, GroupedAlgo::MmaF16, GroupedAlgo::MmaF16Rows64] {
        let (f32_us, c16_us) = (batch_us(algo, 40.0, 30.0, false), batch_us(algo, 40.0, 30.0, true));
        assert!(c16_us < f32_us && f32_us < 40.0, "{algo:?}: {c16_us} / {f32_us}");
        // Deeper K adds K-steps, which a 16-bit C does not shorten.
        let deeper = batch_us(algo, 400.0, 30.0, false) - batch_us(algo, 400.0, 30.0, true);
        assert!((deeper - (f32_us - c16_us)).abs() < 1e-9, "{algo:?}");
    }
    for algo in [GroupedAlgo::Bf16, GroupedAlgo::Bf16Wide, GroupedAlgo::Bf16Rows64] {
        assert!(finished_c16_over_f32(algo) > 1.0, "{algo:?}");
    }
    // Kernel 28 (FP32) keeps its single-product price.
    assert_eq!(batch_us(GroupedAlgo::F32, 40.0, 30.0, false), 40.0);
}

#[test]
fn auto_writes_a_16_bit_c_on_kernel_30_for_small_products_and_kernel_26_for_large() {
    for out in [OutputFormat::Bf16, OutputFormat::F16] {
        assert!(auto_plan(256, 128, 128, 128, out).starts_with("batched-mma-"), "{out:?}");
        assert!(auto_plan(64, 512, 512, 64, out).starts_with("batched-mma-"), "{out:?}");
        assert!(auto_plan(8, 2048, 2048, 2048, out).starts_with("grouped-"), "{out:?}");
    }
}
