//! Kernel 22: small products of 16-bit inputs — a 16×16 tile of `C` per block, K divided among the
//! block's 8 warps, every operand straight from global memory into registers.
//!
//! **What it fixes in kernel 21**: a product of a few microseconds is a chain of load latencies, not
//! of arithmetic. Kernel 21 (and every tile kernel) walks K one step at a time — load, barrier, compute
//! — so a 64×64 tile over K = 214 waits 14 times in a row (BF16 88×86×214: 25 µs, cuBLAS 4.3). Here
//! the K range is dealt out to 8 warps, each holding the whole 16×16 tile in registers (8 outputs per
//! lane) and keeping two runs of 4 K-columns in flight, so a block waits `K / 64` times, not `K / 16`;
//! the warps' partial tiles meet once in shared memory. No shared tiles, one barrier per block.
//!
//! **Mapping**: lane `l` of warp `w` owns row `l / 2` of the tile and its 8 columns from `8·(l % 2)`;
//! it takes the runs of 4 columns of `A` starting at `k_begin + 4w`, every 32 columns (`BK`): per run,
//! its row's four elements of `A` (one 8-byte load where K is a multiple of 4) and 4 rows × its 8
//! columns of `B` (two 8-byte loads per row where N is a multiple of 4; guarded 2-byte loads
//! otherwise), widened to `f32` as kernel 21 (exact).
//!
//! **Epilogue**: the 8 warps' tiles are summed through shared memory (`WARPS · 16 · 16` floats), one
//! output per thread; stored with one slice (`gridDim.z = 1`), added into the zeroed `C` with more.
use super::k21_widened::{four, widen4, Widen};
use super::mma_ops::{Bf16, F16};
use crate::device::math::fma;
use crate::device::mem::{Float4, Half4, View};
use crate::device::{atomic, shared::SharedTiles, thread};
use crate::launch::TileConfig;

/// Rows of `C` per block.
pub const ROWS: u32 = 16;
/// Columns of `C` per block: 2 lanes × 8.
pub const COLS: u32 = 16;
/// Warps per block, each on every `WARPS`th run of K.
pub const WARPS: u32 = 8;
/// Consecutive columns of `A` (rows of `B`) in a warp's run.
const RUN: u32 = 4;
/// Runs a warp loads before their multiply-adds.
const IN_FLIGHT: u32 = 2;
/// Columns of K per step of the block (the unit of split-K's slices): `WARPS · RUN`.
pub const BK: u32 = WARPS * RUN;
/// Shared memory: the warps' partial tiles, `WARPS · ROWS · COLS` floats.
pub const SHARED_BYTES: u32 = WARPS * ROWS * COLS * 4;

/// The launch of every kernel-22 entry: 256 threads, `⌈N/16⌉ × ⌈M/16⌉ × slices` blocks, 8 KiB of
/// dynamic shared memory; one slice stores `C`, more add into `C` zeroed first.
pub const CONFIG: TileConfig = TileConfig::new(ROWS, COLS, BK, WARPS * 32, SHARED_BYTES).split_k().stores_unsplit();

/// One run's operands for this lane, as bits: its row of `A` at columns `kk .. kk + 4`, and rows
/// `kk .. kk + 4` of `B` at its 8 columns (two fours each). Zero past `m`, `n` and `k_end`.
struct Run {
    a: Half4,
    b: [[Half4; 2]; RUN as usize],
}

/// Loads the run at `kk` (a multiple of 4) for the lane owning row `r` and columns `col ..
/// col + 8`.
///
/// # Safety
/// `a` holds `m·k`, `b` `k·n` elements from 16-byte aligned bases; `k_end ≤ k`; `col % 4 == 0`.
#[allow(clippy::too_many_arguments)] // a run's position and the matrix extents: all scalars
#[inline(always)]
unsafe fn load_run(a: View<u16>, b: View<u16>, m: u32, n: u32, k: u32, k_end: u32, r: u32, col: u32, kk: u32) -> Run {
    let mut run = Run { a: Half4::default(), b: [[Half4::default(); 2]; RUN as usize] };
    if r < m {
        // SAFETY: r < m, columns below k_end ≤ k; kk % 4 == 0, so 8-byte aligned where k % 4 == 0.
        run.a = unsafe { four(a, r * k + kk, kk, k_end, k.is_multiple_of(4)) };
    }
    for (j, row) in run.b.iter_mut().enumerate() {
        let kr = kk + j as u32;
        if kr < k_end {
            for (h, half) in row.iter_mut().enumerate() {
                let cc = col + 4 * h as u32;
                // SAFETY: kr < k_end ≤ k, columns below n; cc % 4 == 0: 8-byte aligned where n % 4 == 0.
                *half = unsafe { four(b, kr * n + cc, cc, n, n.is_multiple_of(4)) };
            }
        }
    }
    run
}

/// Adds a run's products into this lane's 8 outputs.
#[inline(always)]
fn add_run<W: Widen>(acc: &mut [f32; 8], run: &Run) {
    let [av] = widen4::<W, 1>(&[run.a]);
    for (j, row) in run.b.iter().enumerate() {
        let bv = widen4::<W, 2>(row);
        for (e, s) in acc.iter_mut().enumerate() {
            *s = fma(av.0[j], bv[e / 4].0[e % 4], *s);
        }
    }
}

/// The body of every kernel-22 entry: block `(x, y, z)` computes output tile `(y, x)` over K slice
/// `z` of `gridDim.z` (`⌈K/S⌉` rounded up to [`BK`], as kernel 10).
///
/// # Safety
/// `a` holds `m·k`, `b` `k·n` 16-bit elements, `c` `m·n` floats, each 16-byte aligned, each product
/// fits in `u32`; the launch is [`CONFIG`]; `C` zeroed before a launch of more than one slice.
#[inline(always)]
pub unsafe fn small<W: Widen>(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) =
        unsafe { (View::from_const(a, (m * k) as usize), View::from_const(b, (k * n) as usize), View::new(c, (m * n) as usize)) };
    let slices = thread::grid_dim_z();
    let chunk = k.div_ceil(slices).next_multiple_of(BK);
    let k_begin = (thread::block_idx_z() * chunk).min(k);
    let k_end = (k_begin + chunk).min(k);
    let (row0, col0) = (thread::block_idx_y() * ROWS, thread::block_idx_x() * COLS);
    let (tid, lane) = (thread::thread_idx_x(), thread::lane_id());
    let warp = tid / 32;
    let (r, col) = (row0 + lane / 2, col0 + 8 * (lane % 2));

    let mut acc = [0.0f32; 8];
    const STRIDE: u32 = WARPS * RUN;
    let mut kk = k_begin + warp * RUN;
    // IN_FLIGHT runs at a time, all loaded before their multiply-adds; then the rest one by one.
    while kk + (IN_FLIGHT - 1) * STRIDE < k_end {
        let mut runs = [const { Run { a: Half4([0; 4]), b: [[Half4([0; 4]); 2]; RUN as usize] } }; IN_FLIGHT as usize];
        for (i, run) in runs.iter_mut().enumerate() {
            // SAFETY: the views and bounds of the contract; kk + i·STRIDE is a multiple of 4 (k_begin,
            // RUN·warp and STRIDE are); col % 4 == 0.
            *run = unsafe { load_run(a, b, m, n, k, k_end, r, col, kk + i as u32 * STRIDE) };
        }
        for run in &runs {
            add_run::<W>(&mut acc, run);
        }
        kk += IN_FLIGHT * STRIDE;
    }
    while kk < k_end {
        // SAFETY: as above.
        let run = unsafe { load_run(a, b, m, n, k, k_end, r, col, kk) };
        add_run::<W>(&mut acc, &run);
        kk += STRIDE;
    }

    // The warps' tiles: red[w][row][col], this lane's 8 at (l / 2, 8·(l % 2)).
    let mut shared = SharedTiles::<f32>::new();
    // SAFETY: the launch provides SHARED_BYTES = WARPS·ROWS·COLS·4 bytes.
    let red = unsafe { shared.tile((WARPS * ROWS * COLS) as usize) };
    let at = (warp * ROWS + lane / 2) * COLS + 8 * (lane % 2);
    for h in 0..2 {
        let v = Float4([acc[4 * h], acc[4 * h + 1], acc[4 * h + 2], acc[4 * h + 3]]);
        // SAFETY: at + 4h + 4 ≤ WARPS·ROWS·COLS; a multiple of 4 floats.
        unsafe { red.set4((at + 4 * h as u32) as usize, v) }
    }
    // SAFETY: reached by every thread of the block (no early returns; the loops end before it).
    unsafe { thread::sync_threads() };

    // Thread t: output (t / 16, t % 16) of the tile, the sum of the warps' partials.
    let (i, j) = (tid / COLS, tid % COLS);
    let (gr, gc) = (row0 + i, col0 + j);
    if gr < m && gc < n {
        let mut sum = 0.0f32;
        for w in 0..WARPS {
            // SAFETY: (w·ROWS + i)·COLS + j < WARPS·ROWS·COLS (i < ROWS, j < COLS).
            sum += unsafe { red.get(((w * ROWS + i) * COLS + j) as usize) };
        }
        let at = (gr * n + gc) as usize;
        if slices == 1 {
            // SAFETY: gr < m, gc < n: inside C.
            unsafe { c.set(at, sum) }
        } else {
            // SAFETY: as above; C zeroed by the caller (more than one slice).
            unsafe { atomic::add_f32(c, at, sum) }
        }
    }
}

kernel! {
    /// Small BF16 products on the CUDA cores (kernel 22): 16×16 outputs per block, K dealt out to its
    /// 8 warps and to `gridDim.z` slices (see the module).
    ///
    /// Measurements: `docs/ladder/k21-widened.md`.
    ///
    /// # Safety
    /// As [`small`].
    pub unsafe fn matmul_small_bf16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { small::<Bf16>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Small FP16 products on the CUDA cores (kernel 22).
    ///
    /// Measurements: `docs/ladder/k21-widened.md`.
    ///
    /// # Safety
    /// As [`small`].
    pub unsafe fn matmul_small_f16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { small::<F16>(a, b, c, m, n, k) }
    }
}
