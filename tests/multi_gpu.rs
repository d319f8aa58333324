//! The distributed GEMM and the blocked (past 2³¹ elements) path on GPUs: results against the f64
//! reference and the single-GPU path, the transfer pipeline forced through many chunks and blocks,
//! typed errors (too few GPUs, wrong device, shapes, out of memory) with every GPU usable after.
//!
//! Without a GPU every trial is reported ignored ("skipped: no CUDA device"); trials that need two
//! GPUs are ignored on a one-GPU machine ("skipped: needs 2 GPUs"). Runs one trial at a time (the
//! out-of-memory trial fills a GPU).
use std::sync::OnceLock;

use libtest_mimic::{Arguments, Failed, Trial};
use tessera::catalogue::plan::blocks::{Limits, MAX_LAUNCH_ROWS};
use tessera::catalogue::plan::distribute::DistOptions;
use tessera::catalogue::testkit::check::check_in;
use tessera::catalogue::testkit::random::hashed;
use tessera::{bf16, f16, Algo, DeviceBuffer, DeviceMatrix, Error, HostMatrix, MatmulShape, MultiGpu, Precision};
use tessera_tests::seed;

/// Every visible GPU, opened once; `Err` says why there is none.
fn multi() -> Result<&'static MultiGpu, &'static str> {
    static MULTI: OnceLock<Result<MultiGpu, String>> = OnceLock::new();
    MULTI.get_or_init(|| MultiGpu::all().map_err(|e| e.to_string())).as_ref().map_err(|e| e.as_str())
}

/// A trial that needs at least `gpus` GPUs (ignored, and counted in the skip line, otherwise).
fn trial(name: &str, gpus: usize, body: impl FnOnce(&MultiGpu) -> Result<(), String> + Send + 'static) -> Trial {
    let available = multi().is_ok_and(|m| m.len() >= gpus);
    Trial::test(name, move || match multi() {
        Ok(m) if m.len() >= gpus => body(m).map_err(Failed::from),
        Ok(m) => Err(Failed::from(format!("needs {gpus} GPUs, {} visible", m.len()))),
        Err(why) => Err(Failed::from(format!("no GPU: {why}"))),
    })
    .with_ignored_flag(!available)
}

fn e(err: Error) -> String {
    err.to_string()
}

/// A product of `precision` on GPU 0 through `multi`, downloaded, and checked against the f64
/// reference of the rounded inputs.
fn check_root(multi: &MultiGpu, precision: Precision, shape: (usize, usize, usize), salt: u64) -> Result<HostMatrix, String> {
    check_root_seeded(multi, precision, shape, seed(salt))
}

/// [`check_root`] with the operands of seed `s`.
fn check_root_seeded(multi: &MultiGpu, precision: Precision, (m, n, k): (usize, usize, usize), s: u64) -> Result<HostMatrix, String> {
    let (a, b) = (HostMatrix::random(m, k, s), HostMatrix::random(k, n, s + 1));
    let root = &multi.gpus()[0];
    let mut c =
        DeviceMatrix::<f32>::from_host(root, &HostMatrix::new(m, n, vec![f32::NAN; m * n]).map_err(|e| e.to_string())?).map_err(e)?;
    match precision {
        Precision::Fp32 | Precision::Tf32 => {
            let (da, db) = (DeviceMatrix::<f32>::from_host(root, &a).map_err(e)?, DeviceMatrix::<f32>::from_host(root, &b).map_err(e)?);
            if precision == Precision::Tf32 {
                multi.matmul_tf32(Algo::Auto, &da, &db, &mut c).map_err(e)?
            } else {
                multi.matmul(Algo::Auto, &da, &db, &mut c).map_err(e)?
            }
        }
        Precision::Bf16 => {
            let (da, db) = (DeviceMatrix::<bf16>::from_host(root, &a).map_err(e)?, DeviceMatrix::<bf16>::from_host(root, &b).map_err(e)?);
            multi.matmul(Algo::Auto, &da, &db, &mut c).map_err(e)?
        }
        Precision::Fp16 => {
            let (da, db) = (DeviceMatrix::<f16>::from_host(root, &a).map_err(e)?, DeviceMatrix::<f16>::from_host(root, &b).map_err(e)?);
            multi.matmul(Algo::Auto, &da, &db, &mut c).map_err(e)?
        }
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => return Err(format!("{precision:?}: no FP8 GEMM kernel yet")),
    }
    let got = c.to_host(root).map_err(e)?;
    check_in(precision, &a, &b, &got).map_err(|err| format!("{precision:?} {m}×{n}×{k} on {} GPU(s), seed {s}: {err}", multi.len()))?;
    Ok(got)
}

/// Options that push small products through every path: many chunks of B, a lead band of one
/// tile, several return bands, and a launch limit that cuts each band into packed blocks.
fn forcing_options() -> DistOptions {
    DistOptions {
        root_waits_for_sends: true,
        b_chunks: 5,
        lead_rows: 128,
        return_pieces: 3,
        limits: Limits { launch_elems: 150_000, block_elems: 60_000, max_rows: MAX_LAUNCH_ROWS },
    }
}

const SHAPES: [(usize, usize, usize); 6] =
    [(1, 1, 1), (130, 72, 300), (1000, 1037, 519), (700, 640, 2048), (2048, 256, 4096), (33, 1000, 16)];

fn main() {
    if std::env::var_os("NCCL_NVLS_ENABLE").is_none() {
        // Process-wide, so set before any thread starts: NVLink multicast stays off (see tessera::multi).
        std::env::set_var("NCCL_NVLS_ENABLE", "0");
    }
    let mut trials = Vec::new();
    for precision in [Precision::Fp32, Precision::Bf16, Precision::Tf32, Precision::Fp16] {
        trials.push(trial(&format!("distributed_{}_matches_reference", precision.label()), 1, move |m| {
            SHAPES.iter().enumerate().try_for_each(|(i, &s)| check_root(m, precision, s, 100 + i as u64).map(|_| ()))
        }));
    }
    trials.push(trial("single_gpu_and_split_from_host_both_match_reference", 2, |m| {
        // The same operands on one GPU (Gpu::matmul) and split from the host: both within the rule.
        let (mm, n, k) = (1536, 2048, 3000);
        let s = seed(7);
        let (a, b) = (HostMatrix::random(mm, k, s), HostMatrix::random(k, n, s + 1));
        let single = m.gpus()[0].matmul_host(Algo::Auto, &a, &b).map_err(e)?;
        let split = m.matmul_host_in(Precision::Fp32, Algo::Auto, &a, &b).map_err(e)?.to_host(m).map_err(e)?;
        check_in(Precision::Fp32, &a, &b, &single).map_err(|x| format!("single: {x}"))?;
        check_in(Precision::Fp32, &a, &b, &split).map_err(|x| format!("split: {x}"))
    }));
    trials.push(trial("forced_chunks_and_blocks_match_reference", 1, |m| {
        // A MultiGpu over the same GPUs with forcing options (its own NCCL communicators).
        let forced = MultiGpu::new(m.len()).map_err(e)?.with_options(forcing_options());
        for (i, &s) in SHAPES.iter().enumerate() {
            check_root(&forced, Precision::Fp32, s, 200 + i as u64)?;
            check_root(&forced, Precision::Bf16, s, 300 + i as u64)?;
        }
        Ok(())
    }));
    trials.push(trial("one_gpu_is_the_single_gpu_path_bit_for_bit", 1, |m| {
        // Bit for bit only where Auto's kernel stores C: split-K and stream-K add their partial sums
        // in whatever order they arrive (Auto runs stream-K at 1000×1037×519). N and
        // K unaligned, so the by-rows epilogue and the element-wise loads run.
        let (rows, cols, depth) = (1000, 1037, 97);
        let shape = MatmulShape { m: rows as u32, n: cols as u32, k: depth as u32 };
        let gpu = &m.gpus()[0];
        let plan = gpu.plan(Algo::Auto, Precision::Fp32, (rows, cols, depth)).map_err(e)?;
        if plan.launches().iter().any(|l| l.launch.zero_c) {
            return Err(format!("premise: Auto adds into C at {shape:?} ({plan}); pick a shape where it stores C"));
        }
        let one = MultiGpu::new(1).map_err(e)?;
        let s = seed(11);
        let got = check_root_seeded(&one, Precision::Fp32, (rows, cols, depth), s)?;
        let (a, b) = (HostMatrix::random(rows, depth, s), HostMatrix::random(depth, cols, s + 1));
        let single = m.gpus()[0].matmul_host(Algo::Auto, &a, &b).map_err(e)?;
        let same = got.data.iter().zip(&single.data).all(|(x, y)| x.to_bits() == y.to_bits());
        same.then_some(()).ok_or_else(|| "one-GPU MultiGpu differs from Gpu::matmul".to_string())
    }));
    trials.push(trial("from_host_row_blocks_match_reference_and_sample", 1, |m| {
        for (precision, shape) in [(Precision::Fp32, (1000, 700, 519)), (Precision::Bf16, (513, 300, 1024)), (Precision::Fp32, (5, 3, 0))] {
            let s = seed(13);
            let (a, b) = (HostMatrix::random(shape.0, shape.2, s), HostMatrix::random(shape.2, shape.1, s + 1));
            let rows = m.matmul_host_in(precision, Algo::Auto, &a, &b).map_err(e)?;
            let got = rows.to_host(m).map_err(e)?;
            check_in(precision, &a, &b, &got).map_err(|x| format!("{precision:?} {shape:?}: {x}"))?;
            let points: Vec<(usize, usize)> = (0..20).map(|i| ((i * 37) % shape.0, (i * 11) % shape.1)).collect();
            let sampled = rows.sample(m, &points).map_err(e)?;
            for (&(r, c), v) in points.iter().zip(sampled) {
                if v.to_bits() != got.get(r, c).to_bits() {
                    return Err(format!("sample ({r}, {c}) = {v}, download {}", got.get(r, c)));
                }
            }
        }
        Ok(())
    }));
    trials.push(trial("single_gpu_product_past_2_31_elements", 1, |m| past_2_31(&m.gpus()[0])));
    trials.push(trial("too_few_gpus_and_bad_inputs_are_typed", 1, typed_errors));
    trials.push(trial("operand_on_another_gpu_is_wrong_context", 2, |m| {
        let other = &m.gpus()[1];
        let a = DeviceMatrix::<f32>::zeros(other, 4, 4).map_err(e)?;
        let b = DeviceMatrix::<f32>::zeros(&m.gpus()[0], 4, 4).map_err(e)?;
        let mut c = DeviceMatrix::<f32>::zeros(&m.gpus()[0], 4, 4).map_err(e)?;
        match m.matmul(Algo::Auto, &a, &b, &mut c) {
            Err(Error::WrongContext { .. }) => check_root(m, Precision::Fp32, (130, 72, 300), 17).map(|_| ()),
            other => Err(format!("A on GPU 1: {other:?}")),
        }
    }));
    trials.push(trial("out_of_memory_on_one_gpu_is_typed_and_all_gpus_stay_usable", 2, out_of_memory));
    trials.push(trial("link_bandwidth_is_measured", 2, |m| {
        let r = m.link_bandwidth(64 << 20, 3).map_err(e)?;
        let rates = std::iter::once(r.broadcast_gb_s).chain(r.send_gb_s.iter().copied()).chain(r.peer_copy_gb_s.iter().copied());
        for rate in rates {
            // Even PCIe without peer access moves 64 MiB at well over 1 GB/s.
            if !(rate.is_finite() && rate > 1.0) {
                return Err(format!("{r:?}"));
            }
        }
        Ok(())
    }));
    if let Err(why) = multi() {
        println!("skipped: no CUDA device ({why}) — {} GPU test(s) not run, reported as ignored", trials.len());
    } else if let Ok(m) = multi() {
        let skipped = trials.iter().filter(|t| t.has_ignored_flag()).count();
        if skipped > 0 {
            println!("skipped: needs 2 GPUs, {} visible — {skipped} test(s) not run, reported as ignored", m.len());
        }
    }
    let mut args = Arguments::from_args();
    args.test_threads.get_or_insert(1);
    libtest_mimic::run(&args, trials).exit()
}

/// `Gpu::matmul` on `A` of 65,600 × 32,769 (2.15·10⁹ elements, past i32::MAX): cut into blocks, each
/// within the kernels' 32-bit indexing. Rows sampled against the f64 reference.
fn past_2_31(gpu: &tessera::Gpu) -> Result<(), String> {
    let (m, k, n) = (65_600usize, 32_769usize, 64usize);
    let len = m * k;
    assert!(len > i32::MAX as usize);
    let mut a = vec![0f32; len];
    let threads = std::thread::available_parallelism().map_or(4, |t| t.get());
    std::thread::scope(|scope| {
        for (i, chunk) in a.chunks_mut(len.div_ceil(threads)).enumerate() {
            let start = i * len.div_ceil(threads);
            scope.spawn(move || chunk.iter_mut().enumerate().for_each(|(j, x)| *x = hashed(21, (start + j) as u64)));
        }
    });
    let a = HostMatrix::new(m, k, a).map_err(|x| x.to_string())?;
    let b = HostMatrix::random(k, n, seed(22));
    let da = DeviceMatrix::<f32>::from_host(gpu, &a).map_err(e)?;
    let db = DeviceMatrix::<f32>::from_host(gpu, &b).map_err(e)?;
    let mut dc = DeviceMatrix::<f32>::zeros(gpu, m, n).map_err(e)?;
    gpu.matmul(Algo::Auto, &da, &db, &mut dc).map_err(e)?;
    gpu.synchronize().map_err(e)?;
    for r in [0usize, 1, 8191, 32_768, 40_000, m - 1] {
        let row = dc.buffer().to_host_range(gpu, r * n..(r + 1) * n).map_err(e)?;
        for (j, &got) in row.iter().enumerate() {
            let (mut want, mut abs) = (0f64, 0f64);
            for p in 0..k {
                let t = f64::from(a.data[r * k + p]) * f64::from(b.data[p * n + j]);
                want += t;
                abs += t.abs();
            }
            let tol = Precision::Fp32.tolerance(k, abs);
            if (f64::from(got) - want).abs() > tol {
                return Err(format!("C[{r}][{j}] = {got}, want {want} ± {tol:.3e}"));
            }
        }
    }
    Ok(())
}

fn typed_errors(m: &MultiGpu) -> Result<(), String> {
    let visible = tessera::device_count().map_err(e)?;
    match MultiGpu::new(visible + 1) {
        Err(Error::TooFewGpus { requested, available }) if requested == visible + 1 && available == visible => {}
        other => return Err(format!("{} GPUs requested: {:?}", visible + 1, other.map(|_| ()))),
    }
    if !matches!(MultiGpu::new(0), Err(Error::InvalidArgument { .. })) {
        return Err("0 GPUs accepted".into());
    }
    let root = &m.gpus()[0];
    let z = |r, c| DeviceMatrix::<f32>::zeros(root, r, c).map_err(e);
    let mut c = z(4, 7)?;
    match m.matmul(Algo::Auto, &z(4, 5)?, &z(6, 7)?, &mut c) {
        Err(Error::ShapeMismatch { .. }) => {}
        other => return Err(format!("4×5 · 6×7: {other:?}")),
    }
    let mut c4 = z(4, 4)?;
    if !matches!(m.matmul(Algo::MmaPipeTf32, &z(4, 4)?, &z(4, 4)?, &mut c4), Err(Error::PrecisionMismatch { .. })) {
        return Err("a TF32 kernel on f32 data through matmul accepted".into());
    }
    // A 4×4 matrix over 3 elements cannot be made; swapped in through buffer_mut, the launch refuses it.
    let three = || DeviceBuffer::<f32>::zeros(root, 3).map_err(e);
    if !matches!(DeviceMatrix::from_buffer(4, 4, three()?), Err(Error::BufferTooSmall { len: 3, needed: 16, .. })) {
        return Err("a 4×4 matrix over 3 elements made".into());
    }
    let mut short = z(4, 4)?;
    *short.buffer_mut() = three()?;
    if !matches!(m.matmul(Algo::Auto, &z(4, 4)?, &short, &mut c4), Err(Error::BufferTooSmall { name: "B", .. })) {
        return Err("B of 3 elements accepted".into());
    }
    let (a3, b3) = (HostMatrix::random(3, 4, 1), HostMatrix::random(5, 2, 2));
    if !matches!(m.matmul_host_in(Precision::Fp32, Algo::Auto, &a3, &b3), Err(Error::ShapeMismatch { .. })) {
        return Err("host 3×4 · 5×2 accepted".into());
    }
    // Every GPU still computes.
    check_root(m, Precision::Fp32, (130, 72, 300), 19).map(|_| ())
}

/// Fills GPU 1 until less than a product's part is free: the product is refused with
/// `OutOfMemoryOn { ordinal: 1 }` before anything is sent; after the filler is freed the same
/// product runs and is right.
fn out_of_memory(m: &MultiGpu) -> Result<(), String> {
    let gpu1 = &m.gpus()[1];
    m.release_buffers().map_err(e)?;
    let (free, _) = gpu1.memory_info().map_err(e)?;
    // Leave about 384 MiB: less than the 512 MiB margin plus GPU 1's part of a 4096³ product.
    let hog = DeviceBuffer::<u8>::zeros(gpu1, free.saturating_sub(384 << 20)).map_err(e)?;
    gpu1.synchronize().map_err(e)?;
    let root = &m.gpus()[0];
    let (a, b) = (HostMatrix::random(4096, 4096, 1), HostMatrix::random(4096, 4096, 2));
    let (da, db) = (DeviceMatrix::<f32>::from_host(root, &a).map_err(e)?, DeviceMatrix::<f32>::from_host(root, &b).map_err(e)?);
    let mut dc = DeviceMatrix::<f32>::zeros(root, 4096, 4096).map_err(e)?;
    match m.matmul(Algo::Auto, &da, &db, &mut dc) {
        Err(Error::OutOfMemoryOn { ordinal: 1, .. }) => {}
        other => return Err(format!("with GPU 1 full: {other:?}")),
    }
    drop(hog);
    m.synchronize().map_err(e)?; // the free is queued on GPU 1's stream
    m.matmul(Algo::Auto, &da, &db, &mut dc).map_err(e)?;
    let got = dc.to_host(root).map_err(e)?;
    // Rows on both GPUs: spot-check a band of rows against the f64 reference.
    let rows = |r0: usize| HostMatrix::new(64, 4096, a.data[r0 * 4096..(r0 + 64) * 4096].to_vec()).unwrap();
    for r0 in [0, 2048, 4032] {
        let part = HostMatrix::new(64, 4096, got.data[r0 * 4096..(r0 + 64) * 4096].to_vec()).unwrap();
        check_in(Precision::Fp32, &rows(r0), &b, &part).map_err(|x| format!("rows {r0}..: {x}"))?;
    }
    Ok(())
}
