//! The matmul ladder: `C = A · B` for row-major f32 matrices, `A` is M×K, `B` is K×N, `C` is M×N.
//!
//! One kernel per file, numbered along the ladder; each file's doc says what it fixes in the one before.
//! Global reads are counted for M = N = K = 1024 (the seed's example), in floats loaded by all threads.
//! `tile_io` holds the vectorized / guarded tile movement kernels 5–10 share.
pub mod k01_naive;
pub mod k02_tiled;
pub mod k03_blocktile_1d;
pub mod k04_blocktile_2d;
pub mod k05_vectorized;
pub mod k06_conflict_free;
pub mod k07_warptile;
pub mod k08_double_buffer;
pub mod k09_async_pipeline;
#[macro_use]
pub mod k10_split_k;
pub mod k11_mma_naive;
#[macro_use]
mod mma_entry;
pub mod k12_mma_shared;
pub mod k13_mma_pipeline;
pub mod k14_wgmma;
#[macro_use]
pub mod k15_tma;
pub mod input;
pub mod k16_persistent;
pub mod k17_stream_k;
pub mod k18_few_rows;
pub mod k19_few_cols;
pub mod k20_mma_split_k;
pub mod k21_widened;
pub mod k22_tma_stream_k;
pub mod k23_copy_fed;
pub mod k24_cluster;
pub mod k25_fp8;
pub mod k26_grouped;
#[macro_use]
pub mod k27_fused;
pub mod k28_batched_f32;
pub mod k29_fused_f32;
pub mod k30_batched_mma;
pub mod k31_pingpong;
pub mod mma_ops;
pub mod mma_tile;
pub mod tile_io;

use crate::device::{mem::View, thread};

/// The three matrices of `C = A · B` as views: `A` (m·k elements of `T`: `f32` or a 16-bit pattern),
/// `B` (k·n), `C` (m·n floats). Every kernel that reads its operands in place starts here.
///
/// # Safety
/// `a`, `b`, `c` must be valid for m·k, k·n and m·n elements for the kernel's duration, and each product
/// must fit in `u32` (the host checks every matrix holds at most `i32::MAX` elements).
#[inline(always)]
pub unsafe fn matrices<T: Copy>(a: *const T, b: *const T, c: *mut f32, m: u32, n: u32, k: u32) -> (View<T>, View<T>, View<f32>) {
    // SAFETY: forwarded to the caller's contract.
    unsafe { (View::from_const(a, (m * k) as usize), View::from_const(b, (k * n) as usize), View::new(c, (m * n) as usize)) }
}

/// Matrix `blockIdx.z` of a batch launch (kernels 28 and 30): its A, B and `C` from `table` where that
/// is not null (`3 · gridDim.z` addresses: every A, then every B, then every `C` — a batch of
/// pointers), else each operand's first matrix advanced by `blockIdx.z` strides (0: one matrix for
/// all — a strided batch). `C`'s stride counts elements of `c_bytes` bytes (4 for `f32`, 2 for a
/// 16-bit `C`: kernel 30's `out`).
///
/// # Safety
/// `table` is null or valid for `3 · gridDim.z` addresses.
#[inline(always)]
pub unsafe fn batch_member<T>(
    a: *const T,
    b: *const T,
    c: *mut f32,
    (stride_a, stride_b, stride_c): (usize, usize, usize),
    c_bytes: usize,
    table: *const u64,
) -> (*const T, *const T, *mut f32) {
    let i = thread::block_idx_z() as usize;
    if table.is_null() {
        return (a.wrapping_add(i * stride_a), b.wrapping_add(i * stride_b), c.cast::<u8>().wrapping_add(i * stride_c * c_bytes).cast());
    }
    let count = thread::grid_dim_z() as usize;
    // SAFETY: the caller's table of 3·count addresses; i < count.
    let (pa, pb, pc) = unsafe {
        let t = View::from_const(table, 3 * count);
        (t.get(i), t.get(count + i), t.get(2 * count + i))
    };
    (pa as usize as *const T, pb as usize as *const T, pc as usize as *mut f32)
}
