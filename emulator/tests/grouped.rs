//! Kernels 26, 28 and 30 (a batch or groups of products in one launch) on the CPU executor, through
//! the plan the host makes for the H200: every tile and `Auto`, BF16 and FP16 (and FP32 batches),
//! strided and of pointers, on odd shapes — partial K-steps, partial tiles, K and N off 16 bytes,
//! groups of 0 and 1 rows and groups that end inside a tile, broadcast operands, gaps (NaN) between
//! a batch's matrices and outputs — each product against the f64 reference and nothing outside the
//! outputs written.
use tessera_catalogue::plan::grouped::{Products, ProductsPlan, Stack};
use tessera_catalogue::precision::Element;
use tessera_catalogue::registry::grouped::{GroupedAlgo, GROUPED_KERNELS};
use tessera_catalogue::testkit::grouped::{check_finished_products, check_pointer_products, check_products, stack_values, UNTOUCHED};
use tessera_catalogue::testkit::random;
use tessera_catalogue::{Activation, BiasKind, OutputFormat, Precision};
use tessera_emulator::grouped::{matmul_pointer_products, matmul_products, matmul_products_with};
use tessera_emulator::ops::HostEpilogue;

fn bits(precision: Precision, values: &[f32]) -> Vec<u16> {
    match precision {
        Precision::Bf16 => values.iter().map(|&x| half::bf16::from_f32(x).to_bits()).collect(),
        _ => values.iter().map(|&x| half::f16::from_f32(x).to_bits()).collect(),
    }
}

/// Runs `products` with `algo` on inputs drawn from `seed` and checks them; returns the plan.
fn run(products: Products<'_>, a: Stack, b: Stack, c_len: usize, precision: Precision, algo: GroupedAlgo, seed: u64) -> ProductsPlan {
    let (va, vb) = (stack_values(a, precision, seed), stack_values(b, precision, seed + 1));
    let mut c = vec![UNTOUCHED; c_len];
    let plan = matmul_products(products, precision, algo, &bits(precision, &va), &bits(precision, &vb), &mut c)
        .unwrap_or_else(|e| panic!("{algo:?} {precision:?}: {e}"));
    check_products(precision, products, &va, &vb, &c).unwrap_or_else(|e| panic!("{algo:?} {precision:?} {products:?}: {e}"));
    plan
}

/// Every tile of `precision` and `Auto`.
fn algos(precision: Precision) -> impl Iterator<Item = GroupedAlgo> {
    GROUPED_KERNELS.iter().filter(move |k| k.precision == precision).map(|k| k.algo).chain([GroupedAlgo::Auto])
}

/// Kernel 26's tiles of `precision` and `Auto`: what runs groups.
fn group_algos(precision: Precision) -> impl Iterator<Item = GroupedAlgo> {
    algos(precision).filter(|a| a.kernel().is_none_or(|k| !k.host.pointers()))
}

#[test]
fn a_strided_batch_matches_the_reference_in_every_tile() {
    // 3 products of 130×136×72: rows past one 128-row tile, columns past one 128-wide tile, a
    // partial K-step; A's and C's matrices with gaps between them, B shared (stride 0).
    let (m, n, k, count) = (130, 136, 72, 3);
    let a = Stack { count, rows: m, cols: k, stride: m * k + 24 };
    let b = Stack { count, rows: k, cols: n, stride: 0 };
    let c = Stack { count, rows: m, cols: n, stride: m * n + 8 };
    for precision in [Precision::Bf16, Precision::Fp16] {
        for (i, algo) in algos(precision).enumerate() {
            let plan = run(Products::Batched { a, b, c }, a, b, c.span().unwrap(), precision, algo, 10 + i as u64);
            assert!(matches!(plan, ProductsPlan::Launch(_)), "{plan:?}");
        }
    }
}

#[test]
fn a_batch_with_its_own_b_per_matrix_and_a_shared_a() {
    let (m, n, k, count) = (64, 40, 136, 4);
    let a = Stack { count, rows: m, cols: k, stride: 0 };
    let b = Stack { count, rows: k, cols: n, stride: k * n };
    let c = Stack { count, rows: m, cols: n, stride: m * n };
    run(Products::Batched { a, b, c }, a, b, c.span().unwrap(), Precision::Bf16, GroupedAlgo::Auto, 3);
}

#[test]
fn groups_of_any_size_match_the_reference_and_leave_other_rows_alone() {
    // Groups of 0, 1, 127, 129 and 0 rows (rows 0..3 and 260.. of C belong to no group), N = 264
    // (past two 128-wide tiles), K = 200.
    let offsets = [3u32, 3, 4, 131, 260, 260];
    let (m, n, k) = (270, 264, 200);
    let a = Stack { count: 1, rows: m, cols: k, stride: 0 };
    let b = Stack { count: 5, rows: k, cols: n, stride: k * n + 8 };
    for precision in [Precision::Bf16, Precision::Fp16] {
        for (i, algo) in group_algos(precision).enumerate() {
            run(Products::Grouped { m, k, b, offsets: &offsets }, a, b, m * n, precision, algo, 40 + i as u64);
        }
    }
}

#[test]
fn an_fp32_batch_runs_kernel_28_in_every_tile_and_row_width() {
    // N = 130 (the by-rows twin) and 136; A's and C's matrices with gaps (strides multiples of 4), B shared.
    for (i, n) in [130usize, 136].into_iter().enumerate() {
        let (m, k, count) = (70, 36, 3);
        let a = Stack { count, rows: m, cols: k, stride: m * k + 12 };
        let b = Stack { count, rows: k, cols: n, stride: 0 };
        let c = Stack { count, rows: m, cols: n, stride: m * n + 4 };
        for (j, algo) in algos(Precision::Fp32).enumerate() {
            let (va, vb) = (stack_values(a, Precision::Fp32, 50 + i as u64), stack_values(b, Precision::Fp32, 60 + j as u64));
            let mut out = vec![UNTOUCHED; c.span().unwrap()];
            let plan = matmul_products(Products::Batched { a, b, c }, Precision::Fp32, algo, &va, &vb, &mut out)
                .unwrap_or_else(|e| panic!("{algo:?}: {e}"));
            let ProductsPlan::Launch(l) = plan else { panic!("{algo:?}: not a launch") };
            assert_eq!(l.entry.ends_with("_by_rows"), n % 4 != 0, "{}", l.entry);
            check_products(Precision::Fp32, Products::Batched { a, b, c }, &va, &vb, &out)
                .unwrap_or_else(|e| panic!("{algo:?} N = {n}: {e}"));
        }
    }
}

#[test]
fn kernel_30_runs_batches_whose_rows_kernel_26_cannot_read() {
    // K = 37 and N = 45 (rows off 16 bytes: element by element), C's matrices 3 floats apart from a
    // multiple of 4; A's and B's strides multiples of 8 elements.
    let (m, n, k, count) = (70, 45, 37, 3);
    let a = Stack { count, rows: m, cols: k, stride: 2600 };
    let b = Stack { count, rows: k, cols: n, stride: 1672 };
    let c = Stack { count, rows: m, cols: n, stride: m * n + 3 };
    for precision in [Precision::Bf16, Precision::Fp16] {
        for (i, algo) in algos(precision).filter(|a| a.kernel().is_none_or(|k| k.host.pointers())).enumerate() {
            let plan = run(Products::Batched { a, b, c }, a, b, c.span().unwrap(), precision, algo, 70 + i as u64);
            let ProductsPlan::Launch(l) = plan else { panic!("{algo:?}: not a launch") };
            assert!(l.kernel.host.pointers(), "{algo:?}: {}", l.kernel.label);
        }
    }
}

/// `count` matrices of `rows × cols`, each its own allocation, random (`seed`) and rounded to `precision`.
fn matrices(count: usize, rows: usize, cols: usize, precision: Precision, seed: u64) -> Vec<Vec<f32>> {
    (0..count).map(|i| random::operands(rows * cols, seed + i as u64).into_iter().map(|x| precision.round_input(x)).collect()).collect()
}

fn slices(v: &[Vec<f32>]) -> Vec<&[f32]> {
    v.iter().map(|x| x.as_slice()).collect()
}

#[test]
fn a_batch_of_pointers_matches_the_reference_in_every_tile() {
    // 3 products of 130×68×40 (K and N multiples of 4 but not of 8 in 16 bits: 8-byte copies), each
    // matrix its own allocation; A's first matrix also A's third (a table may repeat an input).
    let (m, n, k, count) = (130, 68, 40, 3);
    for precision in [Precision::Fp32, Precision::Bf16, Precision::Fp16] {
        let mut a = matrices(count, m, k, precision, 80);
        a[2] = a[0].clone();
        let b = matrices(count, k, n, precision, 90);
        for algo in algos(precision).filter(|a| a.kernel().is_none_or(|k| k.host.pointers())) {
            let mut c: Vec<Vec<f32>> = (0..count).map(|_| vec![UNTOUCHED; m * n]).collect();
            let plan = {
                let mut outs: Vec<&mut [f32]> = c.iter_mut().map(|x| x.as_mut_slice()).collect();
                if precision == Precision::Fp32 {
                    let (ra, rb): (Vec<&[f32]>, Vec<&[f32]>) =
                        (a.iter().map(|x| x.as_slice()).collect(), b.iter().map(|x| x.as_slice()).collect());
                    matmul_pointer_products(precision, algo, (m, n, k), &ra, &rb, &mut outs)
                } else {
                    let (ba, bb): (Vec<Vec<u16>>, Vec<Vec<u16>>) =
                        (a.iter().map(|x| bits(precision, x)).collect(), b.iter().map(|x| bits(precision, x)).collect());
                    let (ra, rb): (Vec<&[u16]>, Vec<&[u16]>) =
                        (ba.iter().map(|x| x.as_slice()).collect(), bb.iter().map(|x| x.as_slice()).collect());
                    matmul_pointer_products(precision, algo, (m, n, k), &ra, &rb, &mut outs)
                }
            }
            .unwrap_or_else(|e| panic!("{precision:?} {algo:?}: {e}"));
            assert!(matches!(plan, ProductsPlan::Launch(_)), "{plan:?}");
            check_pointer_products(precision, (m, n, k), &slices(&a), &slices(&b), &slices(&c))
                .unwrap_or_else(|e| panic!("{precision:?} {algo:?}: {e}"));
        }
    }
}

#[test]
fn a_batch_of_pointers_refuses_matrices_of_the_wrong_size() {
    let (a, b) = (vec![0.0f32; 16], vec![0.0f32; 16]);
    let mut c = [vec![UNTOUCHED; 16], vec![UNTOUCHED; 15]];
    let mut outs: Vec<&mut [f32]> = c.iter_mut().map(|x| x.as_mut_slice()).collect();
    let err = matmul_pointer_products(Precision::Fp32, GroupedAlgo::Auto, (4, 4, 4), &[&a, &a], &[&b, &b], &mut outs).unwrap_err();
    assert!(err.to_string().contains("matrix 1"), "{err}");
    assert!(c.iter().flatten().all(|&x| x == UNTOUCHED));
}

#[test]
fn k_zero_writes_zeros_and_empty_products_write_nothing() {
    let a = Stack { count: 2, rows: 5, cols: 0, stride: 0 };
    let b = Stack { count: 2, rows: 0, cols: 8, stride: 0 };
    let c = Stack { count: 2, rows: 5, cols: 8, stride: 50 };
    let plan = run(Products::Batched { a, b, c }, a, b, c.span().unwrap(), Precision::Bf16, GroupedAlgo::Auto, 1);
    assert_eq!(plan, ProductsPlan::Zero);
    let b = Stack { count: 2, rows: 8, cols: 8, stride: 64 };
    let a = Stack { count: 1, rows: 9, cols: 8, stride: 0 };
    let plan = run(Products::Grouped { m: 9, k: 8, b, offsets: &[2, 2, 2] }, a, b, 72, Precision::Bf16, GroupedAlgo::Auto, 2);
    assert_eq!(plan, ProductsPlan::Nothing);
}

#[test]
fn what_the_plan_refuses_never_launches() {
    let a = Stack { count: 2, rows: 8, cols: 8, stride: 64 };
    let c = Stack { count: 2, rows: 8, cols: 8, stride: 32 };
    let mut out = vec![UNTOUCHED; 100];
    let err = matmul_products(Products::Batched { a, b: a, c }, Precision::Bf16, GroupedAlgo::Auto, &[0u16; 128], &[0u16; 128], &mut out)
        .unwrap_err()
        .to_string();
    assert!(err.contains("overlap"), "{err}");
    assert!(out.iter().all(|&x| x == UNTOUCHED));
}

/// The values a bias of `len` holds in these tests.
fn bias_values(len: usize) -> Vec<f32> {
    (0..len).map(|i| ((i * 7 % 11) as f32 - 5.0) * 0.25).collect()
}

/// Runs `products` through kernel 26's finishing twins (`tile` or `Auto`) into a `C` of `O` and checks
/// every product's `act(α·A·B + bias)` by the one epilogue rule (`check_finished_products`).
#[allow(clippy::too_many_arguments)]
fn run_finished<O: Element>(
    products: Products<'_>,
    (a, b): (Stack, Stack),
    c_len: usize,
    precision: Precision,
    algo: GroupedAlgo,
    (alpha, activation, kind): (f32, Activation, BiasKind),
    out: OutputFormat,
    seed: u64,
) {
    let (va, vb) = (stack_values(a, precision, seed), stack_values(b, precision, seed + 1));
    let mut c = vec![O::from_f32(UNTOUCHED); c_len];
    let (m, n) = match products {
        Products::Batched { c: sc, .. } => (sc.rows, sc.cols),
        Products::Grouped { m, b, .. } => (m, b.cols),
        Products::Pointers { m, n, .. } => (m, n),
    };
    let values = bias_values(kind.len(m, n));
    let epilogue = HostEpilogue { bias: Some((kind, values.clone())), activation };
    let plan = matmul_products_with(products, precision, algo, (alpha, &epilogue), &bits(precision, &va), &bits(precision, &vb), &mut c)
        .unwrap_or_else(|e| panic!("{algo:?} {precision:?} {out:?}: {e}"));
    let ProductsPlan::Launch(l) = plan else { panic!("{algo:?}: not a launch") };
    assert!(l.finished && l.entry.ends_with("_finished"), "{}", l.entry);
    let got: Vec<f32> = c.iter().map(|x| x.to_f32()).collect();
    check_finished_products(precision, products, (&va, &vb), &got, (out, alpha, activation), Some((kind, &values)))
        .unwrap_or_else(|e| panic!("{algo:?} {precision:?} {out:?}: {e}"));
}

#[test]
fn kernel_26_finishes_its_sums_for_batches_and_groups_in_every_tile() {
    // A batch (A with gaps, B shared, partial tiles) and groups of 0, 1, 127 and 129 rows.
    let (m, n, k, count) = (130, 136, 72, 2);
    let a = Stack { count, rows: m, cols: k, stride: m * k + 24 };
    let b = Stack { count, rows: k, cols: n, stride: 0 };
    let offsets = [3u32, 3, 4, 131, 260];
    let (gm, gn, gk) = (262, 72, 64);
    let ga = Stack { count: 1, rows: gm, cols: gk, stride: 0 };
    let gb = Stack { count: 4, rows: gk, cols: gn, stride: gk * gn + 8 };
    for precision in [Precision::Bf16, Precision::Fp16] {
        for (i, algo) in group_algos(precision).enumerate() {
            let seed = 90 + i as u64;
            // BF16 C with GELU and a bias per column, scaled by 2 (exact).
            let c16 = Stack { count, rows: m, cols: n, stride: m * n + 8 };
            let batch = Products::Batched { a, b, c: c16 };
            let e = (2.0, Activation::GeluTanh, BiasKind::PerColumn);
            run_finished::<half::bf16>(batch, (a, b), c16.span().unwrap(), precision, algo, e, OutputFormat::Bf16, seed);
            // f32 C with ReLU and a bias per row (each matrix's rows).
            let c32 = Stack { count, rows: m, cols: n, stride: m * n + 4 };
            let batch = Products::Batched { a, b, c: c32 };
            let e = (1.0, Activation::Relu, BiasKind::PerRow);
            run_finished::<f32>(batch, (a, b), c32.span().unwrap(), precision, algo, e, OutputFormat::F32, seed);
            // Groups into FP16 with SiLU and a bias per token (row).
            let groups = Products::Grouped { m: gm, k: gk, b: gb, offsets: &offsets };
            let e = (1.0, Activation::Silu, BiasKind::PerRow);
            run_finished::<half::f16>(groups, (ga, gb), gm * gn, precision, algo, e, OutputFormat::F16, seed);
        }
    }
}

#[test]
fn finishing_refuses_what_kernel_26_cannot_run() {
    let (a, b) = (Stack { count: 2, rows: 8, cols: 0, stride: 0 }, Stack { count: 2, rows: 0, cols: 8, stride: 0 });
    let c = Stack { count: 2, rows: 8, cols: 8, stride: 64 };
    let epilogue = HostEpilogue { bias: None, activation: Activation::Relu };
    let mut out = vec![half::bf16::from_f32(UNTOUCHED); 136];
    let err = matmul_products_with(
        Products::Batched { a, b, c },
        Precision::Bf16,
        GroupedAlgo::Auto,
        (1.0, &epilogue),
        &[0u16; 0],
        &[0u16; 0],
        &mut out,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("empty sum"), "{err}");
    // A 16-bit C whose matrices start off 16 bytes (4 elements apart from a multiple of 8): kernel 26
    // cannot store it (kernel 30 can: `kernel_30_writes_a_16_bit_c_in_every_tile`).
    let (a, b) = (Stack { count: 2, rows: 8, cols: 8, stride: 64 }, Stack { count: 2, rows: 8, cols: 8, stride: 64 });
    let c = Stack { count: 2, rows: 8, cols: 8, stride: 68 };
    let none = HostEpilogue::default();
    let tile26 = group_algos(Precision::Bf16).find(|a| a.kernel().is_some()).expect("a kernel-26 tile");
    let err = matmul_products_with(
        Products::Batched { a, b, c },
        Precision::Bf16,
        tile26,
        (1.0, &none),
        &[0u16; 128],
        &[0u16; 128],
        &mut out[..136].to_vec(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("16 bytes"), "{err}");
    // Kernel 30 stores plain sums: named with an epilogue, nothing runs it.
    let c = Stack { count: 2, rows: 8, cols: 8, stride: 64 };
    let err = matmul_products_with(
        Products::Batched { a, b, c },
        Precision::Bf16,
        GroupedAlgo::MmaBf16,
        (1.0, &epilogue),
        &[0u16; 128],
        &[0u16; 128],
        &mut out,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("no"), "{err}");
    // Kernel 28 stores `f32` only: named for a 16-bit C, nothing runs it.
    let c = Stack { count: 2, rows: 8, cols: 8, stride: 64 };
    let err = matmul_products_with(
        Products::Batched { a, b, c },
        Precision::Fp32,
        GroupedAlgo::F32,
        (1.0, &none),
        &[0f32; 128],
        &[0f32; 128],
        &mut out,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("no"), "{err}");
}

#[test]
fn kernel_30_writes_a_16_bit_c_in_every_tile() {
    // Aligned rows (4 columns a thread, 8 bytes) in partial tiles, and K = 37, N = 45 with C's
    // matrices 3 elements apart from a multiple of 4 (one element a thread); A with gaps, B shared.
    let cases = [(130, 136, 72, 2, 130 * 136 + 8), (70, 45, 37, 3, 70 * 45 + 3)];
    for (m, n, k, count, c_stride) in cases {
        let a = Stack { count, rows: m, cols: k, stride: (m * k).next_multiple_of(8) + 24 };
        let b = Stack { count, rows: k, cols: n, stride: 0 };
        let c = Stack { count, rows: m, cols: n, stride: c_stride };
        let batch = Products::Batched { a, b, c };
        for precision in [Precision::Bf16, Precision::Fp16] {
            let (va, vb) = (stack_values(a, precision, 7), stack_values(b, precision, 8));
            let tiles = GROUPED_KERNELS.iter().filter(|t| t.precision == precision && t.host.pointers()).map(|t| t.algo);
            for algo in tiles.chain([GroupedAlgo::Auto]) {
                for out in [OutputFormat::Bf16, OutputFormat::F16] {
                    let none = HostEpilogue::default();
                    let (pa, pb) = (bits(precision, &va), bits(precision, &vb));
                    let (plan, got) = if out == OutputFormat::Bf16 {
                        let mut c16 = vec![half::bf16::from_f32(UNTOUCHED); c.span().unwrap()];
                        let plan = matmul_products_with(batch, precision, algo, (1.0, &none), &pa, &pb, &mut c16);
                        (plan, c16.iter().map(|x| x.to_f32()).collect::<Vec<f32>>())
                    } else {
                        let mut c16 = vec![half::f16::from_f32(UNTOUCHED); c.span().unwrap()];
                        let plan = matmul_products_with(batch, precision, algo, (1.0, &none), &pa, &pb, &mut c16);
                        (plan, c16.iter().map(|x| x.to_f32()).collect::<Vec<f32>>())
                    };
                    let plan = plan.unwrap_or_else(|e| panic!("{algo:?} {precision:?} {out:?}: {e}"));
                    let ProductsPlan::Launch(l) = plan else { panic!("{algo:?}: not a launch") };
                    if algo != GroupedAlgo::Auto {
                        assert!(l.kernel.host.pointers() && !l.finished, "{algo:?}: {}", l.entry);
                    }
                    check_finished_products(precision, batch, (&va, &vb), &got, (out, 1.0, Activation::Identity), None)
                        .unwrap_or_else(|e| panic!("{algo:?} {precision:?} {out:?} {m}×{n}×{k}: {e}"));
                }
            }
        }
    }
}
