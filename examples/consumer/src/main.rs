//! A user's program: multiply two matrices on the GPU with tessera, in every precision the library
//! has (FP32, TF32 asked for explicitly, BF16, FP16), and check each result.
use tessera::catalogue::registry::algo::{case_label, matmul_cases};
use tessera::catalogue::testkit::check::check_in;
use tessera::{Gpu, HostMatrix};

fn main() {
    let gpu = match Gpu::new(0) {
        Ok(gpu) => gpu,
        Err(e) => {
            println!("skipped: no CUDA device ({e}); nothing to run on this machine");
            return;
        }
    };
    let (m, n, k) = (512, 384, 256);
    let a = HostMatrix::from_fn(m, k, |r, c| ((r * 7 + c * 3) % 17) as f32 / 17.0 - 0.5);
    let b = HostMatrix::from_fn(k, n, |r, c| ((r * 5 + c * 11) % 13) as f32 / 13.0 - 0.5);
    for (algo, precision) in matmul_cases() {
        let label = case_label(algo, precision);
        match gpu.matmul_host_in(precision, algo, &a, &b).map(|c| check_in(precision, &a, &b, &c)) {
            Ok(Ok(())) => println!("{label:>24}: {m}×{k} · {k}×{n} on the GPU matches the CPU reference"),
            Ok(Err(mismatch)) => {
                eprintln!("{label}: wrong result: {mismatch}");
                std::process::exit(1);
            }
            Err(e) => {
                eprintln!("{label}: {e}");
                std::process::exit(1);
            }
        }
    }
}
