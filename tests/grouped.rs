//! Kernels 26, 28 and 30 on the GPU (a batch or groups of BF16/FP16 products, or a batch of FP32
//! ones, in one launch; batches strided or of pointers), through the public API: every tile and
//! `Auto` on odd shapes — partial K-steps and tiles, K and N off 16 bytes, broadcast operands, gaps
//! (NaN) between a batch's matrices and outputs, groups of 0 and 1 rows and groups that end inside a
//! tile — each product against the f64 reference, nothing outside the outputs written, and the
//! typed refusals before any work (the `Gpu` usable after each). Without a GPU each trial is
//! reported ignored.
use tessera::catalogue::plan::grouped::{Products, Stack};
use tessera::catalogue::registry::grouped::GROUPED_KERNELS;
use tessera::catalogue::testkit::grouped::{check_finished_products, check_pointer_products, check_products, stack_values, UNTOUCHED};
use tessera::catalogue::testkit::random;
use tessera::{
    bf16, f16, Activation, BiasKind, DeviceBuffer, DeviceElement, DeviceMatrix, Error, GemmEpilogue, Gpu, GroupedAlgo, MatrixStack,
    MatrixStackMut, OutputElement, Precision,
};
use tessera_tests::{gpu_trial, run};

/// Every tile of `precision` and `Auto`.
fn algos(precision: Precision) -> impl Iterator<Item = GroupedAlgo> {
    GROUPED_KERNELS.iter().filter(move |k| k.precision == precision).map(|k| k.algo).chain([GroupedAlgo::Auto])
}

/// The tiles of `precision` that read through pointers (kernels 28 and 30: `pointers`) or tensor
/// maps (kernel 26), and `Auto`.
fn algos_reading(precision: Precision, pointers: bool) -> impl Iterator<Item = GroupedAlgo> {
    algos(precision).filter(move |a| a.kernel().is_none_or(|k| k.host.pointers() == pointers))
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
    for algo in algos_reading(precision, false) {
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

/// Kernel 30 (and `Auto`) on a batch kernel 26 cannot read: K = 37 and N = 45 (rows off 16 bytes),
/// `C`'s matrices 3 floats off a multiple of 4.
fn odd_rows_in<T: DeviceElement>(gpu: &Gpu, precision: Precision, from: fn(f32) -> T) -> Result<(), String> {
    let (m, n, k, count) = (70, 45, 37, 3);
    let sa = Stack { count, rows: m, cols: k, stride: 2600 };
    let sb = Stack { count, rows: k, cols: n, stride: 1672 };
    let sc = Stack { count, rows: m, cols: n, stride: m * n + 3 };
    let (va, vb) = (stack_values(sa, precision, 40), stack_values(sb, precision, 41));
    let (a, b) = (upload(gpu, &va, from)?, upload(gpu, &vb, from)?);
    for algo in algos_reading(precision, true) {
        let mut c = DeviceBuffer::from_host(gpu, &vec![UNTOUCHED; sc.span().unwrap()]).map_err(|e| e.to_string())?;
        gpu.matmul_batched(
            algo,
            MatrixStack::new(&a, count, m, k, sa.stride),
            MatrixStack::new(&b, count, k, n, sb.stride),
            MatrixStackMut::new(&mut c, count, m, n, sc.stride),
        )
        .map_err(|e| format!("{algo:?}: {e}"))?;
        let got = c.to_host(gpu).map_err(|e| e.to_string())?;
        check_products(precision, Products::Batched { a: sa, b: sb, c: sc }, &va, &vb, &got).map_err(|e| format!("{algo:?}: {e}"))?;
    }
    Ok(())
}

fn slices(v: &[Vec<f32>]) -> Vec<&[f32]> {
    v.iter().map(|x| x.as_slice()).collect()
}

/// A batch of pointers (kernels 28 and 30) on every tile and `Auto`: 3 products of 130×68×40, each
/// matrix its own allocation, A's first matrix standing in twice.
fn pointers_in<T: DeviceElement>(gpu: &Gpu, precision: Precision, from: fn(f32) -> T) -> Result<(), String> {
    let (m, n, k, count) = (130, 68, 40, 3);
    let values = |rows: usize, cols: usize, seed: u64| -> Vec<Vec<f32>> {
        (0..count).map(|i| random::operands(rows * cols, seed + i as u64).into_iter().map(|x| precision.round_input(x)).collect()).collect()
    };
    let (va, vb) = (values(m, k, 50), values(k, n, 60));
    let upload_all = |v: &[Vec<f32>], rows, cols| -> Result<Vec<DeviceMatrix<T>>, String> {
        v.iter().map(|x| DeviceMatrix::from_buffer(rows, cols, upload(gpu, x, from)?).map_err(|e| e.to_string())).collect()
    };
    let (a, b) = (upload_all(&va, m, k)?, upload_all(&vb, k, n)?);
    let ra = [&a[0], &a[1], &a[0]];
    let rb: Vec<&DeviceMatrix<T>> = b.iter().collect();
    let va = [va[0].clone(), va[1].clone(), va[0].clone()];
    for algo in algos_reading(precision, true) {
        let mut c: Vec<DeviceMatrix<f32>> = (0..count)
            .map(|_| DeviceMatrix::from_slice(gpu, m, n, &vec![UNTOUCHED; m * n]).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        let mut rc: Vec<&mut DeviceMatrix<f32>> = c.iter_mut().collect();
        gpu.matmul_batched_pointers(algo, &ra, &rb, &mut rc).map_err(|e| format!("{algo:?}: {e}"))?;
        let got: Vec<Vec<f32>> = c.iter().map(|x| x.to_vec(gpu).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
        check_pointer_products(precision, (m, n, k), &slices(&va), &slices(&vb), &slices(&got)).map_err(|e| format!("{algo:?}: {e}"))?;
    }
    Ok(())
}

/// Kernel 26's finishing twins on every tile and `Auto`: a batch into `O` with GELU and a bias per
/// column, and groups into `O` with SiLU and a bias per token; each product by the one epilogue rule.
fn finished_in<T: DeviceElement, O: OutputElement>(gpu: &Gpu, precision: Precision, from: fn(f32) -> T) -> Result<(), String> {
    let e = |e: tessera::Error| e.to_string();
    let bias_values = |len: usize| (0..len).map(|i| ((i * 7 % 11) as f32 - 5.0) * 0.25).collect::<Vec<f32>>();
    // A batch: A with gaps, B shared, C's matrices 16 bytes apart in O.
    let (m, n, k, count) = (130, 136, 72, 3);
    let sa = Stack { count, rows: m, cols: k, stride: m * k + 24 };
    let sb = Stack { count, rows: k, cols: n, stride: 0 };
    let sc = Stack { count, rows: m, cols: n, stride: m * n + 8 };
    let (va, vb) = (stack_values(sa, precision, 80), stack_values(sb, precision, 81));
    let (a, b) = (upload(gpu, &va, from)?, upload(gpu, &vb, from)?);
    let columns = bias_values(n);
    let bias = DeviceBuffer::from_host(gpu, &columns).map_err(e)?;
    let gelu = GemmEpilogue::new().bias(BiasKind::PerColumn, &bias).activation(Activation::GeluTanh);
    // Groups: 0, 1, 127, 129 and 643 rows.
    let offsets = [3u32, 3, 4, 131, 260, 903];
    let (gm, gn, gk) = (1000, 264, 200);
    let ga_stack = Stack { count: 1, rows: gm, cols: gk, stride: 0 };
    let gb_stack = Stack { count: 5, rows: gk, cols: gn, stride: gk * gn + 8 };
    let (gva, gvb) = (stack_values(ga_stack, precision, 82), stack_values(gb_stack, precision, 83));
    let ga = DeviceMatrix::from_buffer(gm, gk, upload(gpu, &gva, from)?).map_err(e)?;
    let gb = upload(gpu, &gvb, from)?;
    let rows = bias_values(gm);
    let row_bias = DeviceBuffer::from_host(gpu, &rows).map_err(e)?;
    let silu = GemmEpilogue::new().bias(BiasKind::PerRow, &row_bias).activation(Activation::Silu);
    for algo in algos_reading(precision, false) {
        let mut c = DeviceBuffer::from_host(gpu, &vec![O::from_f32(UNTOUCHED); sc.span().unwrap()]).map_err(e)?;
        gpu.matmul_batched_with(
            algo,
            &gelu,
            MatrixStack::new(&a, count, m, k, sa.stride),
            MatrixStack::new(&b, count, k, n, 0),
            MatrixStackMut::new(&mut c, count, m, n, sc.stride),
        )
        .map_err(|err| format!("{algo:?} batch: {err}"))?;
        let got: Vec<f32> = c.to_host(gpu).map_err(e)?.into_iter().map(|x| x.to_f32()).collect();
        let products = Products::Batched { a: sa, b: sb, c: sc };
        check_finished_products(
            precision,
            products,
            (&va, &vb),
            &got,
            (O::FORMAT, 1.0, Activation::GeluTanh),
            Some((BiasKind::PerColumn, &columns)),
        )
        .map_err(|err| format!("{algo:?} batch: {err}"))?;
        let mut gc = DeviceMatrix::from_slice(gpu, gm, gn, &vec![O::from_f32(UNTOUCHED); gm * gn]).map_err(e)?;
        gpu.matmul_grouped_with(algo, &silu, &ga, MatrixStack::new(&gb, 5, gk, gn, gb_stack.stride), &offsets, &mut gc)
            .map_err(|err| format!("{algo:?} groups: {err}"))?;
        let got: Vec<f32> = gc.to_vec(gpu).map_err(e)?.into_iter().map(|x| x.to_f32()).collect();
        let products = Products::Grouped { m: gm, k: gk, b: gb_stack, offsets: &offsets };
        check_finished_products(
            precision,
            products,
            (&gva, &gvb),
            &got,
            (O::FORMAT, 1.0, Activation::Silu),
            Some((BiasKind::PerRow, &rows)),
        )
        .map_err(|err| format!("{algo:?} groups: {err}"))?;
    }
    Ok(())
}

/// Kernel 30's tiles and `Auto` writing plain sums into a 16-bit `C` (`O`): rows of 4 columns on 8
/// bytes, and K = 37, N = 45 with `C`'s matrices 3 elements off 8 bytes (one element a thread).
fn plain_16_in<T: DeviceElement, O: OutputElement>(gpu: &Gpu, precision: Precision, from: fn(f32) -> T) -> Result<(), String> {
    let e = |e: tessera::Error| e.to_string();
    for (m, n, k, count, c_stride) in [(130, 136, 72, 3, 130 * 136 + 8), (70, 45, 37, 3, 70 * 45 + 3)] {
        let sa = Stack { count, rows: m, cols: k, stride: (m * k).next_multiple_of(8) + 24 };
        let sb = Stack { count, rows: k, cols: n, stride: 0 };
        let sc = Stack { count, rows: m, cols: n, stride: c_stride };
        let (va, vb) = (stack_values(sa, precision, 84), stack_values(sb, precision, 85));
        let (a, b) = (upload(gpu, &va, from)?, upload(gpu, &vb, from)?);
        for algo in algos_reading(precision, true) {
            let mut c = DeviceBuffer::from_host(gpu, &vec![O::from_f32(UNTOUCHED); sc.span().unwrap()]).map_err(e)?;
            gpu.matmul_batched_with(
                algo,
                &GemmEpilogue::new(),
                MatrixStack::new(&a, count, m, k, sa.stride),
                MatrixStack::new(&b, count, k, n, 0),
                MatrixStackMut::new(&mut c, count, m, n, sc.stride),
            )
            .map_err(|err| format!("{algo:?} {m}×{n}×{k}: {err}"))?;
            let got: Vec<f32> = c.to_host(gpu).map_err(e)?.into_iter().map(|x| x.to_f32()).collect();
            let products = Products::Batched { a: sa, b: sb, c: sc };
            check_finished_products(precision, products, (&va, &vb), &got, (O::FORMAT, 1.0, Activation::Identity), None)
                .map_err(|err| format!("{algo:?} {m}×{n}×{k}: {err}"))?;
        }
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
    let (p, q) = (
        DeviceMatrix::<bf16>::zeros(gpu, 8, 8).map_err(|e| e.to_string())?,
        DeviceMatrix::<bf16>::zeros(gpu, 8, 4).map_err(|e| e.to_string())?,
    );
    let mut out = [
        DeviceMatrix::<f32>::zeros(gpu, 8, 8).map_err(|e| e.to_string())?,
        DeviceMatrix::<f32>::zeros(gpu, 8, 8).map_err(|e| e.to_string())?,
    ];
    let [o0, o1] = &mut out;
    expect("pointers of two shapes", gpu.matmul_batched_pointers(GroupedAlgo::Auto, &[&p, &p], &[&p, &q], &mut [o0, o1]), |e| {
        matches!(e, Error::ShapeMismatch { .. })
    })?;
    expect("pointers on kernel 26", gpu.matmul_batched_pointers(GroupedAlgo::Bf16, &[&p, &p], &[&p, &p], &mut [o0, o1]), |e| {
        matches!(e, Error::NoKernel { .. })
    })?;
    // Still usable: a valid batch of pointers and a valid grouped product run.
    gpu.matmul_batched_pointers(GroupedAlgo::Auto, &[&p, &p], &[&p, &p], &mut [o0, o1]).map_err(|e| e.to_string())?;
    gpu.matmul_grouped(GroupedAlgo::Auto, &am, s(&a, 64), &[0, 9, 10, 20, 32], &mut cm).map_err(|e| e.to_string())?;
    gpu.synchronize().map_err(|e| e.to_string())
}

fn main() {
    run(vec![
        gpu_trial("batched_bf16_matches_the_reference_in_every_tile", |g| batch_in(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("batched_f16_matches_the_reference_in_every_tile", |g| batch_in(g, Precision::Fp16, f16::from_f32)),
        gpu_trial("batched_f32_matches_the_reference_in_every_tile", batch_f32),
        gpu_trial("batched_bf16_with_rows_off_16_bytes_runs_kernel_30", |g| odd_rows_in(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("batched_f16_with_rows_off_16_bytes_runs_kernel_30", |g| odd_rows_in(g, Precision::Fp16, f16::from_f32)),
        gpu_trial("pointers_f32_match_the_reference_in_every_tile", |g| pointers_in(g, Precision::Fp32, |x| x)),
        gpu_trial("finished_bf16_into_bf16_in_every_tile", |g| finished_in::<bf16, bf16>(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("finished_f16_into_f16_in_every_tile", |g| finished_in::<f16, f16>(g, Precision::Fp16, f16::from_f32)),
        gpu_trial("finished_bf16_into_f32_in_every_tile", |g| finished_in::<bf16, f32>(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("batched_bf16_into_bf16_on_kernel_30", |g| plain_16_in::<bf16, bf16>(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("batched_f16_into_bf16_on_kernel_30", |g| plain_16_in::<f16, bf16>(g, Precision::Fp16, f16::from_f32)),
        gpu_trial("batched_bf16_into_f16_on_kernel_30", |g| plain_16_in::<bf16, f16>(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("pointers_bf16_match_the_reference_in_every_tile", |g| pointers_in(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("pointers_f16_match_the_reference_in_every_tile", |g| pointers_in(g, Precision::Fp16, f16::from_f32)),
        gpu_trial("grouped_bf16_matches_the_reference_in_every_tile", |g| groups_in(g, Precision::Bf16, bf16::from_f32)),
        gpu_trial("grouped_f16_matches_the_reference_in_every_tile", |g| groups_in(g, Precision::Fp16, f16::from_f32)),
        gpu_trial("batched_and_grouped_refusals_are_typed_before_any_work", refusals),
    ]);
}
