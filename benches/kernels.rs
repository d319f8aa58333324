//! `cargo bench`: every FP32 matmul kernel, the CUDA C anchors and cuBLAS SGEMM (GPU), the tensor-core
//! kernels in their precision (TF32, BF16, FP16) beside cuBLAS `GemmEx` of the same precision at
//! 4096³ and 8192³, a multi-core CPU SGEMM (faer, all cores) and the naive CPU loop, plus vec_add against a device copy —
//! all in one run.
//!
//! GPU time comes from CUDA events around `iters` back-to-back launches (criterion's `iter_custom`),
//! never from host timers around a synchronize. Matmul throughput is reported in criterion's
//! "elements" unit with one element = one FLOP, so `Gelem/s` reads as GFLOP/s; vec_add is in bytes/s.
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use tessera::catalogue::registry::algo::{case_label, matmul_cases};
use tessera::{bf16, f16, Algo, DeviceBuffer, DeviceMatrix, Gpu, GpuTimer, HostMatrix, MatmulShape, Precision};
use tessera_anchors::{Cublas, CudaC};

/// GPU time of `iters` launches of `work`, measured with events (after one warm-up launch).
fn gpu_time(gpu: &Gpu, timer: &GpuTimer, iters: u64, work: impl FnMut() -> Result<(), Box<dyn std::error::Error>>) -> Duration {
    let ms = timer.time_ms(gpu, 1, iters.max(1) as usize, work).expect("a benchmarked launch failed");
    Duration::from_secs_f64(ms * 1e-3 * iters as f64)
}

const SHAPES: [(u32, u32, u32); 7] = [
    (1024, 1024, 1024),
    (2048, 2048, 2048),
    (4096, 4096, 4096),
    (8192, 8192, 8192),
    (4096, 4096, 256),
    (256, 4096, 4096),
    (1000, 1037, 519),
];

fn label(s: MatmulShape) -> String {
    format!("{}x{}x{}", s.m, s.n, s.k)
}

fn cpu_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("matmul-cpu");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    for n in [256usize, 1024, 2048] {
        let (a, b) = (HostMatrix::random(n, n, 1), HostMatrix::random(n, n, 2));
        let shape = MatmulShape { m: n as u32, n: n as u32, k: n as u32 };
        group.throughput(Throughput::Elements(shape.flops() as u64));
        group.bench_function(BenchmarkId::new("faer-all-cores", label(shape)), |bench| {
            let mut out = vec![0.0f32; n * n];
            let (lhs, rhs) = (MatRef::from_row_major_slice(&a.data, n, n), MatRef::from_row_major_slice(&b.data, n, n));
            bench.iter(|| matmul(MatMut::from_row_major_slice_mut(&mut out, n, n), Accum::Replace, lhs, rhs, 1.0f32, Par::rayon(0)))
        });
        if n <= 256 {
            group.bench_function(BenchmarkId::new("naive-loop-1-thread", label(shape)), |bench| {
                bench.iter(|| tessera::reference::matmul_cpu_naive(&a, &b))
            });
        }
    }
    group.finish();
}

fn gpu_benches(c: &mut Criterion) {
    let gpu = match Gpu::new(0) {
        Ok(g) => g,
        Err(e) => {
            println!("skipped: no CUDA device ({e}) — GPU benches not run");
            return;
        }
    };
    let timer = GpuTimer::new(&gpu).expect("events");
    let cuda_c = CudaC::new(&gpu).expect("NVRTC anchors");
    let cublas = Cublas::new(&gpu).expect("cuBLAS");

    for (m, n, k) in SHAPES {
        let shape = MatmulShape { m, n, k };
        let mut group = c.benchmark_group(format!("matmul/{}", label(shape)));
        group.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
        group.throughput(Throughput::Elements(shape.flops() as u64));
        let (a, b) = (HostMatrix::random(m as usize, k as usize, 1), HostMatrix::random(k as usize, n as usize, 2));
        let da = DeviceMatrix::<f32>::from_host(&gpu, &a).expect("upload");
        let db = DeviceMatrix::<f32>::from_host(&gpu, &b).expect("upload");
        let mut dc = DeviceMatrix::<f32>::zeros(&gpu, m as usize, n as usize).expect("alloc");
        for algo in Algo::ALL.into_iter().filter(|a| a.precision().is_none_or(|p| p == Precision::Fp32)) {
            if algo == Algo::Naive && shape.flops() > 2.0 * 4096.0f64.powi(3) {
                continue; // seconds per launch: it adds nothing the 4096³ row does not show
            }
            group.bench_function(format!("{} (Rust)", algo.label()), |bench| {
                bench.iter_custom(|iters| gpu_time(&gpu, &timer, iters, || Ok(gpu.matmul(algo, &da, &db, &mut dc)?)))
            });
            if CudaC::has(algo) {
                group.bench_function(format!("{} (CUDA C)", algo.label()), |bench| {
                    bench.iter_custom(|iters| gpu_time(&gpu, &timer, iters, || Ok(cuda_c.matmul(&gpu, algo, &da, &db, &mut dc)?)))
                });
            }
        }
        group.bench_function("cuBLAS SGEMM FP32", |bench| {
            bench.iter_custom(|iters| gpu_time(&gpu, &timer, iters, || Ok(cublas.sgemm(&da, &db, &mut dc)?)))
        });
        group.finish();
    }

    tensor_core_benches(c, &gpu, &timer, &cublas);

    let len = 1usize << 26;
    let mut group = c.benchmark_group(format!("bandwidth/{len}"));
    group.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    let host = tessera::catalogue::testkit::random::operands(len, 3);
    let (da, db) = (DeviceBuffer::from_host(&gpu, &host).expect("upload"), DeviceBuffer::from_host(&gpu, &host).expect("upload"));
    let mut dc = DeviceBuffer::<f32>::zeros(&gpu, len).expect("alloc");
    group.throughput(Throughput::Bytes(12 * len as u64));
    group.bench_function("vec_add one thread per element (Rust)", |bench| {
        bench.iter_custom(|iters| gpu_time(&gpu, &timer, iters, || Ok(gpu.vec_add_scalar(&da, &db, &mut dc)?)))
    });
    group.bench_function("vec_add float4 grid-stride (Rust)", |bench| {
        bench.iter_custom(|iters| gpu_time(&gpu, &timer, iters, || Ok(gpu.vec_add(&da, &db, &mut dc)?)))
    });
    group.bench_function("vec_add one thread per element (CUDA C)", |bench| {
        bench.iter_custom(|iters| gpu_time(&gpu, &timer, iters, || Ok(cuda_c.vec_add(&gpu, &da, &db, &mut dc)?)))
    });
    group.throughput(Throughput::Bytes(8 * len as u64));
    group.bench_function("device copy", |bench| {
        bench.iter_custom(|iters| {
            gpu_time(&gpu, &timer, iters, || Ok(gpu.stream().memcpy_dtod(da.as_cuda_slice(), dc.as_cuda_slice_mut())?))
        })
    });
    group.finish();
}

/// Shapes of the tensor-core rows: where the tensor-core kernels are meant to run.
const TC_SHAPES: [u32; 2] = [4096, 8192];

/// The tensor-core kernels (and Auto) in TF32, BF16 and FP16 beside cuBLAS `GemmEx` of the same
/// precision (f32 accumulation and output), one group per precision and size.
fn tensor_core_benches(c: &mut Criterion, gpu: &Gpu, timer: &GpuTimer, cublas: &Cublas) {
    for size in TC_SHAPES {
        let shape = MatmulShape { m: size, n: size, k: size };
        let n = size as usize;
        let (a, b) = (HostMatrix::random(n, n, 1), HostMatrix::random(n, n, 2));
        let mut dc = DeviceMatrix::<f32>::zeros(gpu, n, n).expect("alloc");
        let (da, db) = (DeviceMatrix::<f32>::from_host(gpu, &a).expect("upload"), DeviceMatrix::<f32>::from_host(gpu, &b).expect("upload"));
        let (ha, hb) =
            (DeviceMatrix::<bf16>::from_host(gpu, &a).expect("upload"), DeviceMatrix::<bf16>::from_host(gpu, &b).expect("upload"));
        let (fa, fb) = (DeviceMatrix::<f16>::from_host(gpu, &a).expect("upload"), DeviceMatrix::<f16>::from_host(gpu, &b).expect("upload"));
        for precision in [Precision::Tf32, Precision::Bf16, Precision::Fp16] {
            let mut group = c.benchmark_group(format!("matmul-{}/{}", precision.label(), label(shape)));
            group.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
            group.throughput(Throughput::Elements(shape.flops() as u64));
            for (algo, _) in matmul_cases().into_iter().filter(|&(_, p)| p == precision) {
                // Kernel 11 (one warp per tile, fragments from global) is the slow rung: its 4096³ row says it all.
                if matches!(algo, Algo::MmaNaiveBf16 | Algo::MmaNaiveF16 | Algo::MmaNaiveTf32) && size > 4096 {
                    continue;
                }
                group.bench_function(format!("{} (Rust)", case_label(algo, precision)), |bench| {
                    bench.iter_custom(|iters| {
                        gpu_time(gpu, timer, iters, || {
                            match precision {
                                Precision::Tf32 => gpu.matmul_tf32(algo, &da, &db, &mut dc)?,
                                Precision::Bf16 => gpu.matmul(algo, &ha, &hb, &mut dc)?,
                                Precision::Fp16 => gpu.matmul(algo, &fa, &fb, &mut dc)?,
                                Precision::Fp32 => gpu.matmul(algo, &da, &db, &mut dc)?,
                                Precision::Fp8E4m3 | Precision::Fp8E5m2 => unreachable!("the precisions benched above have no FP8"),
                            }
                            Ok(())
                        })
                    })
                });
            }
            group.bench_function(format!("cuBLAS GemmEx {}", precision.label().to_uppercase()), |bench| {
                bench.iter_custom(|iters| {
                    gpu_time(gpu, timer, iters, || {
                        match precision {
                            Precision::Tf32 => cublas.gemm_tf32(da.buffer(), db.buffer(), dc.buffer_mut(), n, n, n)?,
                            Precision::Bf16 => cublas.gemm_bf16(ha.buffer(), hb.buffer(), dc.buffer_mut(), n, n, n)?,
                            Precision::Fp16 => cublas.gemm_f16(fa.buffer(), fb.buffer(), dc.buffer_mut(), n, n, n)?,
                            Precision::Fp32 => cublas.gemm_f32(da.buffer(), db.buffer(), dc.buffer_mut(), n, n, n)?,
                            Precision::Fp8E4m3 | Precision::Fp8E5m2 => unreachable!("the precisions benched above have no FP8"),
                        }
                        Ok(())
                    })
                })
            });
            group.finish();
        }
    }
}

criterion_group!(benches, gpu_benches, cpu_benches);
criterion_main!(benches);
