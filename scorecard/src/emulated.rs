//! `--device cpu`: runs the Rust kernels' own source on the CPU executor (crate `tessera-emulator`),
//! checks each result, and shows how many threads and blocks each launch used. This is for
//! teaching — watching the same kernel run with real block semantics where there is no GPU — and is
//! labelled as emulation everywhere: its times are not a performance figure of anything.
use std::time::Instant;

use tessera::catalogue::registry::algo::case_label;
use tessera::{Algo, MatmulShape, Precision};

use crate::report::{shape_label, Check, SAMPLED_ROWS};
use crate::{Args, Fail, Problem};

/// Emulating one thread per output element gets slow quickly: refuse problems beyond this.
const MAX_EMULATED_FLOPS: f64 = 2.0 * 256.0 * 256.0 * 256.0;

/// Emulates every case of `cases` (each kernel in its precision, `Auto` in each precision) at each
/// shape, checking each against the sampled reference of its precision's rounded inputs.
pub fn run(args: &Args, shapes: &[MatmulShape], cases: &[(Algo, Precision)]) -> Result<(), Fail> {
    if let Some(big) = shapes.iter().find(|s| s.flops() > MAX_EMULATED_FLOPS) {
        return Err(format!(
            "--device cpu emulates every GPU thread: {} is too large (use sizes up to 256³, e.g. --sizes 64,100x70x30)",
            shape_label(*big)
        )
        .into());
    }
    let mut precisions: Vec<Precision> = cases.iter().map(|&(_, p)| p).collect();
    precisions.dedup();
    let mut md = String::from(
        "**EMULATED on the CPU executor** — the Rust kernels' source run with CUDA block semantics on the host. \
         Times are those of the emulation, *not* GPU performance.\n\n\
         | size | kernel | precision | grid | block | threads emulated | emulation ms | check |\n|---|---|---|---|---|---:|---:|---|\n",
    );
    for &shape in shapes {
        let problem = Problem::new(shape, &precisions, SAMPLED_ROWS);
        for &(algo, precision) in cases {
            let label = case_label(algo, precision);
            let planner = tessera::catalogue::Planner::new("emulated", algo, precision, tessera::Target::H200);
            let cfg = planner.launch(shape).map_err(|e| e.to_string())?.launch.dims;
            let threads: u64 =
                [cfg.grid.0, cfg.grid.1, cfg.grid.2, cfg.block.0, cfg.block.1, cfg.block.2].iter().map(|&d| d as u64).product();
            eprintln!("[scorecard] emulating {} {label} ({threads} threads)…", shape_label(shape));
            let t = Instant::now();
            let c = tessera_emulator::ops::matmul_in(precision, algo, &problem.a, &problem.b)?;
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let check = problem.reference.check(precision, &c);
            md += &format!(
                "| {} | {label} | {} | {:?} | {:?} | {threads} | {ms:.1} | {check:?} |\n",
                shape_label(shape),
                precision.label().to_uppercase(),
                cfg.grid,
                cfg.block,
            );
            if check == Check::Failed {
                return Err(format!("{label} gave a wrong result on the CPU executor").into());
            }
        }
    }
    println!("{md}");
    std::fs::create_dir_all(&args.out)?;
    std::fs::write(args.out.join("emulated.md"), md)?;
    eprintln!("[scorecard] wrote {}/emulated.md", args.out.display());
    Ok(())
}
