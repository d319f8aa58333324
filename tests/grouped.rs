//! Kernels 26 and 28 on the GPU (a batch or groups of BF16/FP16 products, or a batch of FP32 ones, in
//! one launch), through the public API: every tile and `Auto` on odd shapes — partial K-steps and tiles, broadcast operands, gaps
//! (NaN) between a batch's matrices and outputs, groups of 0 and 1 rows and groups that end inside a
//! tile — each product against the f64 reference, nothing outside the outputs written, and the
//! typed refusals before any work (the `Gpu` usable after each). Without a GPU each trial is
//! reported ignored.
use tessera::catalogue::plan::grouped::{Products, Stack};
use tessera::catalogue::registry::grouped::GROUPED_KERNELS;
use tessera::catalogue::testkit::grouped::{check_products, stack_values, UNTOUCHED};
use tessera::{bf16, f16, DeviceBuffer, DeviceElement, DeviceMatrix, Error, Gpu, GroupedAlgo, MatrixStack, MatrixStackMut, Precision};
use tessera_tests::{gpu_trial, run};

fn algos(precision: Precision) -> impl Iterator<Item = GroupedAlgo> {
    GROUPED_KERNELS.iter().filter(move |k| k.precision == precision).map(|k| k.algo).chain([GroupedAlgo::Auto])
}

/// A buffer of `values` in the input type.
fn upload<T: DeviceElement>(gpu: &Gpu, values: &[f32], from: fn(f32) -> T) -> Result<DeviceBuffer<T>, String> {
    let v: Vec<T> = values.iter().map(|&x| from(x)).collect();
    DeviceBuffer::from_host(gpu, &v).map_err(|e| e.to_string())
}

fn batch_in<T: DeviceElement>(gpu: &Gpu, precision: Precision, from: fn(f32) -> T) -> Result<(), String> {
    // 3 products of 130×136×72 (A and C with gaps, B shared), then 4 of 64×40×136 (A shared).
    let cases = [
        (Stack { count: 3, rows: 130, cols: 72, stride: 130 * 72 + 24 }, Stack { count: 3, rows: 72, cols: 136, stride: 0 }, 136 * 130 + 8),
        (Stack { count: 4, rows: 64, cols: 136, stride: 0 }, Stack { count: 4, rows: 136, cols: 40, stride: 136 * 40 }, 64 * 40),
    ];
    for (i, (sa, sb, c_stride)) in cases.into_iter().enumerate() {
        let sc = Stack { count: sa.count, rows: sa.rows, cols: sb.cols, stride: c_stride };
        let (va, vb) = (stack_values(sa, precision, 10 + i as u64), stack_values(sb, precision, 20 + i as u64));
        let (a, b) = (upload(gpu, &va, from)?, upload(gpu, &vb, from)?);
        for algo in algos(precision) {
            let mut c = DeviceBuffer::from_host(gpu, &vec![UNTOUCHED; sc.span().unwrap()]).map_err(|e| e.to_string())?;
            gpu.matmul_batched(
                algo,
                MatrixStack::new(&a, sa.count, sa.rows, sa.cols, sa.stride),
                MatrixStack::new(&b, sb.count, sb.rows, sb.cols, sb.stride),
                MatrixStackMut::new(&mut c, sc.count, sc.rows, sc.cols, sc.stride),
            )
            .map_err(|e| format!("{algo:?}: {e}"))?;
            let got = c.to_host(gpu).map_err(|e| e.to_string())?;
            check_products(precision, Products::Batched { a: sa, b: sb, c: sc }, &va, &vb, &got)
                .map_err(|e| format!("{algo:?} case {i}: {e}"))?;
        }
    }
    Ok(())
}

/// An FP32 batch (kernel 28) on every tile and `Auto`: N = 130 (the by-rows twin) and 136, gaps
/// between A's and C's matrices, B shared.
fn batch_f32(gpu: &Gpu) -> Result<(), String> {
    for n in [130usize, 136] {
        let (m, k, count) = (70, 36, 3);
        let sa = Stack { count, rows: m, cols: k, stride: m * k + 12 };
        let sb = Stack { count, rows: k, cols: n, stride: 0 };
        let sc = Stack { count, rows: m, cols: n, stride: m * n + 4 };
        let (va, vb) = (stack_values(sa, Precision::Fp32, 70), stack_values(sb, Precision::Fp32, 71));
        let (a, b) = (upload(gpu, &va, |x| x)?, upload(gpu, &vb, |x| x)?);
        for algo in algos(Precision::Fp32) {
            let mut c = DeviceBuffer::from_host(gpu, &vec![UNTOUCHED; sc.span().unwrap()]).map_err(|e| e.to_string())?;
            gpu.matmul_batched(
                algo,
                MatrixStack::new(&a, count, m, k, sa.stride),
                MatrixStack::new(&b, count, k, n, 0),
                MatrixStackMut::new(&mut c, count, m, n, sc.stride),
            )
            .map_err(|e| format!("{algo:?}: {e}"))?;
            let got = c.to_host(gpu).map_err(|e| e.to_string())?;
            check_products(Precision::Fp32, Products::Batched { a: sa, b: sb, c: sc }, &va, &vb, &got)
                .map_err(|e| format!("{algo:?} N = {n}: {e}"))?;
        }
    }
    Ok(())
}

fn groups_in<T: DeviceElement>(gpu: &Gpu, precision: Precision, from: fn(f32) -> T) -> Result<(), String> {
    let offsets = [3u32, 3, 4, 131, 260, 260, 900];
    let (m, n, k) = (1000, 264, 200);
    let sa = Stack { count: 1, rows: m, cols: k, stride: 0 };
    let sb = Stack { count: 6, rows: k, cols: n, stride: k * n + 8 };
    let (va, vb) = (stack_values(sa, precision, 30), stack_values(sb, precision, 31));
    let a = DeviceMatrix::from_buffer(m, k, upload(gpu, &va, from)?).map_err(|e| e.to_string())?;
    let b = upload(gpu, &vb, from)?;
    for algo in algos(precision) {
        let mut c = DeviceMatrix::from_buffer(m, n, DeviceBuffer::from_host(gpu, &vec![UNTOUCHED; m * n]).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        gpu.matmul_grouped(algo, &a, MatrixStack::new(&b, sb.count, k, n, sb.stride), &offsets, &mut c)
            .map_err(|e| format!("{algo:?}: {e}"))?;
        let got = c.to_vec(gpu).map_err(|e| e.to_string())?;
        check_products(precision, Products::Grouped { m, k, b: sb, offsets: &offsets }, &va, &vb, &got)
            .map_err(|e| format!("{algo:?}: {e}"))?;
    }
    Ok(())
}

fn s(buf: &DeviceBuffer<bf16>, stride: usize) -> MatrixStack<'_, bf16> {
    MatrixStack::new(buf, 4, 8, 8, stride)
}

fn refusals(gpu: &Gpu) -> Result<(), String> {
    let a = DeviceBuffer::<bf16>::zeros(gpu, 4 * 64).map_err(|e| e.to_string())?;
    let mut c = DeviceBuffer::<f32>::zeros(gpu, 4 * 64).map_err(|e| e.to_string())?;
    let expect = |what: &str, r: Result<(), Error>, ok: fn(&Error) -> bool| match r {
        Err(e) if ok(&e) => Ok(()),
        other => Err(format!("{what}: {other:?}")),
    };
    expect(
        "C overlapping itself",
        gpu.matmul_batched(GroupedAlgo::Auto, s(&a, 64), s(&a, 64), MatrixStackMut::new(&mut c, 4, 8, 8, 32)),
        |e| matches!(e, Error::InvalidArgument { .. }),
    )?;
    expect(
        "a short buffer",
        gpu.matmul_batched(GroupedAlgo::Auto, MatrixStack::new(&a, 4, 8, 8, 65), s(&a, 64), MatrixStackMut::new(&mut c, 4, 8, 8, 64)),
        |e| matches!(e, Error::BufferTooSmall { .. }),
    )?;
    expect(
        "a kernel of the other precision",
        gpu.matmul_batched(GroupedAlgo::F16, s(&a, 64), s(&a, 64), MatrixStackMut::new(&mut c, 4, 8, 8, 64)),
        |e| matches!(e, Error::PrecisionMismatch { .. }),
    )?;
    let x = DeviceBuffer::<f32>::zeros(gpu, 4 * 64).map_err(|e| e.to_string())?;
    let sx = MatrixStack::new(&x, 4, 8, 8, 62);
    expect("FP32 matrices off 16 bytes", gpu.matmul_batched(GroupedAlgo::Auto, sx, sx, MatrixStackMut::new(&mut c, 4, 8, 8, 64)), |e| {
        matches!(e, Error::Unaligned { .. })
    })?;
    let am = DeviceMatrix::<bf16>::zeros(gpu, 32, 8).map_err(|e| e.to_string())?;
    let mut cm = DeviceMatrix::<f32>::zeros(gpu, 32, 8).map_err(|e| e.to_string())?;
    expect("offsets that decrease", gpu.matmul_grouped(GroupedAlgo::Auto, &am, s(&a, 64), &[0, 9, 8, 20, 32], &mut cm), |e| {
        matches!(e, Error::InvalidArgument { .. })
    })?;
    expect("offsets past A", gpu.matmul_grouped(GroupedAlgo::Auto, &am, s(&a, 64), &[0, 9, 10, 20, 33], &mut cm), |e| {
        matches!(e, Error::InvalidArgument { .. })
    })?;
    // Still usable: a valid grouped product runs.
    gpu.matmul_grouped(GroupedAlgo::Auto, &am, s(&a, 64), &[0, 9, 10, 20, 32], &mut cm).map_err(|e| e.to_string())?;
    gpu.synchronize().map_err(|e| e.to_string())
}

fn main() {
    run(vec![
        gpu_trial("batched_bf16_matches_the_reference_in_every_tile", |g| batch_in(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("batched_f16_matches_the_reference_in_every_tile", |g| batch_in(g, Precision::Fp16, f16::from_f32)),
        gpu_trial("batched_f32_matches_the_reference_in_every_tile", batch_f32),
        gpu_trial("grouped_bf16_matches_the_reference_in_every_tile", |g| groups_in(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("grouped_f16_matches_the_reference_in_every_tile", |g| groups_in(g, Precision::Fp16, f16::from_f32)),
        gpu_trial("batched_and_grouped_refusals_are_typed_before_any_work", refusals),
    ]);
}
