//! The warp-collective device functions (`device::mma`: `mma.sync`, `ldmatrix`, `cvt.rna.tf32`; `device::warp`: shuffles) on
//! the CPU executor, and the faults it reports for them.
//!
//! The test kernels below load fragments straight from memory following the PTX ISA's fragment
//! tables, written out here a second time (not taken from the implementation), and the references
//! decode the operand bits independently too; so a wrong index on either side shows up as a mismatch.
use tessera_emulator::{launch, EmuError, Launch, SyncPtr};
use tessera_kernels::device::mma::{
    ldmatrix_x2, ldmatrix_x2_trans, ldmatrix_x4, ldmatrix_x4_trans, mma_m16n8k16_bf16, mma_m16n8k16_f16, mma_m16n8k8_tf32, to_tf32,
};
use tessera_kernels::device::{mem::View, shared::SharedTiles, thread};
use tessera_kernels::mma_rate::{mma_rate_bf16, mma_rate_f16, mma_rate_tf32};

/// Operand precision of a test GEMM.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Prec {
    /// TF32 operands given as raw f32 bits: the tensor core ignores the low 13 bits (truncation).
    Tf32Raw,
    /// TF32 operands rounded in the kernel with `to_tf32` (cvt.rna) before the mma.
    Tf32Rounded,
    Bf16,
    F16,
}

impl Prec {
    fn k_step(self) -> usize {
        match self {
            Prec::Tf32Raw | Prec::Tf32Rounded => 8,
            Prec::Bf16 | Prec::F16 => 16,
        }
    }
}

/// Two 16-bit values in one register, the lower index in the low half (the ISA's packing).
fn pack(lo: u32, hi: u32) -> u32 {
    (lo & 0xffff) | (hi & 0xffff) << 16
}

/// xorshift32 stream.
struct Rng(u32);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    /// Uniform in [-1, 1) with a full 23-bit mantissa (for TF32 operands).
    fn f32(&mut self) -> f32 {
        (self.next() >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }
}

/// One test operand element: its bit pattern as the kernel gets it (f32 bits, or a u16 in the low
/// half), and its value as the reference uses it.
fn operand(prec: Prec, rng: &mut Rng, index: usize) -> (u32, f64) {
    match prec {
        Prec::Tf32Raw => {
            let x = rng.f32();
            // The top 19 bits: sign, exponent, 10 mantissa bits.
            (x.to_bits(), f32::from_bits(x.to_bits() & 0xffff_e000) as f64)
        }
        Prec::Tf32Rounded => {
            let x = rng.f32();
            (x.to_bits(), rna_tf32_reference(x))
        }
        Prec::Bf16 => {
            // ±(1 + m/128)·2^e: exact in bf16, whose bits are then the top half of the f32's.
            let (m, e, s) = (rng.next() % 128, (rng.next() % 6) as i32 - 3, rng.next() % 2);
            let v = (1.0 + m as f32 / 128.0) * 2f32.powi(e) * if s == 1 { -1.0 } else { 1.0 };
            assert_eq!(v.to_bits() & 0xffff, 0);
            (v.to_bits() >> 16, v as f64)
        }
        Prec::F16 => {
            let (m, s) = (rng.next() % 1024, rng.next() % 2);
            let sign = if s == 1 { -1.0 } else { 1.0 };
            if index % 17 == 3 {
                // A subnormal: m · 2^-24.
                (s << 15 | m, sign * m as f64 * 2f64.powi(-24))
            } else {
                let e = (rng.next() % 6) as i32 - 3;
                (s << 15 | ((e + 15) as u32) << 10 | m, sign * (1.0 + m as f64 / 1024.0) * 2f64.powi(e))
            }
        }
    }
}

/// cvt.rna.tf32.f32 computed in f64: round to 11 significant bits, ties away from zero.
fn rna_tf32_reference(x: f32) -> f64 {
    let x = x as f64;
    if x == 0.0 {
        return x;
    }
    let quantum = 2f64.powi(x.abs().log2().floor() as i32 - 10);
    (x / quantum).round() * quantum // f64::round rounds ties away from zero
}

struct Gemm {
    m: usize,
    n: usize,
    k: usize,
    a_bits: Vec<u32>,
    b_bits: Vec<u32>,
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f32>,
}

impl Gemm {
    fn new(prec: Prec, (m, n, k): (usize, usize, usize), seed: u32) -> Self {
        let mut rng = Rng(seed | 1);
        let (a_bits, a): (Vec<_>, Vec<_>) = (0..m * k).map(|i| operand(prec, &mut rng, i)).unzip();
        let (b_bits, b): (Vec<_>, Vec<_>) = (0..k * n).map(|i| operand(prec, &mut rng, i)).unzip();
        let c = (0..m * n).map(|_| rng.f32()).collect();
        Self { m, n, k, a_bits, b_bits, a, b, c }
    }

    /// What the emulator promises: per K-step of `step`, `f64(acc) + Σ products` (k ascending),
    /// rounded once to f32.
    fn stepwise_reference(&self, step: usize) -> Vec<f32> {
        let mut d = self.c.clone();
        for (idx, acc) in d.iter_mut().enumerate() {
            let (r, col) = (idx / self.n, idx % self.n);
            for k0 in (0..self.k).step_by(step) {
                let sum = (k0..k0 + step).fold(*acc as f64, |s, kk| s + self.a[r * self.k + kk] * self.b[kk * self.n + col]);
                *acc = sum as f32;
            }
        }
        d
    }

    /// The exact product in f64 (what the hardware approximates).
    fn exact(&self, r: usize, col: usize) -> (f64, f64) {
        (0..self.k).fold((self.c[r * self.n + col] as f64, self.c[r * self.n + col].abs() as f64), |(s, mag), kk| {
            let p = self.a[r * self.k + kk] * self.b[kk * self.n + col];
            (s + p, mag + p.abs())
        })
    }
}

/// One warp per 16×8 tile of `D = A·B + C` (A M×K, B K×N, C and D M×N, row-major): every warp of the
/// grid takes tile `w` (row-major over the tiles) and loads its fragments straight from global memory
/// per the ISA's tables; warps past the last tile return (the whole warp together).
///
/// # Safety
/// The buffers hold m·k, k·n, m·n, m·n elements; m % 16 == 0, n % 8 == 0, k a multiple of the step.
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_tile_kernel(prec: Prec, a: *const u32, b: *const u32, c: *const f32, d: *mut f32, m: usize, n: usize, k: usize) {
    // SAFETY: sizes by the caller's contract.
    let (a, b, c, d) = unsafe { (View::from_const(a, m * k), View::from_const(b, k * n), View::from_const(c, m * n), View::new(d, m * n)) };
    let (bx, by) = (thread::block_dim_x() as usize, thread::block_dim_y() as usize);
    let linear = thread::thread_idx_y() as usize * bx + thread::thread_idx_x() as usize;
    let warp = thread::block_idx_x() as usize * (bx * by / 32) + linear / 32;
    let tiles_n = n / 8;
    if warp >= m / 16 * tiles_n {
        return;
    }
    let (r0, c0) = (warp / tiles_n * 16, warp % tiles_n * 8);
    let lane = thread::lane_id() as usize;
    assert_eq!(lane, linear % 32, "lane_id is the linear thread index mod 32");
    let (g, t) = (lane / 4, lane % 4);
    // SAFETY (all closures): the tile lies inside the matrices (m, n multiples of 16 and 8).
    let at = |r: usize, kk: usize| unsafe { a.get((r0 + r) * k + kk) };
    let bt = |kk: usize, col: usize| unsafe { b.get(kk * n + c0 + col) };
    // C/D: c[i] = (g + 8·(i/2), 2t + i%2).
    let pos = |i: usize| (r0 + g + 8 * (i / 2)) * n + c0 + 2 * t + i % 2;
    // SAFETY: pos(i) < m·n.
    let mut acc: [f32; 4] = std::array::from_fn(|i| unsafe { c.get(pos(i)) });
    for k0 in (0..k).step_by(prec.k_step()) {
        match prec {
            Prec::Tf32Raw | Prec::Tf32Rounded => {
                let cv = |w: u32| if prec == Prec::Tf32Rounded { to_tf32(f32::from_bits(w)) } else { w };
                // A: (g, t) (g+8, t) (g, t+4) (g+8, t+4); B: (k = t, g) (k = t+4, g).
                let af = [at(g, k0 + t), at(g + 8, k0 + t), at(g, k0 + t + 4), at(g + 8, k0 + t + 4)].map(cv);
                let bf = [bt(k0 + t, g), bt(k0 + t + 4, g)].map(cv);
                acc = mma_m16n8k8_tf32(af, bf, acc);
            }
            Prec::Bf16 | Prec::F16 => {
                // A: (g, 2t..) (g+8, 2t..) (g, 2t+8..) (g+8, 2t+8..); B: (k = 2t.., g) (k = 2t+8.., g).
                let (k1, k2) = (k0 + 2 * t, k0 + 2 * t + 8);
                let af = [
                    pack(at(g, k1), at(g, k1 + 1)),
                    pack(at(g + 8, k1), at(g + 8, k1 + 1)),
                    pack(at(g, k2), at(g, k2 + 1)),
                    pack(at(g + 8, k2), at(g + 8, k2 + 1)),
                ];
                let bf = [pack(bt(k1, g), bt(k1 + 1, g)), pack(bt(k2, g), bt(k2 + 1, g))];
                acc = if prec == Prec::Bf16 { mma_m16n8k16_bf16(af, bf, acc) } else { mma_m16n8k16_f16(af, bf, acc) };
            }
        }
    }
    for (i, v) in acc.into_iter().enumerate() {
        // SAFETY: pos(i) < m·n; each element is written by one lane.
        unsafe { d.set(pos(i), v) }
    }
}

/// Runs `gemm_tile_kernel` with `block` threads per block (enough blocks for every tile), returns D.
fn run_gemm(prec: Prec, g: &Gemm, block: (u32, u32, u32)) -> Result<Vec<f32>, EmuError> {
    let mut d = vec![f32::NAN; g.m * g.n];
    let warps_per_block = (block.0 * block.1 * block.2) as usize / 32;
    let tiles = g.m / 16 * (g.n / 8);
    let blocks = tiles.div_ceil(warps_per_block.max(1)) as u32;
    let (pa, pb, pc, pd) = (
        SyncPtr::from_const(g.a_bits.as_ptr()),
        SyncPtr::from_const(g.b_bits.as_ptr()),
        SyncPtr::from_const(g.c.as_ptr()),
        SyncPtr::new(d.as_mut_ptr()),
    );
    let (m, n, k) = (g.m, g.n, g.k);
    // SAFETY: the buffers have the sizes the kernel requires; shapes are multiples of the tile.
    launch("gemm_tile", Launch::new((blocks, 1, 1), block, 0), || unsafe {
        gemm_tile_kernel(prec, pa.get(), pb.get(), pc.get(), pd.get(), m, n, k)
    })?;
    Ok(d)
}

fn check_gemm(prec: Prec, shape: (usize, usize, usize), block: (u32, u32, u32), seed: u32) {
    let g = Gemm::new(prec, shape, seed);
    let d = run_gemm(prec, &g, block).unwrap_or_else(|e| panic!("{prec:?} {shape:?}: {e}"));
    let stepwise = g.stepwise_reference(prec.k_step());
    for (idx, (&got, &want)) in d.iter().zip(&stepwise).enumerate() {
        let (r, col) = (idx / g.n, idx % g.n);
        assert_eq!(got.to_bits(), want.to_bits(), "{prec:?} {shape:?} D[{r}][{col}]: {got} vs the stepwise f64 reference {want}");
        // And close to the exact product, as the hardware is (f32 accumulation, one rounding per step).
        let (exact, magnitude) = g.exact(r, col);
        let steps = (g.k / prec.k_step()) as f64;
        assert!((got as f64 - exact).abs() <= steps * 2f64.powi(-23) * magnitude, "{prec:?} D[{r}][{col}] = {got}, exact {exact}");
    }
}

#[test]
fn one_warp_16x8_tile_per_precision() {
    for prec in [Prec::Tf32Raw, Prec::Tf32Rounded, Prec::Bf16, Prec::F16] {
        check_gemm(prec, (16, 8, prec.k_step()), (32, 1, 1), 11);
    }
}

#[test]
fn multi_warp_products_per_precision() {
    // 64×32: 16 tiles; K of several steps; 4 warps per block (1-D), and 8 warps of a 2-D block.
    for prec in [Prec::Tf32Raw, Prec::Tf32Rounded, Prec::Bf16, Prec::F16] {
        check_gemm(prec, (64, 32, 4 * prec.k_step()), (128, 1, 1), 5);
        check_gemm(prec, (32, 40, 2 * prec.k_step()), (16, 16, 1), 9);
    }
}

#[test]
fn tf32_operands_use_only_the_top_19_bits() {
    // A = 1 + 2^-23 (low bits only) in every element, B = 1: the sum must see exactly 1 per product.
    let k = 8;
    let g = Gemm {
        m: 16,
        n: 8,
        k,
        a_bits: vec![(1.0f32 + f32::EPSILON).to_bits() | 0x1fff; 16 * k],
        b_bits: vec![1.0f32.to_bits(); k * 8],
        a: vec![1.0; 16 * k],
        b: vec![1.0; k * 8],
        c: vec![0.0; 16 * 8],
    };
    let d = run_gemm(Prec::Tf32Raw, &g, (32, 1, 1)).unwrap();
    assert!(d.iter().all(|&x| x == 8.0), "{d:?}");
}

#[test]
fn to_tf32_rounds_to_nearest_ties_away() {
    let ulp = 2f32.powi(-10); // TF32's ulp at 1
    let cases = [
        (1.0f32, 1.0f32),
        (1.0 + ulp / 2.0, 1.0 + ulp),          // tie: away from zero
        (-(1.0 + ulp / 2.0), -(1.0 + ulp)),    // tie, negative: away from zero
        (1.0 + ulp / 2.0 - f32::EPSILON, 1.0), // just below the tie
        (1.0 + 1.5 * ulp, 1.0 + 2.0 * ulp),    // tie at an odd TF32 mantissa: still away
        (2.0 - ulp / 4.0, 2.0),                // carry into the exponent
        (f32::MAX, f32::INFINITY),             // past TF32's largest finite value
        (f32::INFINITY, f32::INFINITY),
        (0.0, 0.0),
    ];
    for (x, want) in cases {
        assert_eq!(f32::from_bits(to_tf32(x)), want, "to_tf32({x:e})");
    }
    assert!(f32::from_bits(to_tf32(f32::NAN)).is_nan());
    let mut rng = Rng(77);
    for _ in 0..10_000 {
        let x = rng.f32() * 2f32.powi((rng.next() % 40) as i32 - 20);
        let r = to_tf32(x);
        assert_eq!(r & 0x1fff, 0, "low 13 bits clear for {x:e}");
        assert_eq!(f32::from_bits(r) as f64, rna_tf32_reference(x), "to_tf32({x:e})");
    }
}

/// The ldmatrix test tile: 16 rows × `stride` 16-bit elements, element (r, c) = 0x1000 + 0x100·r + c
/// for c < 16 (the padding is 0xffff). Its four 8×8 matrices in the A-fragment order: matrix `i` is
/// rows `8·(i % 2)..`, cols `8·(i / 2)..` (top-left, bottom-left, top-right, bottom-right).
fn ldm_tile(stride: usize) -> Vec<u16> {
    (0..16 * stride).map(|i| if i % stride < 16 { 0x1000 + 0x100 * (i / stride) as u16 + (i % stride) as u16 } else { 0xffff }).collect()
}

/// Element (r, c) of matrix `i` of [`ldm_tile`].
fn ldm_element(i: usize, r: usize, c: usize) -> u32 {
    (0x1000 + 0x100 * (8 * (i % 2) + r) + 8 * (i / 2) + c) as u32
}

/// Which ldmatrix the kernel runs.
#[derive(Clone, Copy, Debug)]
enum Ldm {
    X4,
    X4Trans,
    X2,
    X2Trans,
}

/// Copies the tile into shared memory, then each warp runs one ldmatrix: lane `l` gives row `l % 8`
/// of matrix `l / 8` (for an x2, lanes 16–31 give the rows of matrices 2 and 3, which must not be
/// used). Each thread writes its registers to `out[4·tid ..]`.
///
/// # Safety
/// `src` holds 16·stride elements, `out` 4·threads; the launch gives 16·stride·2 bytes of shared memory.
unsafe fn ldmatrix_kernel(variant: Ldm, src: *const u16, stride: usize, out: *mut u32) {
    let threads = thread::block_dim_x() as usize;
    let tid = thread::thread_idx_x() as usize;
    // SAFETY: by the caller's contract.
    let (src, out, tile) =
        unsafe { (View::from_const(src, 16 * stride), View::new(out, 4 * threads), SharedTiles::<u16>::new().tile(16 * stride)) };
    for i in (tid..16 * stride).step_by(threads) {
        // SAFETY: i < 16·stride.
        unsafe { tile.set(i, src.get(i)) }
    }
    thread::sync_threads();
    let lane = thread::lane_id() as usize;
    let (matrix, r) = (lane / 8, lane % 8);
    let row = (8 * (matrix % 2) + r) * stride + 8 * (matrix / 2);
    // SAFETY: rows in the tile and 16-byte aligned (stride % 8 == 0).
    let regs: Vec<u32> = unsafe {
        match variant {
            Ldm::X4 => ldmatrix_x4(tile, row).to_vec(),
            Ldm::X4Trans => ldmatrix_x4_trans(tile, row).to_vec(),
            Ldm::X2 => ldmatrix_x2(tile, row).to_vec(),
            Ldm::X2Trans => ldmatrix_x2_trans(tile, row).to_vec(),
        }
    };
    for (i, v) in regs.into_iter().enumerate() {
        // SAFETY: 4·tid + i < 4·threads.
        unsafe { out.set(4 * tid + i, v) }
    }
}

#[test]
fn ldmatrix_distributes_rows_as_the_isa_says() {
    for (variant, regs, trans) in [(Ldm::X4, 4, false), (Ldm::X4Trans, 4, true), (Ldm::X2, 2, false), (Ldm::X2Trans, 2, true)] {
        for (threads, stride) in [(32u32, 16usize), (64, 24)] {
            let src = ldm_tile(stride);
            let mut out = vec![0u32; 4 * threads as usize];
            let (ps, po) = (SyncPtr::from_const(src.as_ptr()), SyncPtr::new(out.as_mut_ptr()));
            // SAFETY: sizes as the kernel requires.
            launch("ldmatrix", Launch::new((1, 1, 1), (threads, 1, 1), 16 * stride * 2), || unsafe {
                ldmatrix_kernel(variant, ps.get(), stride, po.get())
            })
            .unwrap_or_else(|e| panic!("{variant:?}: {e}"));
            for tid in 0..threads as usize {
                let (g, t) = (tid % 32 / 4, tid % 4);
                for i in 0..regs {
                    let want = if trans {
                        // (row 2t, col g) low, (row 2t+1, col g) high
                        pack(ldm_element(i, 2 * t, g), ldm_element(i, 2 * t + 1, g))
                    } else {
                        // (row g, cols 2t, 2t+1)
                        pack(ldm_element(i, g, 2 * t), ldm_element(i, g, 2 * t + 1))
                    };
                    assert_eq!(out[4 * tid + i], want, "{variant:?} stride {stride}, thread {tid}, register {i}");
                }
            }
        }
    }
}

/// ldmatrix feeding mma: A (16×16 bf16, row-major, stride 24) through `ldmatrix_x4`, B (16×8, K×N
/// row-major) through `ldmatrix_x2_trans`, then one `m16n8k16` bf16 — the fragment shapes line up as
/// the module documentation says. D goes to `d` (16×8 row-major).
///
/// # Safety
/// `a` holds 16·16, `b` 16·8, `c` and `d` 16·8 elements; one warp; shared memory (16·24 + 16·8)·2 bytes.
unsafe fn ldmatrix_mma_kernel(a: *const u16, b: *const u16, c: *const f32, d: *mut f32) {
    const SA: usize = 24;
    let lane = thread::lane_id() as usize;
    // SAFETY: by the caller's contract.
    let (a, b, c, d) = unsafe { (View::from_const(a, 256), View::from_const(b, 128), View::from_const(c, 128), View::new(d, 128)) };
    let mut tiles = SharedTiles::<u16>::new();
    // SAFETY: the launch passes the bytes of both tiles.
    let (sa, sb) = unsafe { (tiles.tile(16 * SA), tiles.tile(16 * 8)) };
    // SAFETY: indices inside the views.
    unsafe {
        for i in (lane..256).step_by(32) {
            sa.set(i / 16 * SA + i % 16, a.get(i));
        }
        for i in (lane..128).step_by(32) {
            sb.set(i, b.get(i));
        }
    }
    thread::sync_threads();
    let (m, r) = (lane / 8, lane % 8);
    // SAFETY: aligned rows inside the tiles (SA % 8 == 0); x2 uses lanes 0..16 (B rows 0..16).
    let (af, bf) = unsafe { (ldmatrix_x4(sa, (8 * (m % 2) + r) * SA + 8 * (m / 2)), ldmatrix_x2_trans(sb, (lane % 16) * 8)) };
    let (g, t) = (lane / 4, lane % 4);
    let pos = |i: usize| (g + 8 * (i / 2)) * 8 + 2 * t + i % 2;
    // SAFETY: pos(i) < 128.
    let acc = mma_m16n8k16_bf16(af, bf, std::array::from_fn(|i| unsafe { c.get(pos(i)) }));
    for (i, v) in acc.into_iter().enumerate() {
        // SAFETY: pos(i) < 128.
        unsafe { d.set(pos(i), v) }
    }
}

#[test]
fn ldmatrix_feeds_the_mma_fragments() {
    let g = Gemm::new(Prec::Bf16, (16, 8, 16), 3);
    let (a, b): (Vec<u16>, Vec<u16>) = (g.a_bits.iter().map(|&x| x as u16).collect(), g.b_bits.iter().map(|&x| x as u16).collect());
    let mut d = vec![f32::NAN; 128];
    let (pa, pb, pc, pd) =
        (SyncPtr::from_const(a.as_ptr()), SyncPtr::from_const(b.as_ptr()), SyncPtr::from_const(g.c.as_ptr()), SyncPtr::new(d.as_mut_ptr()));
    // SAFETY: sizes as the kernel requires.
    launch("ldmatrix_mma", Launch::new((1, 1, 1), (32, 1, 1), (16 * 24 + 128) * 2), || unsafe {
        ldmatrix_mma_kernel(pa.get(), pb.get(), pc.get(), pd.get())
    })
    .unwrap();
    let want = g.stepwise_reference(16);
    for i in 0..128 {
        assert_eq!(d[i].to_bits(), want[i].to_bits(), "D[{}][{}]: {} vs {}", i / 8, i % 8, d[i], want[i]);
    }
}

#[test]
fn mma_rate_kernels_run_and_scale_with_iters() {
    type Kernel = unsafe fn(*mut f32, u32);
    for (name, kernel) in [("mma_rate_tf32", mma_rate_tf32 as Kernel), ("mma_rate_bf16", mma_rate_bf16), ("mma_rate_f16", mma_rate_f16)] {
        let run = |iters: u32| {
            let mut out = vec![f32::NAN; 2 * 64];
            let p = SyncPtr::new(out.as_mut_ptr());
            // SAFETY: out holds grid · block floats; 1-D launch of whole warps.
            launch(name, Launch::new((2, 1, 1), (64, 1, 1), 0), || unsafe { kernel(p.get(), iters) }).unwrap_or_else(|e| panic!("{e}"));
            out
        };
        let (zero, one, three) = (run(0), run(1), run(3));
        assert!(zero.iter().all(|&x| x == 0.0), "{name}: no iterations, zero sums");
        for (i, (&x1, &x3)) in one.iter().zip(&three).enumerate() {
            assert!(x1.is_finite() && x1 > 0.0, "{name} out[{i}] = {x1}");
            assert!((x3 - 3.0 * x1).abs() <= 1e-5 * x3, "{name} out[{i}]: {x3} after 3 iterations vs {x1} after 1");
        }
    }
}

// ---- faults --------------------------------------------------------------------------------

/// Every thread runs one tf32 mma (on zeros) and writes nothing.
fn mma_zeros() -> [f32; 4] {
    // SAFETY: these tests break the warp-collective contract on purpose: the executor must report it
    // (on the host a violation is a typed error, never memory unsafety).
    unsafe { mma_m16n8k8_tf32([0; 4], [0; 2], [0.0; 4]) }
}

#[test]
fn a_partial_warp_is_a_typed_error() {
    // 48 threads: warp 1 has 16 lanes.
    let err = launch("partial", Launch::new((1, 1, 1), (48, 1, 1), 0), || {
        mma_zeros();
    })
    .unwrap_err();
    match &err {
        EmuError::PartialWarp { kernel: "partial", thread, op, detail, .. } => {
            assert!(thread.x >= 32 && op.contains("tf32") && detail.contains("16 lanes"), "{err}");
        }
        other => panic!("expected PartialWarp, got {other}"),
    }
}

#[test]
fn a_lane_that_returned_early_is_a_divergent_warp() {
    let err = launch("early_return", Launch::new((1, 1, 1), (64, 1, 1), 0), || {
        if thread::thread_idx_x() == 37 {
            return;
        }
        mma_zeros();
    })
    .unwrap_err();
    match &err {
        EmuError::DivergentWarp { thread, detail, .. } => {
            assert!(thread.x >= 32 && thread.x < 64, "{err}");
            assert!(detail.contains("returned from the kernel") && detail.contains("(37, 0, 0)"), "{err}");
        }
        other => panic!("expected DivergentWarp, got {other}"),
    }
}

#[test]
fn lanes_in_different_collectives_are_a_divergent_warp() {
    let err = launch("mixed", Launch::new((1, 1, 1), (32, 1, 1), 0), || {
        if thread::thread_idx_x() < 16 {
            mma_zeros();
        } else {
            // SAFETY: as in `mma_zeros`: a deliberate violation.
            unsafe { mma_m16n8k16_bf16([0; 4], [0; 2], [0.0; 4]) };
        }
    })
    .unwrap_err();
    match &err {
        EmuError::DivergentWarp { detail, .. } => assert!(detail.contains("same collective") && detail.contains("bf16"), "{err}"),
        other => panic!("expected DivergentWarp, got {other}"),
    }
}

#[test]
fn a_lane_at_the_barrier_while_its_warp_waits_in_a_collective_is_reported() {
    let err = launch("barrier_vs_mma", Launch::new((1, 1, 1), (32, 1, 1), 0), || {
        if thread::thread_idx_x() < 16 {
            // SAFETY: deliberately divergent: the executor must report it.
            unsafe { thread::sync_threads() };
        } else {
            mma_zeros();
        }
    })
    .unwrap_err();
    match &err {
        EmuError::DivergentWarp { detail, .. } => {
            assert!(detail.contains("sync_threads") && detail.contains("neither can complete"), "{err}")
        }
        other => panic!("expected DivergentWarp, got {other}"),
    }
}

#[test]
fn ldmatrix_checks_its_addresses() {
    // From global memory (a host vector): not shared.
    let global = [0u16; 64];
    let p = SyncPtr::from_const(global.as_ptr());
    let err = launch("ldmatrix_global", Launch::new((1, 1, 1), (32, 1, 1), 0), || {
        // SAFETY: deliberately violated (not shared memory); the host build checks it.
        let _ = unsafe { ldmatrix_x4(View::from_const(p.get(), 64), (thread::lane_id() as usize % 8) * 8) };
    })
    .unwrap_err();
    assert!(matches!(&err, EmuError::OutOfBounds { message, .. } if message.contains("shared memory")), "{err}");
    // Misaligned rows (8 bytes into a 16-byte row), every row inside the view: with lane·8 + 4, lane
    // 31's row (252..260) also ran past the end, and whichever lane failed first set the error.
    let err = launch("ldmatrix_misaligned", Launch::new((1, 1, 1), (32, 1, 1), 512), || {
        // SAFETY: deliberately violated (alignment); the host build checks it.
        let _ = unsafe { ldmatrix_x4(SharedTiles::<u16>::new().tile(256), thread::lane_id() as usize % 16 * 8 + 4) };
    })
    .unwrap_err();
    assert!(matches!(&err, EmuError::OutOfBounds { message, .. } if message.contains("16-byte aligned")), "{err}");
    // Past the view's end.
    let err = launch("ldmatrix_past_end", Launch::new((1, 1, 1), (32, 1, 1), 512), || {
        // SAFETY: deliberately violated (range); the host build checks it.
        let _ = unsafe { ldmatrix_x4(SharedTiles::<u16>::new().tile(256), thread::lane_id() as usize * 8 + 8) };
    })
    .unwrap_err();
    assert!(matches!(&err, EmuError::OutOfBounds { .. }), "{err}");
    // x2: lanes 16–31's rows are not read, but must still be in the view (the address is formed).
    let err = launch("ldmatrix_x2_upper_lanes", Launch::new((1, 1, 1), (32, 1, 1), 512), || {
        let lane = thread::lane_id() as usize;
        // SAFETY: deliberately violated for lane 20 (range); the host build checks it.
        let _ = unsafe { ldmatrix_x2(SharedTiles::<u16>::new().tile(256), if lane == 20 { 256 } else { lane % 16 * 8 }) };
    })
    .unwrap_err();
    assert!(matches!(&err, EmuError::OutOfBounds { thread, .. } if thread.x == 20), "{err}");
}

/// `warp::shfl_xor_u32` and `warp::reduce_f32` (the shuffles' host model on the same exchange).
#[test]
fn shuffles_read_the_partner_lane_and_reduce_the_warp() {
    use tessera_kernels::device::warp::{reduce_f32, shfl_xor_u32};
    let mut out = vec![0u32; 3 * 64];
    let po = SyncPtr::new(out.as_mut_ptr());
    launch("shuffles", Launch::new((1, 1, 1), (64, 1, 1), 0), || {
        let t = thread::thread_idx_x() as usize;
        // SAFETY: both full warps call each shuffle, converged; t < 64 and out holds 3·64 words.
        unsafe {
            let partner = shfl_xor_u32(1000 + t as u32, 5);
            let sum = reduce_f32(t as f32, |a, b| a + b);
            let max = reduce_f32(t as f32, f32::max);
            *po.get().add(t) = partner;
            *po.get().add(64 + t) = sum as u32;
            *po.get().add(128 + t) = max as u32;
        }
    })
    .unwrap();
    for t in 0..64 {
        let warp = t / 32 * 32;
        assert_eq!(out[t], 1000 + (t ^ 5) as u32, "lane {t}'s partner");
        assert_eq!(out[64 + t], (warp..warp + 32).sum::<usize>() as u32, "lane {t}'s warp sum");
        assert_eq!(out[128 + t], (warp + 31) as u32, "lane {t}'s warp max");
    }
    // Half a warp in a shuffle is reported, not waited for.
    let err = launch("half_warp_shuffle", Launch::new((1, 1, 1), (32, 1, 1), 0), || {
        if thread::thread_idx_x() < 16 {
            // SAFETY: deliberately broken: only half the warp shuffles (the executor must report it).
            let _ = unsafe { shfl_xor_u32(1, 1) };
        }
    })
    .unwrap_err();
    assert!(matches!(err, EmuError::DivergentWarp { .. } | EmuError::PartialWarp { .. }), "{err}");
}
