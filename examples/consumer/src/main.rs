//! A user's program: multiply two matrices on the GPU with tessera and check the result.
use tessera::reference::{check_matmul, matmul_reference};
use tessera::{Algo, Gpu, HostMatrix};

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
    for algo in Algo::ALL {
        match gpu.matmul_host(algo, &a, &b).map(|c| check_matmul(&c, &matmul_reference(&a, &b))) {
            Ok(Ok(())) => println!("{:>6}: {m}×{k} · {k}×{n} on the GPU matches the CPU reference", algo.label()),
            Ok(Err(mismatch)) => {
                eprintln!("{}: wrong result: {mismatch}", algo.label());
                std::process::exit(1);
            }
            Err(e) => {
                eprintln!("{}: {e}", algo.label());
                std::process::exit(1);
            }
        }
    }
}
