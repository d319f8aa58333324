//! The GPU rows: every Rust kernel, its CUDA C twin and cuBLAS at each size, plus bandwidth.
use tessera::{Algo, DeviceBuffer, DeviceMatrix, Gpu, GpuTimer};
use tessera_anchors::{Cublas, CudaC};

use tessera::catalogue::random::operands as random_vec;

use crate::cpu::median;
use crate::traffic::global_bytes;
use crate::report::{shape_label, Bandwidth, Check, Row, Scorecard};
use crate::{Args, Fail, Problem};

/// Target GPU time per timed batch: long enough to dwarf event resolution and launch gaps.
const BATCH_MS: f64 = 100.0;

/// Any error, as its message.
fn s<E: std::fmt::Display>(e: E) -> Fail {
    e.to_string().into()
}

/// Times `work` as the median over `repeat` batches of event-timed back-to-back launches, after a
/// warm-up; the batch length is chosen from one trial launch so that each batch lasts ~BATCH_MS.
fn time(gpu: &Gpu, repeat: usize, mut work: impl FnMut() -> Result<(), Fail>) -> Result<f64, Fail> {
    let timer = GpuTimer::new(gpu).map_err(s)?;
    let trial = timer.time_ms(gpu, 2, 1, &mut work)?;
    let iters = ((BATCH_MS / trial.max(1e-3)).ceil() as usize).clamp(1, 2000);
    let mut times = Vec::with_capacity(repeat);
    for _ in 0..repeat {
        times.push(timer.time_ms(gpu, 1, iters, &mut work)?);
    }
    Ok(median(&mut times))
}

/// Which implementation a row measures.
#[derive(Clone, Copy)]
enum Impl {
    Rust(Algo),
    CudaC(Algo),
    Cublas,
}

pub fn measure_all(gpu: &Gpu, problems: &[Problem], args: &Args, repeat: usize, card: &mut Scorecard) -> Result<(), Fail> {
    let info = gpu.info().map_err(s)?;
    card.device = Some(info.name.clone());
    card.compute_capability = Some(format!("{}{}", info.compute_capability.0, info.compute_capability.1));
    card.sm_count = Some(info.sm_count);
    card.sm_clock_mhz = Some(info.sm_clock_khz as f64 / 1e3);
    card.peak_fp32_gflops = info.peak_fp32_flops().map(|f| f / 1e9);

    let cuda_c = CudaC::new(gpu).map_err(s)?;
    let cublas = Cublas::new(gpu).map_err(s)?;
    let algos: Vec<Algo> = Algo::ALL.into_iter().filter(|a| args.kernels.is_empty() || args.kernels.iter().any(|k| k == a.label())).collect();
    if algos.is_empty() {
        return Err(format!("--kernels matched none of {:?}", Algo::ALL.map(|a| a.label())).into());
    }
    let mut impls: Vec<Impl> = Vec::new();
    for &a in &algos {
        impls.push(Impl::Rust(a));
        if CudaC::has(a) {
            impls.push(Impl::CudaC(a));
        }
    }
    impls.push(Impl::Cublas);

    let total = problems.len() * impls.len();
    let mut step = 0;
    for problem in problems {
        let (shape, a, b) = (problem.shape, &problem.a, &problem.b);
        let da = DeviceMatrix::<f32>::from_host(gpu, a).map_err(s)?;
        let db = DeviceMatrix::<f32>::from_host(gpu, b).map_err(s)?;
        for &imp in &impls {
            step += 1;
            let (name, key, bytes) = match imp {
                Impl::Rust(al) => (format!("{} (Rust)", al.label()), al.label().to_string(), Some(global_bytes(al, shape))),
                Impl::CudaC(al) => (format!("{} (CUDA C)", al.label()), format!("cuda-c-{}", al.label()), Some(global_bytes(al, shape))),
                Impl::Cublas => ("cuBLAS SGEMM (FP32)".to_string(), "cublas".to_string(), Some(shape.min_bytes())),
            };
            eprintln!("[scorecard] {step}/{total} {} {name}", shape_label(shape));
            let run = |dc: &mut DeviceMatrix| -> Result<(), Fail> {
                match imp {
                    Impl::Rust(al) => gpu.matmul(al, &da, &db, dc).map_err(s),
                    Impl::CudaC(al) => cuda_c.matmul(gpu, al, &da, &db, dc).map_err(s),
                    Impl::Cublas => cublas.sgemm(&da, &db, dc).map_err(s),
                }
            };
            // Poison C with NaN, run once, check against the reference, then time.
            let mut dc = DeviceMatrix::<f32>::from_host(gpu, &tessera::HostMatrix::from_fn(a.rows, b.cols, |_, _| f32::NAN)).map_err(s)?;
            run(&mut dc)?;
            gpu.synchronize().map_err(s)?;
            let check = problem.reference.check(&dc.to_host(gpu).map_err(s)?);
            let ms = time(gpu, repeat, || run(&mut dc))?;
            card.rows.push(Row::new(shape, &name, &key, ms, check, bytes));
        }
    }

    if args.vec_len > 0 {
        measure_bandwidth(gpu, &cuda_c, args.vec_len, repeat, card)?;
    }
    Ok(())
}

/// vec_add (Rust and CUDA C) against a device-to-device copy of the same length.
fn measure_bandwidth(gpu: &Gpu, cuda_c: &CudaC, n: usize, repeat: usize, card: &mut Scorecard) -> Result<(), Fail> {
    eprintln!("[scorecard] bandwidth: vec_add and device copy, {n} floats");
    let (ha, hb) = (random_vec(n, 11), random_vec(n, 12));
    let da = DeviceBuffer::from_host(gpu, &ha).map_err(s)?;
    let db = DeviceBuffer::from_host(gpu, &hb).map_err(s)?;
    let mut dc = DeviceBuffer::<f32>::zeros(gpu, n).map_err(s)?;
    let expected: Vec<f32> = ha.iter().zip(&hb).map(|(x, y)| x + y).collect();

    let mut entries = Vec::new();
    for (name, which) in [("vec_add one thread per element (Rust)", 0), ("vec_add float4 grid-stride (Rust)", 2), ("vec_add one thread per element (CUDA C)", 1)] {
        let run = |dc: &mut DeviceBuffer<f32>| -> Result<(), Fail> {
            match which {
                0 => gpu.vec_add_scalar(&da, &db, dc).map_err(s),
                2 => gpu.vec_add(&da, &db, dc).map_err(s),
                _ => cuda_c.vec_add(gpu, &da, &db, dc).map_err(s),
            }
        };
        run(&mut dc)?;
        let check = if dc.to_host(gpu).map_err(s)? == expected { Check::Ok } else { Check::Failed };
        let ms = time(gpu, repeat, || run(&mut dc))?;
        entries.push((name.to_string(), 12.0 * n as f64, ms, check));
    }
    let mut dst = DeviceBuffer::<f32>::zeros(gpu, n).map_err(s)?;
    let ms = time(gpu, repeat, || gpu.stream().memcpy_dtod(da.as_cuda_slice(), dst.as_cuda_slice_mut()).map_err(s))?;
    let copy_gbs = 8.0 * n as f64 / (ms * 1e-3) / 1e9;
    card.copy_gb_per_s = Some(copy_gbs);
    entries.push(("device-to-device copy (read + write)".to_string(), 8.0 * n as f64, ms, Check::Skipped));
    for (name, bytes, ms, check) in entries {
        card.bandwidth.push(Bandwidth { name, elements: n, bytes, ms, gb_per_s: bytes / (ms * 1e-3) / 1e9, pct_of_copy: None, check });
    }
    Ok(())
}
