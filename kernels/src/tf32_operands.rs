//! TF32 operands prepared on the host: `wgmma` reads TF32 operands straight from shared memory, only
//! K-major, and uses the top 19 bits of each word as they are (truncation). So, once per product, in
//! global memory: `B` rounded to nearest TF32 (as cuBLAS's TF32 mode rounds, measured) and
//! transposed to `N × K` (K-major) for kernels 14–16, and `A` rounded for kernel 14 — kernels 15–16
//! round A themselves on its way into registers (`k14_wgmma::Tf32RegsN256`), and get a rounded,
//! padded copy only where its rows are not whole 16-byte units (K not a multiple of 4). Each with the
//! leading dimension the kernel reads (rows padded to 16 bytes for the TMA kernels). Their time is
//! part of every TF32 product's reported time.
use crate::device::mem::View;
use crate::pack::for_each_element;

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
    /// `dst[r·ld + c] = round_tf32(src[r·cols + c])` for `(r, c) < (rows, cols)`: `A` rounded, its rows
    /// `ld ≥ cols` elements apart (`ld = cols` for kernel 14, rounded up to whole 16-byte rows for the
    /// TMA kernels: `tessera_catalogue::registry::tma::plan`); the padding is not written.
    ///
    /// The walk is the pack kernels' ([`for_each_element`], no transposing): coalesced on both sides;
    /// launch `tessera_catalogue::registry::launch::tf32_round`.
    ///
    /// # Safety
    /// `src` is valid for `rows·cols` floats, `dst` for `rows·ld`, not overlapping, `ld ≥ cols`; the
    /// launch has [`pack::BLOCK`](crate::pack::BLOCK) threads and [`shared_bytes`] of dynamic shared
    /// memory.
    pub unsafe fn tf32_round(src: *const f32, dst: *mut f32, rows: u32, cols: u32, ld: u32) {
        let (width, ld) = (cols as usize, ld as usize);
        // SAFETY: the caller's lengths.
        let (src, dst) = unsafe { (View::from_const(src, rows as usize * width), View::new(dst, rows as usize * ld)) };
        // SAFETY: (r, c) < (rows, cols) is read at r·cols + c < rows·cols and stored at r·ld + c < rows·ld;
        // the launch is the one `for_each_element` needs.
        unsafe { for_each_element(src, width, false, rows, cols, |r, c, v| dst.set(r as usize * ld + c as usize, round_tf32(v))) }
    }
}

kernel! {
    /// `dst[c·ld + r] = round_tf32(src[r·cols + c])` for `(r, c) < (rows, cols)`: `src` (`B`, `rows ×
    /// cols`) rounded and transposed into `dst` (`Bᵀ`, `cols × rows`), its rows `ld ≥ rows` elements apart
    /// (as for [`tf32_round`]); the padding is not written.
    ///
    /// The walk is the pack kernels' transposing one ([`for_each_element`]): a warp reads a row of `B`
    /// into a padded shared tile, the block synchronizes, and each warp writes a row of `Bᵀ` from a
    /// column of the tile: coalesced on both sides, no bank conflicts. Launch
    /// `tessera_catalogue::registry::launch::tf32_transpose`.
    ///
    /// # Safety
    /// `src` is valid for `rows·cols` floats, `dst` for `cols·ld`, not overlapping, `ld ≥ rows`; the
    /// launch has [`pack::BLOCK`](crate::pack::BLOCK) threads and [`shared_bytes`] of dynamic shared
    /// memory.
    pub unsafe fn tf32_transpose_round(src: *const f32, dst: *mut f32, rows: u32, cols: u32, ld: u32) {
        let ld = ld as usize;
        // SAFETY: the caller's lengths.
        let (src, dst) = unsafe { (View::from_const(src, rows as usize * cols as usize), View::new(dst, cols as usize * ld)) };
        // The walk's result is Bᵀ (cols × rows), its element (r, c) = src[c·cols + r] = B[c][r]: read
        // below (rows - 1)·cols + cols = rows·cols, stored at r·ld + c < cols·ld (c < rows ≤ ld).
        // SAFETY: those bounds; the launch is the one `for_each_element` needs; the arguments are
        // uniform, so every thread reaches its barriers.
        unsafe {
            for_each_element(src, cols as usize, true, cols, rows, |r, c, v| dst.set(r as usize * ld + c as usize, round_tf32(v)))
        }
    }
}

/// Dynamic shared memory of [`tf32_round`] and [`tf32_transpose_round`], in bytes: the pack walk's
/// tile of `f32`.
pub const fn shared_bytes() -> u32 {
    crate::pack::shared_bytes(4)
}
