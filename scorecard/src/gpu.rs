//! The GPU rows: every Rust kernel in its precision, its CUDA C twin (FP32) and cuBLAS of the same
//! precision at each size, the measured `mma.sync` and `wgmma` ceilings beside the datasheet peaks, plus
//! bandwidth.
use tessera::catalogue::registry::algo::case_label;
use tessera::catalogue::select::{expected_us, Choice};
use tessera::ops::ceiling::{datasheet_dense_peak, mma_rate_entry, wgmma_rate_entry, MMA_RATE_BLOCK, WGMMA_RATE_BLOCK};
use tessera::{bf16, f16, Algo, AutoTuning, DeviceBuffer, DeviceMatrix, Gpu, GpuTimer, Precision, QueuedTimer};
use tessera_anchors::{Cublas, CudaC};

use tessera::catalogue::testkit::random::operands as random_vec;

use crate::cpu::median;
use crate::report::{cublas_key, shape_label, Bandwidth, Check, MmaCeiling, PeakFigure, Row, Scorecard, WgmmaCeiling};
use crate::traffic::{global_bytes, min_bytes};
use crate::{Args, Fail, Problem, Timing};

/// Target GPU time per timed batch: long enough to dwarf event resolution and launch gaps.
const BATCH_MS: f64 = 100.0;
/// Target GPU time per queued batch: no launch gaps to dwarf, so a fifth of [`BATCH_MS`] (slow rows
/// of a run of many shapes, e.g. `naive` at 1 ms, then take 60 ms instead of 300).
const QUEUED_BATCH_MS: f64 = 20.0;

/// Any error, as its message.
fn s<E: std::fmt::Display>(e: E) -> Fail {
    e.to_string().into()
}

/// Times `work` as the median over `repeat` batches of event-timed back-to-back launches, after a
/// warm-up, at the host's pace (the bandwidth rows and the GEMM variants: launches far longer than
/// queueing them); the batch length is chosen from one trial launch so that each batch lasts ~BATCH_MS.
pub fn time(gpu: &Gpu, repeat: usize, mut work: impl FnMut() -> Result<(), Fail>) -> Result<f64, Fail> {
    let mut clock = Clock::new(gpu, Timing::Paced)?;
    let iters = clock.batch_iters(gpu, &mut work)?;
    let mut times = Vec::with_capacity(repeat);
    for _ in 0..repeat.max(1) {
        times.push(clock.time_ms(gpu, 1, iters, &mut work)?);
    }
    Ok(median(&mut times))
}

/// Most launches per batch: 8 ms of the 4 µs launch-bound shapes (rounds of every implementation
/// keep the runs of 32 random shapes within about two minutes).
const MAX_BATCH: usize = 2_000;
/// Most launches per queued batch: the whole batch must sit in the stream's queue behind the hold
/// (a tessera call queues up to four operations: the padded path's copies, a zeroing, the kernel).
const MAX_QUEUED_BATCH: usize = 200;

/// The matmul rows' timer (`--timing`); a queued one counts its batches and those not held.
enum Clock {
    Paced(GpuTimer),
    Queued { timer: QueuedTimer, batches: usize, unheld: usize },
}

impl Clock {
    fn new(gpu: &Gpu, timing: Timing) -> Result<Self, Fail> {
        Ok(match timing {
            Timing::Paced => Clock::Paced(GpuTimer::new(gpu).map_err(s)?),
            Timing::Queued => Clock::Queued { timer: QueuedTimer::new(gpu).map_err(s)?, batches: 0, unheld: 0 },
        })
    }

    /// Mean milliseconds per run of `work` over a batch of `iters`, after `warmup` runs.
    fn time_ms(&mut self, gpu: &Gpu, warmup: usize, iters: usize, work: impl FnMut() -> Result<(), Fail>) -> Result<f64, Fail> {
        match self {
            Clock::Paced(t) => t.time_ms(gpu, warmup, iters, work),
            Clock::Queued { timer, batches, unheld } => {
                let t = timer.time_ms(gpu, warmup, iters, work)?;
                *batches += 1;
                *unheld += usize::from(!t.held);
                Ok(t.ms)
            }
        }
    }

    /// Launches per timed batch of `work`: from one trial launch (after a warm-up), enough for the
    /// clock's target time ([`BATCH_MS`], [`QUEUED_BATCH_MS`]), at most its batch.
    fn batch_iters(&mut self, gpu: &Gpu, work: impl FnMut() -> Result<(), Fail>) -> Result<usize, Fail> {
        let (target, most) = match self {
            Clock::Queued { .. } => (QUEUED_BATCH_MS, MAX_QUEUED_BATCH),
            Clock::Paced(_) => (BATCH_MS, MAX_BATCH),
        };
        let trial = self.time_ms(gpu, 2, 1, work)?;
        Ok(((target / trial.max(1e-3)).ceil() as usize).clamp(1, most))
    }
}

/// One implementation of a problem being timed: its row's fields, its batch length and the batch
/// times so far.
struct Timed {
    imp: Impl,
    name: String,
    key: String,
    precision: Precision,
    bytes: f64,
    check: Check,
    iters: usize,
    times: Vec<f64>,
    /// What a Rust row ran and the time the models expected of it ([`planned`]).
    plan: (Option<String>, Option<f64>),
}

/// Which implementation a row measures.
#[derive(Clone, Copy)]
enum Impl {
    Rust(Algo, Precision),
    /// FP32 `Auto` through its unaligned path always (`Gpu::matmul_fp32_padded`), on shapes with N or
    /// K not a multiple of 4: the path's measured cost beside the in-place kernels.
    Padded,
    /// `Auto` tuned on request in a precision (`tessera::AutoTuning::Measured`): its shortlist timed on
    /// the shape's first product (the checked run), the fastest timed here.
    Tuned(Precision),
    CudaC(Algo),
    Cublas(Precision),
}

/// One launch of the `mma.sync` ceiling should last at least this long (GPU time).
const CEILING_MS: f64 = 60.0;

/// Times a rate kernel: `launch(iters)` queues one launch and returns its FLOPs. From a trial launch
/// of `trial_iters`, `iters` is chosen so one launch lasts ≥ [`CEILING_MS`]; returns the FLOPs, that
/// `iters` and the median milliseconds of `repeat` launches (CUDA events).
fn time_rate(
    gpu: &Gpu,
    repeat: usize,
    trial_iters: u32,
    mut launch: impl FnMut(u32) -> Result<f64, Fail>,
) -> Result<(f64, u32, f64), Fail> {
    let timer = GpuTimer::new(gpu).map_err(s)?;
    let trial = timer.time_ms(gpu, 1, 1, || launch(trial_iters).map(|_| ()))?;
    let iters =
        (f64::from(trial_iters) * CEILING_MS / trial.max(1e-4)).ceil().clamp(f64::from(trial_iters), f64::from(u32::MAX / 2)) as u32;
    let mut flops = 0.0;
    let mut times = Vec::with_capacity(repeat);
    for _ in 0..repeat.max(1) {
        times.push(timer.time_ms(gpu, 0, 1, || {
            flops = launch(iters)?;
            Ok::<(), Fail>(())
        })?);
    }
    Ok((flops, iters, median(&mut times)))
}

/// Measures the `mma.sync` rate of `precision` on every SM: 8 blocks of 256 threads per SM, `iters`
/// chosen from a trial launch so one launch lasts ≥ [`CEILING_MS`], the median of `repeat` launches
/// (CUDA events).
pub fn measure_mma_ceiling(gpu: &Gpu, precision: Precision, repeat: usize) -> Result<MmaCeiling, Fail> {
    let (entry, _) = mma_rate_entry(precision).ok_or("FP32 has no mma.sync ceiling")?;
    let blocks = 8 * gpu.sm_count().max(1);
    let mut out = DeviceBuffer::<f32>::zeros(gpu, (blocks * MMA_RATE_BLOCK) as usize).map_err(s)?;
    let (flops, iters, ms) = time_rate(gpu, repeat, 1024, |iters| gpu.mma_rate(precision, blocks, iters, &mut out).map_err(s))?;
    Ok(MmaCeiling {
        precision: precision.label().into(),
        tflops: flops / (ms * 1e-3) / 1e12,
        blocks,
        iters,
        ms,
        source: format!("measured, {entry}"),
    })
}

/// Warpgroups per SM the `wgmma` ceiling tries (one warpgroup per block; three is the most that
/// fit beside each other at the kernels' 154 registers per thread).
const WGMMA_WARPGROUPS_PER_SM: [u32; 3] = [1, 2, 3];

/// Measures the `wgmma` rate of `precision` on every SM: for each of [`WGMMA_WARPGROUPS_PER_SM`],
/// `w · SMs` one-warpgroup blocks, `iters` chosen from a trial launch so one launch lasts ≥
/// [`CEILING_MS`], the median of `repeat` launches (CUDA events); the ceiling is the fastest of them,
/// and every one tried is kept.
pub fn measure_wgmma_ceiling(gpu: &Gpu, precision: Precision, repeat: usize) -> Result<WgmmaCeiling, Fail> {
    let (entry, _) = wgmma_rate_entry(precision).ok_or("FP32 has no wgmma ceiling")?;
    let sms = gpu.sm_count().max(1);
    let mut best: Option<WgmmaCeiling> = None;
    let mut tried = Vec::new();
    for w in WGMMA_WARPGROUPS_PER_SM {
        let blocks = w * sms;
        let mut out = DeviceBuffer::<f32>::zeros(gpu, (blocks * WGMMA_RATE_BLOCK) as usize).map_err(s)?;
        let (flops, iters, ms) = time_rate(gpu, repeat, 256, |iters| gpu.wgmma_rate(precision, blocks, iters, &mut out).map_err(s))?;
        let tflops = flops / (ms * 1e-3) / 1e12;
        eprintln!(
            "[scorecard] wgmma ceiling {} with {w} warpgroup(s) per SM: {tflops:.1} TFLOP/s ({iters} iters, {ms:.1} ms)",
            precision.label()
        );
        tried.push((w, tflops));
        if best.as_ref().is_none_or(|b| tflops > b.tflops) {
            best = Some(WgmmaCeiling {
                precision: precision.label().into(),
                tflops,
                blocks,
                warpgroups_per_sm: w,
                iters,
                ms,
                source: format!("measured, {entry}"),
                tried: Vec::new(),
            });
        }
    }
    let mut best = best.ok_or("no wgmma configuration measured")?;
    best.tried = tried;
    Ok(best)
}

/// The operands of one problem on the device, in each input type the run needs.
struct DeviceOperands {
    f32: Option<(DeviceMatrix<f32>, DeviceMatrix<f32>)>,
    bf16: Option<(DeviceMatrix<bf16>, DeviceMatrix<bf16>)>,
    f16: Option<(DeviceMatrix<f16>, DeviceMatrix<f16>)>,
}

impl DeviceOperands {
    fn upload(gpu: &Gpu, problem: &Problem, precisions: &[Precision]) -> Result<Self, Fail> {
        let (a, b) = (&problem.a, &problem.b);
        let needs = |ps: &[Precision]| precisions.iter().any(|p| ps.contains(p));
        Ok(Self {
            f32: if needs(&[Precision::Fp32, Precision::Tf32]) {
                Some((DeviceMatrix::<f32>::from_host(gpu, a).map_err(s)?, DeviceMatrix::<f32>::from_host(gpu, b).map_err(s)?))
            } else {
                None
            },
            bf16: if needs(&[Precision::Bf16]) {
                Some((DeviceMatrix::<bf16>::from_host(gpu, a).map_err(s)?, DeviceMatrix::<bf16>::from_host(gpu, b).map_err(s)?))
            } else {
                None
            },
            f16: if needs(&[Precision::Fp16]) {
                Some((DeviceMatrix::<f16>::from_host(gpu, a).map_err(s)?, DeviceMatrix::<f16>::from_host(gpu, b).map_err(s)?))
            } else {
                None
            },
        })
    }
}

fn missing(what: &str) -> Fail {
    format!("internal: no {what} operands uploaded").into()
}

/// Logs what tuning on request timed for `shape` on its first call (which took `ms` on the host, the
/// timings and the product): each candidate's expected and measured time, and the pick.
fn log_tuned_pick(gpu: &Gpu, shape: tessera::MatmulShape, precision: Precision, ms: f64) -> Result<(), Fail> {
    let picks = gpu.tuned_picks().map_err(s)?;
    let Some(pick) = picks.iter().find(|p| p.shape == shape && p.precision == precision) else {
        return Err(format!("{shape:?} {precision:?}: no tuned pick").into());
    };
    let timed: Vec<String> = pick.timed.iter().map(|(c, us)| format!("{} {:.2}/{:.2}", c.choice.label(), c.expected_us, us)).collect();
    eprintln!(
        "[scorecard] tuned {} {}: {} (first call {ms:.1} ms; expected/measured µs: {})",
        precision.label(),
        shape_label(shape),
        pick.choice.label(),
        if timed.is_empty() { "one candidate, not timed".to_string() } else { timed.join(", ") }
    );
    Ok(())
}

/// Runs `imp` once on `ops`, writing `dc`.
fn run_impl(gpu: &Gpu, cuda_c: &CudaC, cublas: &Cublas, ops: &DeviceOperands, imp: Impl, dc: &mut DeviceMatrix) -> Result<(), Fail> {
    let (m, n) = (dc.rows(), dc.cols());
    match imp {
        Impl::Rust(al, p) => match p {
            Precision::Fp32 => {
                let (a, b) = ops.f32.as_ref().ok_or_else(|| missing("f32"))?;
                gpu.matmul(al, a, b, dc).map_err(s)
            }
            Precision::Tf32 => {
                let (a, b) = ops.f32.as_ref().ok_or_else(|| missing("f32"))?;
                gpu.matmul_tf32(al, a, b, dc).map_err(s)
            }
            Precision::Bf16 => {
                let (a, b) = ops.bf16.as_ref().ok_or_else(|| missing("bf16"))?;
                gpu.matmul(al, a, b, dc).map_err(s)
            }
            Precision::Fp16 => {
                let (a, b) = ops.f16.as_ref().ok_or_else(|| missing("f16"))?;
                gpu.matmul(al, a, b, dc).map_err(s)
            }
            Precision::Fp8E4m3 | Precision::Fp8E5m2 => Err(missing(p.label())),
        },
        Impl::Padded => {
            let (a, b) = ops.f32.as_ref().ok_or_else(|| missing("f32"))?;
            gpu.matmul_fp32_padded(Algo::Auto, a, b, dc).map_err(s)
        }
        Impl::Tuned(p) => {
            gpu.set_auto_tuning(AutoTuning::Measured).map_err(s)?;
            let run = run_impl(gpu, cuda_c, cublas, ops, Impl::Rust(Algo::Auto, p), dc);
            gpu.set_auto_tuning(AutoTuning::Model).map_err(s)?;
            run
        }
        Impl::CudaC(al) => {
            let (a, b) = ops.f32.as_ref().ok_or_else(|| missing("f32"))?;
            cuda_c.matmul(gpu, al, a, b, dc).map_err(s)
        }
        Impl::Cublas(p) => match p {
            Precision::Fp32 => {
                let (a, b) = ops.f32.as_ref().ok_or_else(|| missing("f32"))?;
                cublas.sgemm(a, b, dc).map_err(s)
            }
            Precision::Tf32 => {
                let (a, b) = ops.f32.as_ref().ok_or_else(|| missing("f32"))?;
                cublas.gemm_tf32(a.buffer(), b.buffer(), dc.buffer_mut(), m, n, a.cols()).map_err(s)
            }
            Precision::Bf16 => {
                let (a, b) = ops.bf16.as_ref().ok_or_else(|| missing("bf16"))?;
                cublas.gemm_bf16(a.buffer(), b.buffer(), dc.buffer_mut(), m, n, a.cols()).map_err(s)
            }
            Precision::Fp16 => {
                let (a, b) = ops.f16.as_ref().ok_or_else(|| missing("f16"))?;
                cublas.gemm_f16(a.buffer(), b.buffer(), dc.buffer_mut(), m, n, a.cols()).map_err(s)
            }
            Precision::Fp8E4m3 | Precision::Fp8E5m2 => Err(missing(p.label())),
        },
    }
}

/// What `algo` runs on `shape` in `precision` on this GPU (with its tuned picks, in the current
/// tuning mode) — the plan's one launch described — and the time the models expected of that kernel
/// there. The expected time only for a kernel run on the caller's operands as they are (not FP32's
/// padded copies); nothing for a product in blocks or one that does not plan.
fn planned(gpu: &Gpu, algo: Algo, precision: Precision, shape: tessera::MatmulShape) -> (Option<String>, Option<f64>) {
    let Ok(plan) = gpu.plan(algo, precision, (shape.m as usize, shape.n as usize, shape.k as usize)) else {
        return (None, None);
    };
    match plan.launches().as_slice() {
        [one] => {
            let expected = match one.choice {
                Choice::Kernel(_) => expected_us(one.launch.algo, one.launch.shape, gpu.target()),
                Choice::Padded(_) => None,
            };
            (Some(one.to_string()), expected)
        }
        _ => (None, None),
    }
}

/// The display name of a cuBLAS row.
fn cublas_name(p: Precision) -> String {
    match p {
        Precision::Fp32 => "cuBLAS SGEMM (FP32)".into(),
        p => format!("cuBLAS GemmEx ({}, f32 accumulate)", p.label().to_uppercase()),
    }
}

/// `precision`'s `wgmma` ceiling (sm_90a GPUs) and its datasheet peak (named devices), into `card`.
fn wgmma_ceiling_beside_peak(gpu: &Gpu, device: &str, precision: Precision, repeat: usize, card: &mut Scorecard) -> Result<(), Fail> {
    if gpu.has_sm90a() {
        eprintln!("[scorecard] wgmma ceiling {} (wgmma_rate, 1–3 warpgroups per SM)…", precision.label());
        let w = measure_wgmma_ceiling(gpu, precision, repeat)?;
        eprintln!("[scorecard] wgmma ceiling {}: {:.1} TFLOP/s ({} warpgroup(s) per SM)", precision.label(), w.tflops, w.warpgroups_per_sm);
        card.wgmma_ceilings.push(w);
    }
    if let Some(peak) = datasheet_dense_peak(device, precision) {
        card.datasheet_peaks.push(PeakFigure { precision: precision.label().into(), tflops: peak.tflops, source: peak.source.into() });
    }
    Ok(())
}

pub fn measure_all(
    gpu: &Gpu,
    problems: &[Problem],
    cases: &[(Algo, Precision)],
    precisions: &[Precision],
    args: &Args,
    repeat: usize,
    card: &mut Scorecard,
) -> Result<(), Fail> {
    let info = gpu.info().map_err(s)?;
    card.device = Some(info.name.clone());
    card.compute_capability = Some(format!("{}{}", info.compute_capability.0, info.compute_capability.1));
    card.sm_count = Some(info.sm_count);
    card.sm_clock_mhz = Some(info.sm_clock_khz as f64 / 1e3);
    card.peak_fp32_gflops = info.peak_fp32_flops().map(|f| f / 1e9);

    for &p in precisions.iter().filter(|p| **p != Precision::Fp32) {
        eprintln!("[scorecard] mma.sync ceiling {} (mma_rate, {} blocks of 256 threads)…", p.label(), 8 * gpu.sm_count());
        let c = measure_mma_ceiling(gpu, p, repeat)?;
        eprintln!("[scorecard] mma.sync ceiling {}: {:.1} TFLOP/s ({} iters, {:.1} ms per launch)", p.label(), c.tflops, c.iters, c.ms);
        card.mma_ceilings.push(c);
        wgmma_ceiling_beside_peak(gpu, &info.name, p, repeat, card)?;
    }
    if args.fp8_ceilings {
        for p in [Precision::Fp8E4m3, Precision::Fp8E5m2] {
            wgmma_ceiling_beside_peak(gpu, &info.name, p, repeat, card)?;
        }
    }

    let cuda_c = CudaC::new(gpu).map_err(s)?;
    let cublas = Cublas::new(gpu).map_err(s)?;
    let mut partial = PartialRows::create(&args.out)?;
    // Per precision: its kernels (and Auto), the CUDA C twins of FP32 kernels, then its cuBLAS. The size
    // sweep runs the cases and cuBLAS alone: not Auto's padded path or tuning, not the CUDA C twins.
    let mut impls: Vec<Impl> = Vec::new();
    for &p in precisions {
        let mine: Vec<Algo> = cases.iter().filter(|(_, q)| *q == p).map(|&(a, _)| a).collect();
        if mine.is_empty() {
            continue;
        }
        for &a in &mine {
            impls.push(Impl::Rust(a, p));
            if args.sweep {
                continue;
            }
            if (a, p) == (Algo::Auto, Precision::Fp32) && !args.model_only {
                impls.push(Impl::Padded);
            }
            if a == Algo::Auto && !p.is_fp8() && !args.model_only {
                impls.push(Impl::Tuned(p));
            }
            if p == Precision::Fp32 && CudaC::has(a) {
                impls.push(Impl::CudaC(a));
            }
        }
        impls.push(Impl::Cublas(p));
    }

    let mut clock = Clock::new(gpu, args.timing)?;
    let total = problems.len() * impls.len();
    let mut step = 0;
    for problem in problems {
        let (shape, a, b) = (problem.shape, &problem.a, &problem.b);
        let ops = DeviceOperands::upload(gpu, problem, precisions)?;
        let rounds = crate::rounds(shape, repeat, args.sweep);
        let mut timed: Vec<Timed> = Vec::with_capacity(impls.len());
        let mut scratch: Option<DeviceMatrix> = None;
        for &imp in &impls {
            step += 1;
            // The padded path exists only for shapes with N or K unaligned that fit one launch padded.
            if matches!(imp, Impl::Padded) && tessera::catalogue::select::fp32_padding::padded_shape(shape).is_none() {
                continue;
            }
            let (name, key, precision, bytes) = match imp {
                Impl::Rust(al, p) => {
                    let label = case_label(al, p);
                    let name = if p == Precision::Fp32 {
                        format!("{label} (Rust)")
                    } else {
                        format!("{label} (Rust, {})", p.label().to_uppercase())
                    };
                    (name, label, p, global_bytes(al, p, shape))
                }
                Impl::CudaC(al) => (
                    format!("{} (CUDA C)", al.label()),
                    format!("cuda-c-{}", al.label()),
                    Precision::Fp32,
                    global_bytes(al, Precision::Fp32, shape),
                ),
                Impl::Cublas(p) => (cublas_name(p), cublas_key(p), p, min_bytes(shape, p)),
                Impl::Padded => (
                    "auto-fp32 on padded copies (Rust)".to_string(),
                    "auto-fp32-padded".to_string(),
                    Precision::Fp32,
                    min_bytes(shape, Precision::Fp32),
                ),
                Impl::Tuned(p) => {
                    (format!("auto-{} tuned on request (Rust)", p.label()), crate::summary::tuned_key(p), p, min_bytes(shape, p))
                }
            };
            eprintln!("[scorecard] {step}/{total} {} {name}", shape_label(shape));
            // Poison C with NaN, run once, check against the reference of the precision; the batch
            // length from a trial launch.
            let mut dc = DeviceMatrix::<f32>::from_host(gpu, &tessera::HostMatrix::from_fn(a.rows, b.cols, |_, _| f32::NAN)).map_err(s)?;
            let first = std::time::Instant::now();
            run_impl(gpu, &cuda_c, &cublas, &ops, imp, &mut dc)?;
            gpu.synchronize().map_err(s)?;
            if let Impl::Tuned(p) = imp {
                log_tuned_pick(gpu, shape, p, first.elapsed().as_secs_f64() * 1e3)?;
            }
            let check = problem.reference.check(precision, &dc.to_host(gpu).map_err(s)?);
            let iters = clock.batch_iters(gpu, || run_impl(gpu, &cuda_c, &cublas, &ops, imp, &mut dc))?;
            let plan = match imp {
                Impl::Rust(al, p) => planned(gpu, al, p, shape),
                Impl::Tuned(p) => {
                    gpu.set_auto_tuning(AutoTuning::Measured).map_err(s)?;
                    let plan = planned(gpu, Algo::Auto, p, shape);
                    gpu.set_auto_tuning(AutoTuning::Model).map_err(s)?;
                    plan
                }
                _ => (None, None),
            };
            timed.push(Timed { imp, name, key, precision, bytes, check, iters, times: Vec::with_capacity(rounds), plan });
            scratch.get_or_insert(dc);
        }
        // Timed runs write one scratch C per problem (its contents are checked above, not here): one
        // output in memory at a time, whatever the number of implementations.
        let Some(dc) = scratch.as_mut() else { continue };
        // Rounds: one batch of every implementation per round, the median of the rounds each. A slow
        // drift of the machine (clocks, the host's launch rate on launch-bound shapes) then touches
        // every implementation alike instead of whichever was timed during it.
        for _ in 0..rounds {
            for t in timed.iter_mut() {
                let (imp, iters) = (t.imp, t.iters);
                t.times.push(clock.time_ms(gpu, 1, iters, || run_impl(gpu, &cuda_c, &cublas, &ops, imp, dc))?);
            }
        }
        for mut t in timed {
            let mut row = Row::new(shape, t.precision, &t.name, &t.key, median(&mut t.times), t.check, Some(t.bytes));
            (row.plan, row.expected_us) = t.plan;
            partial.append(&row)?;
            card.rows.push(row);
        }
    }

    card.timing = Some(args.timing.label().to_string());
    if let Clock::Queued { batches, unheld, .. } = clock {
        (card.queued_batches, card.unheld_batches) = (batches, unheld);
        if unheld > 0 {
            eprintln!("[scorecard] warning: {unheld} of {batches} queued batches were not held (timed with launch gaps)");
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
    for (name, which) in [
        ("vec_add one thread per element (Rust)", 0),
        ("vec_add float4 grid-stride (Rust)", 2),
        ("vec_add one thread per element (CUDA C)", 1),
    ] {
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

/// `--out`'s `rows.jsonl`: each problem's rows as they are measured, one JSON object a line, so that a
/// run cut short (a device call's time limit) keeps what it measured; `main` removes the file once
/// `scorecard.json` holds every row.
pub struct PartialRows(std::fs::File);

/// The file name of [`PartialRows`] in `--out`.
pub const PARTIAL_ROWS: &str = "rows.jsonl";

impl PartialRows {
    /// Creates (or empties) `out/rows.jsonl`, `out` too where it is missing.
    pub fn create(out: &std::path::Path) -> Result<PartialRows, Fail> {
        std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
        let path = out.join(PARTIAL_ROWS);
        Ok(PartialRows(std::fs::File::create(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?))
    }

    /// Appends `row` as one line, flushed.
    pub fn append(&mut self, row: &Row) -> Result<(), Fail> {
        use std::io::Write;
        writeln!(self.0, "{}", serde_json::to_string(row)?)?;
        Ok(self.0.flush()?)
    }
}
