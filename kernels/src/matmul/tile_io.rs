//! Global ↔ shared/register tile movement shared by kernels 5–10: kernels 5–8 use its loads and
//! stores, kernel 9 only [`b_slot`], kernel 10 those of kernel 8's `accumulate`.
//!
//! Every function takes `fast`, a **block-uniform** flag: when the whole tile lies inside the matrix
//! and rows are 16-byte aligned (the dimension it walks is a multiple of 4), it moves `float4`s with
//! 128-bit loads and no range checks. An edge tile whose rows are still 16-byte aligned moves
//! `float4`s too, slot by slot: a slot is then either wholly inside the matrix or wholly outside it
//! (and reads as zeros, which add nothing to a dot product). Only unaligned rows take single guarded
//! floats. No barrier is inside, so a divergent path only costs speed, never a deadlock.
use crate::device::mem::{Float4, View};

/// Reads this thread's `L` slots of the `BM×BK` tile of `A` at `(row0, k0)` into registers.
/// Slot `l` is float4 number `tid + l·NT` of the tile, row-major: row `idx / (BK/4)`, columns
/// `(idx % (BK/4))·4 .. +4` — consecutive threads read consecutive 16 bytes of a row (coalesced).
/// Columns at or past `k` read as zero; rows are `lda` floats apart (`lda = k` for a whole matrix,
/// larger when `k` ends a split-K slice early).
///
/// # Safety
/// `a` holds `m·lda` floats from a 16-byte aligned base, `k ≤ lda`; `fast` only when `row0 + BM ≤ m`, `k0 + BK ≤ k`,
/// `lda % 4 == 0` and `k0 % 4 == 0`; `L·NT·4 = BM·BK`.
#[allow(clippy::too_many_arguments)] // a tile load's extent, position and path: all scalars, kept in registers
#[inline(always)]
pub unsafe fn load_a<const BM: u32, const BK: u32, const NT: u32, const L: usize>(
    a: View<f32>,
    m: u32,
    k: u32,
    lda: u32,
    row0: u32,
    k0: u32,
    tid: u32,
    fast: bool,
) -> [Float4; L] {
    const { assert!(L as u32 * NT * 4 == BM * BK) };
    // Rows 16-byte aligned and slots all-in or all-out: a slot starts at a multiple of 4 (k0 too).
    let aligned = lda.is_multiple_of(4) && k.is_multiple_of(4) && k0.is_multiple_of(4);
    let mut r = [Float4::default(); L];
    for (l, slot) in r.iter_mut().enumerate() {
        let idx = tid + l as u32 * NT;
        let (gr, gc) = (row0 + idx / (BK / 4), k0 + (idx % (BK / 4)) * 4);
        if fast {
            // SAFETY: gr < m, gc + 4 ≤ k ≤ lda, gc % 4 == 0 and lda % 4 == 0 (the `fast` contract).
            *slot = unsafe { a.get4((gr * lda + gc) as usize) };
        } else if aligned {
            if gr < m && gc < k {
                // SAFETY: gc % 4 == 0 and k % 4 == 0, so gc < k means gc + 4 ≤ k ≤ lda; 16-byte aligned.
                *slot = unsafe { a.get4((gr * lda + gc) as usize) };
            }
        } else {
            for e in 0..4 {
                // SAFETY: range-checked.
                slot.0[e] = if gr < m && gc + (e as u32) < k { unsafe { a.get((gr * lda + gc + e as u32) as usize) } } else { 0.0 };
            }
        }
    }
    r
}

/// Writes registers from [`load_a`] into the shared tile transposed: `tile[kk·LDA + row]`, so that the
/// compute loop reads 4 consecutive rows of one K column as one float4.
///
/// # Safety
/// `tile` holds at least `BK·LDA` floats, `LDA ≥ BM`.
#[inline(always)]
pub unsafe fn store_a_transposed<const BK: u32, const NT: u32, const LDA: u32, const L: usize>(
    tile: View<f32>,
    regs: &[Float4; L],
    tid: u32,
) {
    for (l, v) in regs.iter().enumerate() {
        let idx = tid + l as u32 * NT;
        let (r, c) = (idx / (BK / 4), (idx % (BK / 4)) * 4);
        for e in 0..4u32 {
            // SAFETY: c + e < BK and r < BM ≤ LDA.
            unsafe { tile.set(((c + e) * LDA + r) as usize, v.0[e as usize]) }
        }
    }
}

/// The `B` tile slot `l` of this thread: (row, column) inside the `BK×BN` tile.
#[inline(always)]
pub fn b_slot<const BN: u32, const NT: u32>(tid: u32, l: u32) -> (u32, u32) {
    let idx = tid + l * NT;
    (idx / (BN / 4), (idx % (BN / 4)) * 4)
}

/// Issues this thread's `cp.async` copies of the `BK×BN` tile of `B` at `(k0, col0)` into `tile`
/// (row-major, `BN` wide), zero-filling what lies at or past row `k_end` or column `n`: one 16-byte
/// copy per slot where rows are 16-byte aligned (`n % 4 == 0`: a slot is then wholly inside `B` or
/// wholly outside), four 4-byte copies otherwise. Not committed (the caller groups them).
///
/// # Safety
/// `b` holds `k·n` floats from a 16-byte aligned base (`k·n ≥ 4` when `n % 4 == 0`), `k_end ≤ k`;
/// `tile` holds `BK·BN` floats, 16-byte aligned; `BK·BN = 4·NT·(slots per thread)`.
#[inline(always)]
pub unsafe fn copy_b_zfill<const BN: u32, const BK: u32, const NT: u32>(
    tile: View<f32>,
    b: View<f32>,
    n: u32,
    k0: u32,
    k_end: u32,
    col0: u32,
    tid: u32,
) {
    use crate::device::async_copy;
    if n.is_multiple_of(4) {
        for l in 0..BK * BN / (4 * NT) {
            let (r, cc) = b_slot::<BN, NT>(tid, l);
            let (gr, gc) = (k0 + r, col0 + cc);
            let valid = gr < k_end && gc < n;
            // SAFETY: destination r·BN + cc < BK·BN, 16-byte aligned (cc % 4 == 0, BN % 4 == 0);
            // source inside B when valid (16-byte aligned: n % 4 == 0), else 0 with nothing read.
            unsafe { async_copy::copy16_zfill(tile, (r * BN + cc) as usize, b, if valid { (gr * n + gc) as usize } else { 0 }, valid) };
        }
    } else {
        for l in 0..BK * BN / (4 * NT) {
            let (r, cc) = b_slot::<BN, NT>(tid, l);
            for e in 0..4 {
                let (gr, gc) = (k0 + r, col0 + cc + e);
                let valid = gr < k_end && gc < n;
                // SAFETY: destination r·BN + cc + e < BK·BN; source inside B when valid, else 0.
                unsafe {
                    async_copy::copy4_zfill(tile, (r * BN + cc + e) as usize, b, if valid { (gr * n + gc) as usize } else { 0 }, valid)
                };
            }
        }
    }
}

/// Reads this thread's `L` float4 slots of the `BK×BN` tile of `B` at `(k0, col0)`.
///
/// # Safety
/// `b` holds `k·n` floats from a 16-byte aligned base; `fast` only when `k0 + BK ≤ k`, `col0 + BN ≤ n` and `n % 4 == 0`;
/// `L·NT·4 = BK·BN`.
#[inline(always)]
pub unsafe fn load_b<const BN: u32, const BK: u32, const NT: u32, const L: usize>(
    b: View<f32>,
    n: u32,
    k: u32,
    k0: u32,
    col0: u32,
    tid: u32,
    fast: bool,
) -> [Float4; L] {
    const { assert!(L as u32 * NT * 4 == BK * BN) };
    // Rows 16-byte aligned; a slot starts at a multiple of 4 (`col0` and the slot column both are).
    let aligned = n.is_multiple_of(4) && col0.is_multiple_of(4);
    let mut r = [Float4::default(); L];
    for (l, slot) in r.iter_mut().enumerate() {
        let (br, bc) = b_slot::<BN, NT>(tid, l as u32);
        let (gr, gc) = (k0 + br, col0 + bc);
        if fast {
            // SAFETY: gr < k, gc + 4 ≤ n, 16-byte aligned (the `fast` contract).
            *slot = unsafe { b.get4((gr * n + gc) as usize) };
        } else if aligned {
            if gr < k && gc < n {
                // SAFETY: gc % 4 == 0 and n % 4 == 0, so gc < n means gc + 4 ≤ n; 16-byte aligned.
                *slot = unsafe { b.get4((gr * n + gc) as usize) };
            }
        } else {
            for e in 0..4 {
                // SAFETY: range-checked.
                slot.0[e] = if gr < k && gc + (e as u32) < n { unsafe { b.get((gr * n + gc + e as u32) as usize) } } else { 0.0 };
            }
        }
    }
    r
}

/// Writes registers from [`load_b`] into the shared tile row-major (`tile[row·LDB + col]`), one
/// float4 store each.
///
/// # Safety
/// `tile` holds at least `BK·LDB` floats, `LDB ≥ BN`, `LDB % 4 == 0`.
#[inline(always)]
pub unsafe fn store_b<const BN: u32, const NT: u32, const LDB: u32, const L: usize>(tile: View<f32>, regs: &[Float4; L], tid: u32) {
    for (l, v) in regs.iter().enumerate() {
        let (r, c) = b_slot::<BN, NT>(tid, l as u32);
        // SAFETY: r < BK, c + 4 ≤ BN ≤ LDB, c and LDB multiples of 4.
        unsafe { tile.set4((r * LDB + c) as usize, *v) }
    }
}

/// Stores a 4-wide row fragment of `C` at `(r, col)`: one float4 store when `fast` (the whole block
/// tile is inside `C` and `n % 4 == 0`) or when rows are aligned and the fragment is inside `C`, none
/// when it is outside, else up to four guarded stores.
///
/// # Safety
/// `c` holds `m·n` floats from a 16-byte aligned base; `fast` only when `r < m`, `col + 4 ≤ n`, `n % 4 == 0`, `col % 4 == 0`.
#[inline(always)]
pub unsafe fn store_c4(c: View<f32>, m: u32, n: u32, r: u32, col: u32, v: [f32; 4], fast: bool) {
    if fast {
        // SAFETY: the `fast` contract.
        unsafe { c.set4((r * n + col) as usize, Float4(v)) }
    } else if n.is_multiple_of(4) && col.is_multiple_of(4) {
        if r < m && col < n {
            // SAFETY: col % 4 == 0 and n % 4 == 0, so col < n means col + 4 ≤ n; 16-byte aligned.
            unsafe { c.set4((r * n + col) as usize, Float4(v)) }
        }
    } else {
        for e in 0..4u32 {
            if r < m && col + e < n {
                // SAFETY: range-checked.
                unsafe { c.set((r * n + col + e) as usize, v[e as usize]) }
            }
        }
    }
}
