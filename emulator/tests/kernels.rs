//! Every tessera kernel (matmul, vec_add, iterated_fma), run on the CPU executor with the launch configuration the GPU launches use
//! (taken from the host crate, so it cannot drift), checked against the host crate's f64 reference.
use tessera::ops::{vec_add_config, Algo};
use tessera::reference::{check_matmul, matmul_reference};
use tessera::HostMatrix;
use tessera_emulator::{launch, Launch, SyncPtr};
use tessera_kernels::vec_add::vec_add;

/// Deterministic values in [-1, 1) (xorshift32).
fn pseudo_random(len: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2_654_435_761).max(1);
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s as f32 / u32::MAX as f32) * 2.0 - 1.0
        })
        .collect()
}

fn check_algo_on_shape(algo: Algo, (m, n, k): (usize, usize, usize)) {
    let a = HostMatrix::new(m, k, pseudo_random(m * k, 1 + m as u32)).unwrap();
    let b = HostMatrix::new(k, n, pseudo_random(k * n, 7 + n as u32)).unwrap();
    let c = tessera_emulator::ops::matmul(algo, &a, &b).unwrap_or_else(|e| panic!("{}: {e}", algo.label()));
    if let Err(mismatch) = check_matmul(&c, &matmul_reference(&a, &b)) {
        panic!("{} on {m}×{n}×{k}: {mismatch}", algo.label());
    }
}

/// M×N×K shapes: a single element, shapes that are no multiple of any tile in any dimension, K
/// spanning one and several K-steps, and aligned shapes (N, K multiples of 4) that take the float4
/// fast path of kernels 5–8 and 10 on interior blocks (130 × 132: one full 128×128 block plus edges; K = 36:
/// full K-steps plus a partial one for BK = 16).
const SHAPES: [(usize, usize, usize); 5] = [(1, 1, 1), (17, 33, 9), (65, 63, 31), (130, 132, 36), (129, 260, 24)];

/// Every kernel of the ladder (and `Auto`) on every shape. One test per algorithm, so a failure names it.
macro_rules! ladder_tests {
    ($($test:ident => $algo:expr;)*) => {$(
        #[test]
        fn $test() {
            for shape in SHAPES {
                check_algo_on_shape($algo, shape);
            }
        }
    )*};
}

ladder_tests! {
    matmul_naive_matches_reference_on_odd_shapes => Algo::Naive;
    matmul_tiled_matches_reference_on_odd_shapes => Algo::Tiled;
    matmul_blocktile_1d_matches_reference => Algo::Blocktile1d;
    matmul_blocktile_2d_matches_reference => Algo::Blocktile2d;
    matmul_vectorized_matches_reference => Algo::Vectorized;
    matmul_conflict_free_matches_reference => Algo::ConflictFree;
    matmul_warptile_matches_reference => Algo::Warptile;
    matmul_dbuf_128x128x8_matches_reference => Algo::Dbuf128x128x8;
    matmul_dbuf_128x128x16_matches_reference => Algo::Dbuf128x128x16;
    matmul_dbuf_128x64x16_matches_reference => Algo::Dbuf128x64x16;
    matmul_dbuf_64x64x16_matches_reference => Algo::Dbuf64x64x16;
    matmul_dbuf_128x256x16_matches_reference => Algo::Dbuf128x256x16;
    matmul_dbuf_128x256x16_rolled_matches_reference => Algo::Dbuf128x256x16Rolled;
    matmul_splitk_128x128x16_matches_reference => Algo::SplitK128x128x16;
    matmul_splitk_64x64x16_matches_reference => Algo::SplitK64x64x16;
    matmul_async_64x64x16_s3_matches_reference => Algo::Async64x64x16s3;
    matmul_auto_matches_reference => Algo::Auto;
}

/// Split-K with more than one slice: 130×70 is 2 output tiles of 128×128, so K = 300 splits in 4
/// (slices of 80, the last 60: ending inside a K-step) and K = 520 in 8 (interior, aligned slices).
#[test]
fn split_k_sums_its_slices() {
    use tessera::ops::MatmulShape;
    for (m, n, k, splits) in [(130, 70, 300, 4), (130, 72, 520, 8)] {
        assert_eq!(Algo::SplitK128x128x16.splits(MatmulShape { m, n, k }), splits, "{m}×{n}×{k}");
        check_algo_on_shape(Algo::SplitK128x128x16, (m as usize, n as usize, k as usize));
    }
}

#[test]
fn every_algo_has_an_emulator_test() {
    // ladder_tests! above names each Algo; this fails when Algo::ALL grows without a test.
    assert_eq!(Algo::ALL.len(), 17, "add the new Algo to ladder_tests! and to kernel_fn, behind tessera_emulator::ops::matmul");
}

#[test]
fn vec_add_matches_elementwise_sum() {
    for n in [1usize, 1000, 4097] {
        let (a, b) = (pseudo_random(n, 3), pseudo_random(n, 4));
        let mut c = vec![f32::NAN; n];
        let cfg = vec_add_config(n).unwrap();
        let cfg = Launch::new(cfg.grid_dim, cfg.block_dim, cfg.shared_mem_bytes as usize);
        let (pa, pb, pc) = (SyncPtr::from_const(a.as_ptr()), SyncPtr::from_const(b.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
        launch("vec_add", cfg, || {
            // SAFETY: the three buffers hold n floats and outlive the launch.
            unsafe { vec_add(pa.get(), pb.get(), pc.get(), n) }
        })
        .unwrap();
        for i in 0..n {
            // One f32 addition per element: the emulator must give exactly what the GPU gives.
            assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "n = {n}, element {i}");
        }
    }
}

#[test]
fn vec_add_vec4_grid_stride_matches_elementwise_sum() {
    use tessera::ops::grid_stride_config;
    use tessera_kernels::vec_add_vec4::vec_add_vec4;
    // Lengths with every remainder mod 4; 2 "SMs" cap the grid at 16 blocks = 4,096 threads, so the
    // 20,003-element case loops (5,000 quads) and the others do not.
    for n in [1usize, 2, 3, 4, 1001, 4098, 20_003] {
        let (a, b) = (pseudo_random(n, 5), pseudo_random(n, 6));
        let mut c = vec![f32::NAN; n];
        let cfg = grid_stride_config(n, 2);
        let cfg = Launch::new(cfg.grid_dim, cfg.block_dim, cfg.shared_mem_bytes as usize);
        let (pa, pb, pc) = (SyncPtr::from_const(a.as_ptr()), SyncPtr::from_const(b.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
        launch("vec_add_vec4", cfg, || {
            // SAFETY: the three buffers hold n floats and outlive the launch (the host build of
            // View::get4 reads unaligned, so Vec's 4-byte alignment is enough here).
            unsafe { vec_add_vec4(pa.get(), pb.get(), pc.get(), n) }
        })
        .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        for i in 0..n {
            assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "n = {n}, element {i}");
        }
    }
}

#[test]
fn iterated_fma_matches_mul_add_chain_bit_for_bit() {
    use tessera::ops::elementwise_config;
    use tessera_kernels::iterated_fma::iterated_fma;
    for (n, iters) in [(1usize, 0u32), (300, 1), (1000, 37), (4097, 200)] {
        let (a, b) = (0.999f32, 0.001f32);
        let x = pseudo_random(n, 11 + iters);
        let mut y = vec![f32::NAN; n];
        let cfg = elementwise_config("iterated_fma", n).unwrap();
        let cfg = Launch::new(cfg.grid_dim, cfg.block_dim, cfg.shared_mem_bytes as usize);
        let (px, py) = (SyncPtr::from_const(x.as_ptr()), SyncPtr::new(y.as_mut_ptr()));
        launch("iterated_fma", cfg, || {
            // SAFETY: x and y hold n floats each and outlive the launch.
            unsafe { iterated_fma(px.get(), py.get(), n, iters, a, b) }
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
}
