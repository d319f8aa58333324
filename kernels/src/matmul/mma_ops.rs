//! The tensor-core operand kinds the mma ladder (kernels 11–13) is generic over: BF16 and FP16
//! (`mma.m16n8k16`, 16-bit elements stored as raw `u16` bits) and TF32 (`mma.m16n8k8` on `f32` data,
//! rounded to nearest as the fragments are formed, see [`tf32_rna_bits`]). Accumulation is `f32` in all three.
//!
//! Each kind says how to form its A and B fragments — from global memory (kernel 11) or from a
//! shared tile (kernels 12–13) — and which XOR swizzle keeps its shared-memory fragment reads free of
//! bank conflicts. Shared tiles are stored in 16-byte chunks: `A` as `[BM][BK]` (K contiguous, rows of
//! `CA = BK / PER_CHUNK` chunks), `B` as `[BK][BN]` (N contiguous, our row-major layout, rows of
//! `CB = BN / PER_CHUNK` chunks). A logical chunk `c` of row `r` sits at physical chunk
//! `c ^ swizzle(r)`.
//!
//! **How `B` (K×N, N contiguous) becomes the "col" operand mma wants.** The B fragment pairs elements
//! along K (`(k = 2t, n = g)` and `(k = 2t+1, n = g)` in one register), i.e. it wants B K-major, while
//! our rows run along N. For 16-bit types `ldmatrix.trans` does the transpose on the way out of shared
//! memory: each lane points at one K-row of an 8×8 block (8 consecutive N), and the transposed
//! distribution hands every lane its K-pairs. For TF32 (32-bit elements, which `ldmatrix.trans` cannot
//! transpose) each lane reads its two elements `(k = t, n = g)`, `(k = t + 4, n = g)` with plain
//! shared loads, and the swizzle spreads the four `k` rows a warp reads over distinct banks.
use crate::device::mem::View;
use crate::device::mma;

/// One tensor-core operand kind (BF16, FP16 or TF32).
pub trait MmaKind {
    /// The element type in memory: raw `u16` bits (BF16, FP16) or `f32` (TF32).
    type Elem: Copy + Default;
    /// The zero of `Elem` (padding outside the matrix).
    const ZERO: Self::Elem;
    /// K of one `mma` (16 or 8).
    const K: u32;
    /// Elements per 16-byte chunk (8 or 4).
    const PER_CHUNK: u32;
    /// Padding elements at the end of each row of a shared `B` tile (a multiple of `PER_CHUNK`).
    const B_PAD: u32;

    /// `D = A·B + C` on one 16×8×K tile.
    ///
    /// # Safety
    /// Warp-collective: all 32 lanes of the warp call it together, converged.
    unsafe fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4];

    /// This lane's A fragment of the 16×K block of `A` (M×K, row-major) at `(r0, k0)`, straight from
    /// global memory; elements outside the matrix read as zero.
    ///
    /// # Safety
    /// `a` holds `m·k` elements.
    unsafe fn a_frag_global(a: View<Self::Elem>, m: u32, k: u32, r0: u32, k0: u32, lane: u32) -> [u32; 4];

    /// This lane's B fragment of the K×8 block of `B` (K×N, row-major) at `(k0, n0)`, from global memory.
    ///
    /// # Safety
    /// `b` holds `k·n` elements.
    unsafe fn b_frag_global(b: View<Self::Elem>, k: u32, n: u32, k0: u32, n0: u32, lane: u32) -> [u32; 2];

    /// Swizzle of row `k` of a B tile (`[BK][BN]`) of `cb` chunks per row.
    fn swizzle_b(k: u32, cb: u32) -> u32;

    /// This lane's A fragment of the 16×K block at `(r0, kk)` of the shared A tile (`ca` chunks per
    /// row, swizzled with [`swizzle_a`] when `swizzle`).
    ///
    /// # Safety
    /// The tile holds at least `(r0 + 16)·ca` chunks and `kk + K ≤ ca·PER_CHUNK`; warp-collective.
    unsafe fn a_frag_shared(tile: View<Self::Elem>, ca: u32, r0: u32, kk: u32, lane: u32, swizzle: bool) -> [u32; 4];

    /// This lane's B fragments of the four K×8 `mma` tiles that cover the 32 columns `n0 .. n0 + 32` of
    /// the shared B tile (`cb` chunks per row) at `kk`. Which physical column a tile's column `l` is,
    /// is [`MmaKind::column`]'s choice.
    ///
    /// # Safety
    /// The tile holds at least `(kk + K)·cb` chunks, `n0 % 32 == 0` and `n0 + 32 ≤ cb·PER_CHUNK`;
    /// warp-collective.
    unsafe fn b_frags_shared(tile: View<Self::Elem>, cb: u32, kk: u32, n0: u32, lane: u32, swizzle: bool) -> [[u32; 2]; 4];

    /// The physical column, within a group of 32, of column `l` (0..8) of the group's `mma` tile `j`
    /// (0..4) — for `b_frags_shared`'s B columns and the output columns of the same tile. The
    /// assignment is free (a permutation of N applied to B and C alike): BF16/FP16 keep tiles
    /// contiguous (`8j + l`); TF32 interleaves them (`4l + j`), so that one lane's B elements of the
    /// four tiles are 4 adjacent floats — one 128-bit shared load.
    fn column(j: u32, l: u32) -> u32;

    /// Whether a lane's two fragment values `2t` and `2t + 1` of a tile are adjacent columns
    /// ([`MmaKind::column`]): a 16-bit `C` stages them as one 32-bit word.
    const ADJACENT_PAIRS: bool;
}

/// Swizzle of row `r` of an A tile with `ca` chunks per row: the 8 rows one `ldmatrix` phase reads
/// (same logical chunk) land on 8 distinct 16-byte bank groups. Rows sharing a 128-byte line
/// (`8 / ca` of them) are already apart; rows of different lines get different XOR masks.
#[inline(always)]
pub fn swizzle_a(r: u32, ca: u32) -> u32 {
    if ca >= 8 {
        r % 8
    } else {
        (r * ca / 8) % ca
    }
}

/// The TF32 operand word of an `f32`: its bits plus half a TF32 unit in the last place. The tensor
/// core ignores the low 13 bits, so this rounds to nearest with ties away from zero — exactly
/// `cvt.rna.tf32.f32` ([`mma::to_tf32`]) for every finite value, in one integer add instead of a
/// conversion (CUTLASS's `round_half_ulp_truncate`). Values that round past the largest finite TF32
/// become infinity, as with `cvt.rna`; infinities stay infinite (the added bit is one the tensor core
/// drops). A NaN stays NaN unless its top 10 payload bits are all set (e.g. the all-ones pattern
/// `0xFFFF_FFFF`): the carry then leaves the exponent field and the word reads as ±0 or a tiny
/// number — a known gap of this fast path (kernel 14's `tf32_operands::round_tf32` checks for it).
#[inline(always)]
pub fn tf32_rna_bits(x: f32) -> u32 {
    x.to_bits().wrapping_add(0x1000)
}

/// The physical element offset of logical chunk `c`, element `e`, of row `r` in a tile of `chunks`
/// chunks per row and `per_chunk` elements per chunk, with row swizzle `s`.
#[inline(always)]
pub fn offset(r: u32, c: u32, e: u32, chunks: u32, per_chunk: u32, s: u32) -> usize {
    ((r * chunks + (c ^ s)) * per_chunk + e) as usize
}

/// BF16: `mma.sync.m16n8k16.row.col.f32.bf16.bf16.f32`.
pub struct Bf16;
/// FP16: `mma.sync.m16n8k16.row.col.f32.f16.f16.f32`.
pub struct F16;
/// TF32 on `f32` data: `mma.sync.m16n8k8.row.col.f32.tf32.tf32.f32`, inputs rounded to nearest as
/// the fragments are formed ([`tf32_rna_bits`]), as cuBLAS's TF32 mode does (measured: docs/ladder).
pub struct Tf32;

/// Element `(r, c)` of a row-major `rows × cols` matrix, or zero outside it.
///
/// # Safety
/// `v` holds `rows·cols` elements.
#[inline(always)]
pub(crate) unsafe fn at<T: Copy>(v: View<T>, rows: u32, cols: u32, r: u32, c: u32, zero: T) -> T {
    // SAFETY: r < rows and c < cols, so r·cols + c < rows·cols.
    if r < rows && c < cols {
        unsafe { v.get((r * cols + c) as usize) }
    } else {
        zero
    }
}

macro_rules! half_kind {
    ($kind:ident, $mma:path) => {
        impl MmaKind for $kind {
            type Elem = u16;
            const ZERO: u16 = 0;
            const K: u32 = 16;
            const PER_CHUNK: u32 = 8;
            const B_PAD: u32 = 0;
            const ADJACENT_PAIRS: bool = true;

            #[inline(always)]
            unsafe fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
                // SAFETY: forwarded contract (the whole warp, converged).
                unsafe { $mma(a, b, c) }
            }

            #[inline(always)]
            unsafe fn a_frag_global(a: View<u16>, m: u32, k: u32, r0: u32, k0: u32, lane: u32) -> [u32; 4] {
                let (g, t) = (lane / 4, lane % 4);
                // SAFETY: `at` guards every index.
                let e = |r: u32, c: u32| unsafe { at(a, m, k, r0 + r, k0 + c, 0) };
                [
                    mma::pack_b16(e(g, 2 * t), e(g, 2 * t + 1)),
                    mma::pack_b16(e(g + 8, 2 * t), e(g + 8, 2 * t + 1)),
                    mma::pack_b16(e(g, 2 * t + 8), e(g, 2 * t + 9)),
                    mma::pack_b16(e(g + 8, 2 * t + 8), e(g + 8, 2 * t + 9)),
                ]
            }

            #[inline(always)]
            unsafe fn b_frag_global(b: View<u16>, k: u32, n: u32, k0: u32, n0: u32, lane: u32) -> [u32; 2] {
                let (g, t) = (lane / 4, lane % 4);
                // SAFETY: `at` guards every index.
                let e = |kr: u32| unsafe { at(b, k, n, k0 + kr, n0 + g, 0) };
                [mma::pack_b16(e(2 * t), e(2 * t + 1)), mma::pack_b16(e(2 * t + 8), e(2 * t + 9))]
            }

            #[inline(always)]
            fn swizzle_b(k: u32, cb: u32) -> u32 {
                // A's swizzle: `k % 8` on rows of at least 8 chunks; rows of fewer (a 32-wide tile,
                // 4 chunks) share a 128-byte line, and theirs keep an ldmatrix phase's 8 rows apart.
                swizzle_a(k, cb)
            }

            #[inline(always)]
            unsafe fn a_frag_shared(tile: View<u16>, ca: u32, r0: u32, kk: u32, lane: u32, swizzle: bool) -> [u32; 4] {
                // ldmatrix.x4: lanes 8i..8i+8 address the rows of quarter i (TL, BL, TR, BR).
                let r = r0 + lane % 8 + 8 * ((lane / 8) % 2);
                let c = kk / 8 + lane / 16;
                let s = if swizzle { swizzle_a(r, ca) } else { 0 };
                // SAFETY: the row is inside the tile by the caller's contract; chunks are 16-byte aligned.
                unsafe { mma::ldmatrix_x4(tile, offset(r, c, 0, ca, 8, s)) }
            }

            #[inline(always)]
            unsafe fn b_frags_shared(tile: View<u16>, cb: u32, kk: u32, n0: u32, lane: u32, swizzle: bool) -> [[u32; 2]; 4] {
                // Two ldmatrix.x4.trans, 16 columns each: quarter i = (k half i % 2, n half i / 2);
                // each lane points at one K-row of one 8×8 block.
                let q = lane / 8;
                let kr = kk + lane % 8 + 8 * (q % 2);
                let s = if swizzle { Self::swizzle_b(kr, cb) } else { 0 };
                // SAFETY: as above (both 16-column halves are inside the tile).
                let (lo, hi) = unsafe {
                    (
                        mma::ldmatrix_x4_trans(tile, offset(kr, n0 / 8 + q / 2, 0, cb, 8, s)),
                        mma::ldmatrix_x4_trans(tile, offset(kr, n0 / 8 + 2 + q / 2, 0, cb, 8, s)),
                    )
                };
                [[lo[0], lo[1]], [lo[2], lo[3]], [hi[0], hi[1]], [hi[2], hi[3]]]
            }

            #[inline(always)]
            fn column(j: u32, l: u32) -> u32 {
                8 * j + l
            }
        }
    };
}

half_kind!(Bf16, mma::mma_m16n8k16_bf16);
half_kind!(F16, mma::mma_m16n8k16_f16);

impl MmaKind for Tf32 {
    type Elem = f32;
    const ZERO: f32 = 0.0;
    const K: u32 = 8;
    const PER_CHUNK: u32 = 4;
    const ADJACENT_PAIRS: bool = false;
    // 8 floats: K-rows t = 0..4 (one B load of the warp) start 8 banks apart.
    const B_PAD: u32 = 8;

    #[inline(always)]
    unsafe fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        // SAFETY: forwarded contract (the whole warp, converged).
        unsafe { mma::mma_m16n8k8_tf32(a, b, c) }
    }

    #[inline(always)]
    unsafe fn a_frag_global(a: View<f32>, m: u32, k: u32, r0: u32, k0: u32, lane: u32) -> [u32; 4] {
        let (g, t) = (lane / 4, lane % 4);
        // SAFETY: `at` guards every index.
        let e = |r: u32, c: u32| tf32_rna_bits(unsafe { at(a, m, k, r0 + r, k0 + c, 0.0) });
        [e(g, t), e(g + 8, t), e(g, t + 4), e(g + 8, t + 4)]
    }

    #[inline(always)]
    unsafe fn b_frag_global(b: View<f32>, k: u32, n: u32, k0: u32, n0: u32, lane: u32) -> [u32; 2] {
        let (g, t) = (lane / 4, lane % 4);
        // SAFETY: `at` guards every index.
        let e = |kr: u32| tf32_rna_bits(unsafe { at(b, k, n, k0 + kr, n0 + g, 0.0) });
        [e(t), e(t + 4)]
    }

    #[inline(always)]
    fn swizzle_b(_k: u32, _cb: u32) -> u32 {
        // No swizzle: the row padding (`B_PAD`) keeps a warp's four K-rows in distinct banks, and
        // lanes address their loads at constant offsets from one base.
        0
    }

    #[inline(always)]
    unsafe fn a_frag_shared(tile: View<f32>, ca: u32, r0: u32, kk: u32, lane: u32, swizzle: bool) -> [u32; 4] {
        // ldmatrix.x4 on 32-bit data seen as pairs of b16: an 8×8 b16 matrix is 8 rows × 4 f32, and
        // lane (g, t) receives element (g, t) of each — exactly the TF32 A fragment for the quarters
        // (rows 0–7, k 0–3), (rows 8–15, k 0–3), (rows 0–7, k 4–7), (rows 8–15, k 4–7).
        let r = r0 + lane % 8 + 8 * ((lane / 8) % 2);
        let c = kk / 4 + lane / 16;
        let s = if swizzle { swizzle_a(r, ca) } else { 0 };
        // SAFETY: the same memory seen as twice as many u16; the row is in the tile (caller's contract).
        let raw = unsafe { mma::ldmatrix_x4(tile.as_u16(), 2 * offset(r, c, 0, ca, 4, s)) };
        raw.map(|w| tf32_rna_bits(f32::from_bits(w)))
    }

    #[inline(always)]
    unsafe fn b_frags_shared(tile: View<f32>, cb: u32, kk: u32, n0: u32, lane: u32, swizzle: bool) -> [[u32; 2]; 4] {
        // Rows are padded (`B_PAD`), not swizzled: a warp's loads from 4 K-rows fall in distinct banks.
        let _ = swizzle;
        let (g, t) = (lane / 4, lane % 4);
        // Tile j's column l is physical column 4l + j (see `column`): the lane's elements of the
        // four tiles at row k are one 16-byte chunk, one 128-bit load; the rounding adds write
        // each into the register pair its `mma` takes.
        let row = |kr: u32| {
            // SAFETY: inside the tile by the caller's contract; chunks are 16-byte aligned.
            unsafe { tile.get4(((kr * cb + n0 / 4 + g) * 4) as usize) }.0
        };
        let (lo, hi) = (row(kk + t), row(kk + t + 4));
        core::array::from_fn(|j| [tf32_rna_bits(lo[j]), tf32_rna_bits(hi[j])])
    }

    #[inline(always)]
    fn column(j: u32, l: u32) -> u32 {
        4 * l + j
    }
}
