//! Every tessera kernel (matmul, vec_add, iterated_fma), run on the CPU executor with the launch the GPU
//! uses (the catalogue's, so it cannot drift), checked against the catalogue's f64 reference. The matmul
//! trials are generated from the catalogue: one per kernel, named by its label, so a new kernel is
//! tested without an edit here.
use libtest_mimic::{Arguments, Failed, Trial};
use tessera_catalogue::algo::{case_label, matmul_cases};
use tessera_catalogue::launch::{elementwise, grid_stride};
use tessera_catalogue::precision::check_in;
use tessera_catalogue::random::operands;
use tessera_catalogue::{Algo, HostMatrix, MatmulShape, Precision};
use tessera_emulator::{launch, Launch, SyncPtr};
use tessera_kernels::{iterated_fma, vec_add, vec_add_vec4};

fn check_algo_on_shape(algo: Algo, precision: Precision, (m, n, k): (usize, usize, usize)) -> Result<(), Failed> {
    let label = case_label(algo, precision);
    let (a, b) = (HostMatrix::random(m, k, 1 + m as u64), HostMatrix::random(k, n, 7 + n as u64));
    let c = tessera_emulator::ops::matmul_in(precision, algo, &a, &b).map_err(|e| format!("{label}: {e}"))?;
    check_in(precision, &a, &b, &c).map_err(|mismatch| format!("{label} on {m}×{n}×{k}: {mismatch}").into())
}

/// M×N×K shapes: a single element, shapes that are no multiple of any tile in any dimension, K
/// spanning one and several K-steps, and aligned shapes (N, K multiples of 4 and of 8) that take the
/// vector / `cp.async` fast paths of kernels 5–10 and 12–13 on interior blocks (130 × 132: one full
/// 128×128 block plus edges; K = 36: full K-steps plus a partial one for BK = 16; 129 × 264 × 72:
/// a full 128×256 tensor-core tile, K over three 32-wide steps, the last one partial).
const SHAPES: [(usize, usize, usize); 6] = [(1, 1, 1), (17, 33, 9), (65, 63, 31), (130, 132, 36), (129, 260, 24), (129, 264, 72)];

/// Split-K with more than one slice: 130×70 is 2 output tiles of 128×128, so K = 300 splits in 4
/// (slices of 80, the last 60: ending inside a K-step) and K = 520 in 8 (interior, aligned slices).
fn split_k_sums_its_slices() -> Result<(), Failed> {
    // The model's slice counts (`tuning::splits_for`) on deep-K shapes with small outputs: several
    // slices, the last one ragged (K not a multiple of the slice), on every split-K tile.
    for algo in [Algo::SplitK128x128x16, Algo::SplitK64x64x16, Algo::SplitK128x32x16, Algo::SplitK32x128x16] {
        for (m, n, k) in [(130, 70, 300), (33, 17, 2000), (5, 3, 1031)] {
            let shape = MatmulShape { m, n, k };
            let got = algo.splits(shape);
            if got != tessera_catalogue::tuning::splits_for(algo, shape) || algo.launch(shape).grid.2 != got {
                return Err(format!("{}: {m}×{n}×{k}: launch and model disagree on the slices", algo.label()).into());
            }
            if k >= 1000 && got < 2 {
                return Err(format!("{}: {m}×{n}×{k}: {got} slice(s), expected several", algo.label()).into());
            }
            check_algo_on_shape(algo, Precision::Fp32, (m as usize, n as usize, k as usize))?;
        }
    }
    Ok(())
}

fn main() {
    // Every kernel of the catalogue in its precision (and `Auto` in each) on every shape, one trial
    // per case.
    let mut trials: Vec<Trial> = matmul_cases()
        .into_iter()
        .map(|(algo, p)| {
            Trial::test(format!("matmul_{}_matches_reference", case_label(algo, p)), move || {
                SHAPES.into_iter().try_for_each(|s| check_algo_on_shape(algo, p, s))
            })
        })
        .collect();
    trials.push(Trial::test("split_k_sums_its_slices", split_k_sums_its_slices));
    trials.push(Trial::test("vec_add_matches_elementwise_sum", vec_add_matches_elementwise_sum));
    trials.push(Trial::test("vec_add_vec4_grid_stride_matches_elementwise_sum", vec_add_vec4_grid_stride_matches_elementwise_sum));
    trials.push(Trial::test("vec_add_vec4_in_place_accumulates", vec_add_vec4_in_place_accumulates));
    trials.push(Trial::test("iterated_fma_matches_mul_add_chain_bit_for_bit", iterated_fma_matches_mul_add_chain_bit_for_bit));
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}

fn vec_add_matches_elementwise_sum() -> Result<(), Failed> {
    for n in [1usize, 1000, 4097] {
        let (a, b) = (operands(n, 3), operands(n, 4));
        let mut c = vec![f32::NAN; n];
        let cfg = Launch::from(elementwise("vec_add", n, vec_add::BLOCK)?);
        let (pa, pb, pc) = (SyncPtr::from_const(a.as_ptr()), SyncPtr::from_const(b.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
        launch("vec_add", cfg, || {
            // SAFETY: the three buffers hold n floats and outlive the launch.
            unsafe { vec_add::vec_add(pa.get(), pb.get(), pc.get(), n) }
        })
        .unwrap();
        for i in 0..n {
            // One f32 addition per element: the emulator must give exactly what the GPU gives.
            assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "n = {n}, element {i}");
        }
    }
    Ok(())
}

fn vec_add_vec4_grid_stride_matches_elementwise_sum() -> Result<(), Failed> {
    // Lengths with every remainder mod 4; 2 "SMs" cap the grid at 16 blocks = 4,096 threads, so the
    // 20,003-element case loops (5,000 quads) and the others do not.
    for n in [1usize, 2, 3, 4, 1001, 4098, 20_003] {
        let (a, b) = (operands(n, 5), operands(n, 6));
        let mut c = vec![f32::NAN; n];
        let cfg = Launch::from(grid_stride(n, 2));
        let (pa, pb, pc) = (SyncPtr::from_const(a.as_ptr()), SyncPtr::from_const(b.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
        launch("vec_add_vec4", cfg, || {
            // SAFETY: the three buffers hold n floats and outlive the launch (the host build of
            // View::get4 reads unaligned, so Vec's 4-byte alignment is enough here).
            unsafe { vec_add_vec4::vec_add_vec4(pa.get(), pb.get(), pc.get(), n) }
        })
        .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        for i in 0..n {
            assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "n = {n}, element {i}");
        }
    }
    Ok(())
}

/// `c = a + b` with `c` the same buffer as `a` (`a += b`): how tessera's blocked products add a K
/// block's product into the block of `C` (the kernel's contract allows exactly this aliasing).
fn vec_add_vec4_in_place_accumulates() -> Result<(), Failed> {
    for n in [3usize, 4098, 20_003] {
        let (a0, b) = (operands(n, 7), operands(n, 8));
        let mut acc = a0.clone();
        let cfg = Launch::from(grid_stride(n, 2));
        let (pa, pb) = (SyncPtr::new(acc.as_mut_ptr()), SyncPtr::from_const(b.as_ptr()));
        launch("vec_add_vec4", cfg, || {
            // SAFETY: acc and b hold n floats and outlive the launch; acc is both an input and the
            // output, as the kernel's contract allows.
            unsafe { vec_add_vec4::vec_add_vec4(pa.get(), pb.get(), pa.get(), n) }
        })
        .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        for i in 0..n {
            assert_eq!(acc[i].to_bits(), (a0[i] + b[i]).to_bits(), "n = {n}, element {i}");
        }
    }
    Ok(())
}

fn iterated_fma_matches_mul_add_chain_bit_for_bit() -> Result<(), Failed> {
    for (n, iters) in [(1usize, 0u32), (300, 1), (1000, 37), (4097, 200)] {
        let (a, b) = (0.999f32, 0.001f32);
        let x = operands(n, 11 + iters as u64);
        let mut y = vec![f32::NAN; n];
        let cfg = Launch::from(elementwise("iterated_fma", n, iterated_fma::BLOCK)?);
        let (px, py) = (SyncPtr::from_const(x.as_ptr()), SyncPtr::new(y.as_mut_ptr()));
        launch("iterated_fma", cfg, || {
            // SAFETY: x and y hold n floats each and outlive the launch.
            unsafe { iterated_fma::iterated_fma(px.get(), py.get(), n, iters, a, b) }
        })
        .unwrap();
        for i in 0..n {
            // The kernel's order: v = x; repeat iters { v = fma(v, a, b) }. f32::mul_add rounds once,
            // exactly like fma.rn.f32, so the CPU reference must agree to the bit.
            let mut want = x[i];
            for _ in 0..iters {
                want = want.mul_add(a, b);
            }
            assert_eq!(y[i].to_bits(), want.to_bits(), "n = {n}, iters = {iters}, element {i}");
        }
    }
    Ok(())
}
