//! Two kernels written on tessera's device vocabulary, as a user's crate would write them: a row
//! softmax (`f32` or BF16 in, `f32` out) and the LLM MLP's gate, `SiLU(x)·y`.
//!
//! Each is declared with [`tessera_device::kernel!`]: a PTX `.entry` when built for
//! nvptx64-nvidia-cuda, a plain `unsafe fn` on the host, where `tessera-emulator` runs it with CUDA's
//! block and barrier semantics. Each also exports its launch ([`softmax_launch`], [`silu_mul_launch`]),
//! so that the host and the emulator launch it alike.
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx))]
#![deny(unsafe_op_in_unsafe_fn)]

use tessera_device::math::{bf16_to_f32, exp2};
use tessera_device::mem::View;
use tessera_device::shared::SharedTiles;
use tessera_device::{kernel, thread};

/// Threads per block of the softmax: one block per row.
pub const SOFTMAX_THREADS: u32 = 256;
/// Longest row the softmax takes: the row is staged in shared memory (4 bytes a column) beside the
/// reduction's `SOFTMAX_THREADS` floats, within sm_90's 227 KiB.
pub const SOFTMAX_MAX_COLS: u32 = 227 * 1024 / 4 - SOFTMAX_THREADS;

/// A launch: grid, block, bytes of dynamic shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchDims {
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    pub shared_bytes: u32,
}

/// The softmax's launch for `rows × cols`: one block per row, the row and the reduction's slots in
/// shared memory. `None` where `cols` is 0 or past [`SOFTMAX_MAX_COLS`], or `rows` is 0.
pub const fn softmax_launch(rows: u32, cols: u32) -> Option<LaunchDims> {
    if rows == 0 || cols == 0 || cols > SOFTMAX_MAX_COLS {
        return None;
    }
    Some(LaunchDims { grid: (rows, 1, 1), block: (SOFTMAX_THREADS, 1, 1), shared_bytes: 4 * (cols + SOFTMAX_THREADS) })
}

/// Threads per block of `SiLU(x)·y`.
pub const SILU_THREADS: u32 = 256;

/// `SiLU(x)·y`'s launch for `n` elements: a grid-stride loop over at most 1024 blocks.
pub const fn silu_mul_launch(n: u32) -> Option<LaunchDims> {
    if n == 0 {
        return None;
    }
    let blocks = n.div_ceil(SILU_THREADS);
    let blocks = if blocks > 1024 { 1024 } else { blocks };
    Some(LaunchDims { grid: (blocks, 1, 1), block: (SILU_THREADS, 1, 1), shared_bytes: 0 })
}

const LOG2_E: f32 = core::f32::consts::LOG2_E;

/// `op` over the block's `slots` (one per thread, `slots[t]` this thread's value), left in every
/// thread's hands: a tree in shared memory, one barrier a level.
///
/// # Safety
/// Every thread of the block calls it, converged; `slots` holds `blockDim.x` floats, a power of two.
#[inline(always)]
unsafe fn block_reduce(slots: View<f32>, value: f32, op: impl Fn(f32, f32) -> f32) -> f32 {
    let (t, n) = (thread::thread_idx_x(), thread::block_dim_x());
    // SAFETY (all accesses): t < n and t + s < n slots; every thread passes each barrier once.
    unsafe {
        slots.set(t as usize, value);
        thread::sync_threads();
        let mut s = n / 2;
        while s > 0 {
            if t < s {
                slots.set(t as usize, op(slots.get(t as usize), slots.get((t + s) as usize)));
            }
            thread::sync_threads();
            s /= 2;
        }
        let total = slots.get(0);
        // Nobody overwrites slot 0 (the next reduction) before every thread has read it.
        thread::sync_threads();
        total
    }
}

/// The softmax of row `blockIdx.x`, its elements read through `load` (the row's `i`-th as `f32`).
///
/// # Safety
/// As the entries: the launch is [`softmax_launch`]`(rows, cols)`'s; `y` holds `rows·cols` floats.
#[inline(always)]
unsafe fn softmax_row(load: impl Fn(usize) -> f32, y: *mut f32, rows: u32, cols: u32) {
    let row = thread::block_idx_x();
    if row >= rows {
        return; // block-uniform: the whole block leaves
    }
    let (t, n) = (thread::thread_idx_x(), thread::block_dim_x());
    let mut shared = SharedTiles::<f32>::new();
    // SAFETY: the launch gives 4·(cols + blockDim.x) bytes (softmax_launch).
    let (staged, slots) = unsafe { (shared.tile(cols as usize), shared.tile(n as usize)) };
    let base = row as usize * cols as usize;
    // The row is read from global memory once, into shared memory; its maximum on the way.
    let mut max = f32::NEG_INFINITY;
    let mut c = t;
    while c < cols {
        let v = load(base + c as usize);
        // SAFETY: c < cols.
        unsafe { staged.set(c as usize, v) };
        max = max.max(v);
        c += n;
    }
    // SAFETY: every thread of the block, converged (the loops above end for all).
    let max = unsafe { block_reduce(slots, max, f32::max) };
    let mut sum = 0.0f32;
    let mut c = t;
    while c < cols {
        // SAFETY: c < cols; this thread staged column c itself.
        let e = exp2((unsafe { staged.get(c as usize) } - max) * LOG2_E);
        // SAFETY: as above.
        unsafe { staged.set(c as usize, e) };
        sum += e;
        c += n;
    }
    // SAFETY: as above.
    let sum = unsafe { block_reduce(slots, sum, |a, b| a + b) };
    let scale = 1.0 / sum;
    let mut c = t;
    while c < cols {
        // SAFETY: c < cols, base + c < rows·cols; column c is this thread's.
        unsafe { *y.add(base + c as usize) = staged.get(c as usize) * scale };
        c += n;
    }
}

kernel! {
    /// `y = softmax(x)` along each row of the row-major `rows × cols` matrix `x` (`f32`): `exp(x − max)`
    /// over its sum, `exp` through `ex2.approx`.
    ///
    /// # Safety
    /// `x` and `y` hold `rows·cols` floats; the launch is [`softmax_launch`]`(rows, cols)`'s.
    pub unsafe fn softmax_rows_f32(x: *const f32, y: *mut f32, rows: u32, cols: u32) {
        // SAFETY: the contract; every index the body reads is below rows·cols.
        unsafe { softmax_row(|i| *x.add(i), y, rows, cols) }
    }
}

kernel! {
    /// As [`softmax_rows_f32`] on a BF16 `x` (bit patterns; exactly widened to `f32`), `f32` out.
    ///
    /// # Safety
    /// `x` holds `rows·cols` BF16 values, `y` as many floats; the launch is [`softmax_launch`]'s.
    pub unsafe fn softmax_rows_bf16(x: *const u16, y: *mut f32, rows: u32, cols: u32) {
        // SAFETY: as softmax_rows_f32.
        unsafe { softmax_row(|i| bf16_to_f32(*x.add(i)), y, rows, cols) }
    }
}

kernel! {
    /// `out[i] = SiLU(x[i])·y[i] = x[i]·y[i] / (1 + exp(−x[i]))` for `i < n`: the gate of an LLM's MLP.
    ///
    /// # Safety
    /// `x`, `y` and `out` hold `n` floats; the launch is [`silu_mul_launch`]`(n)`'s (any grid works: a
    /// grid-stride loop).
    pub unsafe fn silu_mul_f32(x: *const f32, y: *const f32, out: *mut f32, n: u32) {
        let mut i = thread::index_1d();
        while i < n as usize {
            // SAFETY: i < n.
            let (a, b) = unsafe { (*x.add(i), *y.add(i)) };
            let v = a * b / (1.0 + exp2(-a * LOG2_E));
            // SAFETY: i < n.
            unsafe { *out.add(i) = v };
            i += thread::grid_size_1d();
        }
    }
}

/// A kernel that reaches a bounds check or a panic traps (the launch fails).
#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    thread::trap()
}
