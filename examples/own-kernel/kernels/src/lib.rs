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
use tessera_device::mem::{Float4, View};
use tessera_device::shared::SharedTiles;
use tessera_device::{kernel, thread, warp};

/// Threads per block of the softmax: one block per row.
pub const SOFTMAX_THREADS: u32 = 512;
/// Longest row the softmax takes: the row is staged in shared memory (4 bytes a column) beside the
/// reduction's 32 floats (one a warp), within sm_90's 227 KiB.
pub const SOFTMAX_MAX_COLS: u32 = 227 * 1024 / 4 - 32;

pub use tessera_device::LaunchDims;

/// The softmax's launch for `rows × cols`: one block per row, the row and the reduction's slots in
/// shared memory. `None` where `cols` is 0 or past [`SOFTMAX_MAX_COLS`], or `rows` is 0.
pub const fn softmax_launch(rows: u32, cols: u32) -> Option<LaunchDims> {
    if rows == 0 || cols == 0 || cols > SOFTMAX_MAX_COLS {
        return None;
    }
    Some(LaunchDims { grid: (rows, 1, 1), block: (SOFTMAX_THREADS, 1, 1), shared_bytes: 4 * (cols + 32) })
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

/// `op` over the block's values (`value` from each thread), left in every thread's hands: a warp
/// shuffle reduction, each warp's result in `slots`, then every warp reduces those. Two barriers.
///
/// # Safety
/// Every thread of the block calls it, converged; `blockDim.x` is a multiple of 32 (at most 1024)
/// and `slots` holds 32 floats; `identity` is `op`'s neutral element.
#[inline(always)]
unsafe fn block_reduce(slots: View<f32>, value: f32, identity: f32, op: impl Fn(f32, f32) -> f32 + Copy) -> f32 {
    let (t, n) = (thread::thread_idx_x() as usize, thread::block_dim_x() as usize);
    let (warp_index, lane, warps) = (t / 32, t % 32, n / 32);
    // SAFETY (all): whole warps, converged (the contract); warp_index and lane are below 32 slots.
    unsafe {
        let per_warp = warp::reduce_f32(value, op);
        if lane == 0 {
            slots.set(warp_index, per_warp);
        }
        thread::sync_threads();
        let total = warp::reduce_f32(if lane < warps { slots.get(lane) } else { identity }, op);
        // Nobody overwrites the slots (the next reduction) before every warp has read them.
        thread::sync_threads();
        total
    }
}

/// The softmax of row `blockIdx.x`. `load(i)` reads element `i` of `x` as `f32`; `load4(i)` reads
/// elements `i .. i + 4` (`i % 4 == 0`) in one access, used when `vector` (block-uniform: every row
/// start and `y` are then 16-byte aligned, so the row moves in 128-bit accesses).
///
/// Three passes over the row, two block reductions: global → shared memory and its maximum; the sum
/// of `exp(x − max)` from shared memory; `exp(x − max) / sum` to global memory (the same operations as
/// the second pass, so the same values). Global memory is read once and written once.
///
/// # Safety
/// As the entries: the launch is [`softmax_launch`]`(rows, cols)`'s; `y` holds `rows·cols` floats.
#[inline(always)]
unsafe fn softmax_row(load: impl Fn(usize) -> f32, load4: impl Fn(usize) -> Float4, vector: bool, y: *mut f32, rows: u32, cols: u32) {
    let row = thread::block_idx_x();
    if row >= rows {
        return; // block-uniform: the whole block leaves
    }
    let (t, n) = (thread::thread_idx_x() as usize, thread::block_dim_x() as usize);
    let cols = cols as usize;
    let mut shared = SharedTiles::<f32>::new();
    // SAFETY: the launch gives 4·(cols + 32) bytes (softmax_launch); `staged` starts the
    // dynamic shared memory, 16-byte aligned.
    let (staged, slots) = unsafe { (shared.tile(cols), shared.tile(32)) };
    let base = row as usize * cols;
    // SAFETY: y holds rows·cols floats and row < rows.
    let out = unsafe { View::new(y.add(base), cols) };
    let vector = vector && cols.is_multiple_of(4);
    let (step, width) = if vector { (4 * n, 4) } else { (n, 1) };

    // 1. The row into shared memory, its maximum on the way: four loads in flight per thread
    //    before any is stored (a 8192-column row is four 128-bit loads a thread at 512 threads).
    let mut max = f32::NEG_INFINITY;
    let mut c = width * t;
    while c + 3 * step < cols {
        // SAFETY (both branches): c + 3·step < cols (and all four multiples of 4 when vector).
        unsafe {
            if vector {
                let (a, b, c2, d) = (load4(base + c), load4(base + c + step), load4(base + c + 2 * step), load4(base + c + 3 * step));
                staged.set4(c, a);
                staged.set4(c + step, b);
                staged.set4(c + 2 * step, c2);
                staged.set4(c + 3 * step, d);
                max = max.max(max4(a).max(max4(b))).max(max4(c2).max(max4(d)));
            } else {
                let (a, b, c2, d) = (load(base + c), load(base + c + step), load(base + c + 2 * step), load(base + c + 3 * step));
                staged.set(c, a);
                staged.set(c + step, b);
                staged.set(c + 2 * step, c2);
                staged.set(c + 3 * step, d);
                max = max.max(a.max(b)).max(c2.max(d));
            }
        }
        c += 4 * step;
    }
    while c < cols {
        // SAFETY: c < cols, as above.
        unsafe {
            if vector {
                let v = load4(base + c);
                staged.set4(c, v);
                max = max.max(max4(v));
            } else {
                let v = load(base + c);
                staged.set(c, v);
                max = max.max(v);
            }
        }
        c += step;
    }
    // SAFETY: every thread of the block, converged (the loops above end for all).
    let max = unsafe { block_reduce(slots, max, f32::NEG_INFINITY, f32::max) };

    // 2. The sum of the exponentials; each thread reads the columns it staged itself.
    let e = |v: f32| exp2((v - max) * LOG2_E);
    let mut sum = 0.0f32;
    let mut c = width * t;
    while c < cols {
        // SAFETY: c < cols (a multiple of 4 when vector).
        unsafe {
            if vector {
                let v = staged.get4(c).0;
                sum += (e(v[0]) + e(v[1])) + (e(v[2]) + e(v[3]));
            } else {
                sum += e(staged.get(c));
            }
        }
        c += step;
    }
    // SAFETY: as above.
    let sum = unsafe { block_reduce(slots, sum, 0.0, |a, b| a + b) };
    let scale = 1.0 / sum;

    // 3. The result, written once.
    let mut c = width * t;
    while c < cols {
        // SAFETY: c < cols; out starts 16-byte aligned when vector.
        unsafe {
            if vector {
                let v = staged.get4(c).0;
                out.set4(c, Float4([e(v[0]) * scale, e(v[1]) * scale, e(v[2]) * scale, e(v[3]) * scale]));
            } else {
                out.set(c, e(staged.get(c)) * scale);
            }
        }
        c += step;
    }
}

#[inline(always)]
fn max4(v: Float4) -> f32 {
    v.0[0].max(v.0[1]).max(v.0[2].max(v.0[3]))
}

/// Whether `ptr` is `align`-byte aligned.
#[inline(always)]
fn aligned<T>(ptr: *const T, align: usize) -> bool {
    (ptr as usize).is_multiple_of(align)
}

kernel! {
    /// `y = softmax(x)` along each row of the row-major `rows × cols` matrix `x` (`f32`): `exp(x − max)`
    /// over its sum, `exp` through `ex2.approx`. Rows move in 128-bit accesses when `cols % 4 == 0`
    /// and `x`, `y` are 16-byte aligned, else element by element.
    ///
    /// # Safety
    /// `x` and `y` hold `rows·cols` floats; the launch is [`softmax_launch`]`(rows, cols)`'s.
    pub unsafe fn softmax_rows_f32(x: *const f32, y: *mut f32, rows: u32, cols: u32) {
        // SAFETY: x holds rows·cols floats, and every index the body reads is below that.
        let xs = unsafe { View::from_const(x, rows as usize * cols as usize) };
        let vector = aligned(x, 16) && aligned(y, 16);
        // SAFETY: the contract; the body reads below rows·cols, 4-aligned indices when vector.
        unsafe { softmax_row(|i| xs.get(i), |i| xs.get4(i), vector, y, rows, cols) }
    }
}

kernel! {
    /// As [`softmax_rows_f32`] on a BF16 `x` (bit patterns; exactly widened to `f32`), `f32` out; 64-bit
    /// loads of four values when `cols % 4 == 0`, `x` is 8-byte and `y` 16-byte aligned.
    ///
    /// # Safety
    /// `x` holds `rows·cols` BF16 values, `y` as many floats; the launch is [`softmax_launch`]'s.
    pub unsafe fn softmax_rows_bf16(x: *const u16, y: *mut f32, rows: u32, cols: u32) {
        // SAFETY: x holds rows·cols values, and every index the body reads is below that.
        let xs = unsafe { View::from_const(x, rows as usize * cols as usize) };
        let vector = aligned(x, 8) && aligned(y, 16);
        let load4 = |i| {
            // SAFETY: i % 4 == 0 and i + 4 <= rows·cols when vector (the body's contract).
            let h = unsafe { xs.get4(i) }.0;
            Float4([bf16_to_f32(h[0]), bf16_to_f32(h[1]), bf16_to_f32(h[2]), bf16_to_f32(h[3])])
        };
        // SAFETY: as softmax_rows_f32.
        unsafe { softmax_row(|i| bf16_to_f32(xs.get(i)), load4, vector, y, rows, cols) }
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
