//! Prints the batch plan's view of strided batches, as CSV: every batch kernel of the precision
//! (kernel 26's tiles, 28's or 30's) with its predicted time on the H200 and whether `Auto` takes it —
//! the model side of `scorecard/src/bin/grouped.rs`'s measured rows, to fit the batch kernels'
//! constants against (`docs/tuning.md`).
//!
//!     cargo run -p tessera-catalogue --example batch_plans -- --batched 64x512x512x64,256x128x128x128 [--precision bf16]
use tessera_catalogue::plan::grouped::{plan, BufferLens, Products, ProductsPlan, Stack};
use tessera_catalogue::registry::grouped::{GroupedAlgo, GROUPED_KERNELS};
use tessera_catalogue::{Precision, Target};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let precision = match value("--precision").as_deref().unwrap_or("bf16") {
        "bf16" => Precision::Bf16,
        "f16" | "fp16" => Precision::Fp16,
        "f32" | "fp32" => Precision::Fp32,
        other => return Err(format!("no batch precision `{other}`")),
    };
    println!("count,m,n,k,kernel,predicted_us,auto");
    for case in value("--batched").ok_or("--batched is required")?.split(',').filter(|s| !s.is_empty()) {
        let dims: Vec<usize> = case.split('x').map(|d| d.parse().map_err(|e| format!("{case}: {e}"))).collect::<Result<_, _>>()?;
        let [count, m, n, k] = dims[..] else { return Err(format!("{case}: want COUNTxMxNxK")) };
        let stack = |rows: usize, cols: usize| Stack { count, rows, cols, stride: rows * cols };
        let products = Products::Batched { a: stack(m, k), b: stack(k, n), c: stack(m, n) };
        let lens = BufferLens { a: usize::MAX, b: usize::MAX, c: usize::MAX };
        let launch = |algo| match plan(products, lens, precision, algo, Target::H200) {
            Ok(ProductsPlan::Launch(l)) => Some(*l),
            _ => None,
        };
        let auto = launch(GroupedAlgo::Auto).map(|l| l.kernel.label);
        for kl in GROUPED_KERNELS.iter().filter(|kl| kl.precision == precision) {
            if let Some(l) = launch(kl.algo) {
                println!("{count},{m},{n},{k},{},{:.2},{}", kl.label, l.predicted_us, u8::from(auto == Some(kl.label)));
            }
        }
    }
    Ok(())
}
