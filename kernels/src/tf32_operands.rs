//! TF32 operands for the `wgmma` TF32 kernel (kernel 14): `wgmma` reads TF32 operands straight from
//! shared memory, only K-major, and uses the top 19 bits of each word as they are (truncation). So the
//! host prepares them once per product, in global memory: `A` rounded to nearest TF32 (as cuBLAS's
//! TF32 mode rounds, measured), and `B` rounded and transposed to `N × K` (K-major). Their time is
//! part of every TF32 product's reported time.

/// Threads per block of [`tf32_round`].
pub const BLOCK: u32 = 256;
/// The square tile [`tf32_transpose_round`] moves per block (32 × 32 floats).
pub const TILE: u32 = 32;
/// Rows of threads per transpose block: a `TILE × ROWS` block, each thread moving `TILE / ROWS`
/// elements.
pub const ROWS: u32 = 8;

/// `x` rounded to nearest TF32 (10 mantissa bits; ties away from zero, as `cvt.rna.tf32.f32`), with
/// the low 13 bits cleared so the value is exactly a TF32. NaN and the infinities pass unchanged;
/// finite values that round past the largest TF32 become infinity.
#[inline(always)]
pub fn round_tf32(x: f32) -> f32 {
    let bits = x.to_bits();
    if bits & 0x7F80_0000 == 0x7F80_0000 {
        x
    } else {
        f32::from_bits((bits + 0x1000) & 0xFFFF_E000)
    }
}

kernel! {
    /// `dst[i] = round_tf32(src[i])` for `i < len`: one element per thread, `⌈len / BLOCK⌉` blocks
    /// of [`BLOCK`] threads.
    ///
    /// # Safety
    /// `src` and `dst` are valid for `len` floats and do not overlap.
    pub unsafe fn tf32_round(src: *const f32, dst: *mut f32, len: u32) {
        use crate::device::{mem::View, thread};
        // SAFETY: the caller passes buffers of `len` floats.
        let (src, dst) = unsafe { (View::from_const(src, len as usize), View::new(dst, len as usize)) };
        let i = thread::block_idx_x() * BLOCK + thread::thread_idx_x();
        if i < len {
            // SAFETY: i < len.
            unsafe { dst.set(i as usize, round_tf32(src.get(i as usize))) }
        }
    }
}

kernel! {
    /// `dst = round_tf32(srcᵀ)`: `src` is `rows × cols` row-major, `dst` `cols × rows` row-major.
    ///
    /// **Tiling**: block `(bx, by)` moves the 32×32 tile at rows `32·by`, columns `32·bx` through a
    /// shared `[32][33]` tile (the padding column keeps the transposed reads conflict-free): thread
    /// `(tx, ty)` reads rows `ty + 8i` (coalesced along the row), barrier, writes `dst` rows `32·bx +
    /// ty + 8i` (coalesced along the output row). Grid `⌈cols/32⌉ × ⌈rows/32⌉`, block `32 × 8`,
    /// `33·32·4` bytes of dynamic shared memory ([`transpose_shared_bytes`]).
    ///
    /// # Safety
    /// `src` and `dst` are valid for `rows·cols` floats (fits in `u32`) and do not overlap; the launch
    /// is the one above.
    pub unsafe fn tf32_transpose_round(src: *const f32, dst: *mut f32, rows: u32, cols: u32) {
        use crate::device::{mem::View, shared::SharedTiles, thread};
        let len = (rows * cols) as usize;
        // SAFETY: the caller passes buffers of rows·cols floats.
        let (src, dst) = unsafe { (View::from_const(src, len), View::new(dst, len)) };
        // SAFETY: the launch provides transpose_shared_bytes() bytes.
        let tile = unsafe { SharedTiles::<f32>::new().tile(((TILE + 1) * TILE) as usize) };
        let (tx, ty) = (thread::thread_idx_x(), thread::thread_idx_y());
        let (r0, c0) = (thread::block_idx_y() * TILE, thread::block_idx_x() * TILE);
        for i in 0..TILE / ROWS {
            let (r, c) = (r0 + ty + i * ROWS, c0 + tx);
            if r < rows && c < cols {
                // SAFETY: r < rows, c < cols; the tile index is below 32·33.
                unsafe { tile.set(((ty + i * ROWS) * (TILE + 1) + tx) as usize, round_tf32(src.get((r * cols + c) as usize))) };
            }
        }
        // SAFETY: reached by every thread of the block (no early return).
        unsafe { thread::sync_threads() };
        for i in 0..TILE / ROWS {
            // Output row = input column c0 + ty + 8i, output column = input row r0 + tx.
            let (r, c) = (c0 + ty + i * ROWS, r0 + tx);
            if r < cols && c < rows {
                // SAFETY: r < cols, c < rows; the tile element was written above (its source was in range).
                unsafe { dst.set((r * rows + c) as usize, tile.get((tx * (TILE + 1) + ty + i * ROWS) as usize)) };
            }
        }
    }
}

/// Dynamic shared memory of [`tf32_transpose_round`], in bytes.
pub const fn transpose_shared_bytes() -> u32 {
    (TILE + 1) * TILE * 4
}
