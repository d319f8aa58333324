//! The block-tiled tensor-core body kernels 12 and 13 share: shared-memory tiles of `A` and `B`,
//! `ldmatrix` fragments, a warp grid of `mma.sync` tiles, and an `S`-stage `cp.async` pipeline
//! (`S = 1`: load, wait, compute — kernel 12; `S ≥ 3` with the XOR swizzle — kernel 13).
use super::k27_fused::out;
use super::mma_ops::{at, offset, swizzle_a, MmaKind};
use crate::device::async_copy::{self, SharedPtr};
use crate::device::math::{f32x2_to_bf16x2, f32x2_to_f16x2};
use crate::device::mem::{Float2, Half4, View};
use crate::device::{shared::SharedTiles, thread, unroll};

/// Dynamic shared memory, in bytes, of `stages` stages of an `A` tile `[bm][bk]` and a `B` tile
/// `[bk][bn + b_pad]` of `elem_bytes`-byte elements (`b_pad`: [`MmaKind::B_PAD`]).
pub const fn shared_bytes(bm: u32, bn: u32, bk: u32, stages: u32, elem_bytes: u32, b_pad: u32) -> u32 {
    stages * (bm * bk + bk * (bn + b_pad)) * elem_bytes
}

/// 16-byte chunks per row of a `BN`-wide `B` tile in shared memory, padding included.
#[inline(always)]
const fn b_pitch<O: MmaKind, const BN: u32>() -> u32 {
    (BN + O::B_PAD) / O::PER_CHUNK
}

/// One thread's share of the tile copies: with `NT` threads and `ca` (`cb`) 16-byte chunks per row of
/// the `A` (`B`) tile, thread `tid` copies chunk column `tid % ca` of rows `tid / ca + i·NT/ca`
/// (`i < LA`), and likewise for `B`. Only these four numbers are kept (registers are the scarce
/// resource); each copy's addresses are a few integer operations with constants.
#[derive(Clone, Copy)]
struct Copies {
    a_row: u32,
    a_col: u32,
    b_row: u32,
    b_col: u32,
}

impl Copies {
    /// Thread `tid`'s place in the copies of a `BK`-deep, `BN`-wide tile pair.
    #[inline(always)]
    fn new<O: MmaKind, const BK: u32, const BN: u32>(tid: u32) -> Self {
        let (ca, cb) = (BK / O::PER_CHUNK, BN / O::PER_CHUNK);
        Copies { a_row: tid / ca, a_col: tid % ca, b_row: tid / cb, b_col: tid % cb }
    }

    /// Issues `A`'s share of K-tile `k0 / BK`: `cp.async` copies of `W` bytes (16, 8 or 4) into the
    /// tile starting at `sa`, each wholly inside or outside the matrix, zero-filled outside. Not
    /// committed: the caller commits `A`'s and `B`'s copies as one group.
    ///
    /// # Safety
    /// As [`mma_gemm`], with `k` a multiple of `W / size_of::<Elem>()` (each piece lies wholly inside
    /// or outside a row); `sa` starts one stage's `A` tile.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // the view, the problem and the tile position: all scalars
    unsafe fn issue_a<O: MmaKind, const BK: u32, const NT: u32, const LA: usize, const SWIZZLE: bool, const W: u32>(
        self,
        a: View<O::Elem>,
        sa: SharedPtr<O::Elem>,
        m: u32,
        k: u32,
        row0: u32,
        k0: u32,
    ) {
        let (pc, per) = (O::PER_CHUNK, W / core::mem::size_of::<O::Elem>() as u32);
        let ca = BK / pc;
        let ka = k0 + self.a_col * pc;
        for i in 0..LA as u32 {
            let r = self.a_row + i * (NT / ca);
            let dst = offset(r, self.a_col, 0, ca, pc, if SWIZZLE { swizzle_a(r, ca) } else { 0 }) as u32;
            for p in 0..pc / per {
                let (col, valid) = (ka + p * per, row0 + r < m && ka + p * per < k);
                // SAFETY: the piece is inside the stage's chunk; the source is in range when valid
                // (row < m, the piece inside K), 0 otherwise (a legal address, nothing read).
                unsafe {
                    copy_piece::<O::Elem, W>(sa.offset(dst + p * per), a, if valid { ((row0 + r) * k + col) as usize } else { 0 }, valid)
                };
            }
        }
    }

    /// [`Copies::issue_a`] for `B`'s share (`n` a multiple of `W / size_of::<Elem>()`).
    ///
    /// # Safety
    /// As [`Copies::issue_a`], for `B`'s rows (`n`) and one stage's `B` tile `sb`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // as `issue_a`
    unsafe fn issue_b<O: MmaKind, const BN: u32, const NT: u32, const LB: usize, const SWIZZLE: bool, const W: u32>(
        self,
        b: View<O::Elem>,
        sb: SharedPtr<O::Elem>,
        n: u32,
        k: u32,
        col0: u32,
        k0: u32,
    ) {
        let (pc, per) = (O::PER_CHUNK, W / core::mem::size_of::<O::Elem>() as u32);
        let cb = BN / pc;
        let cn = col0 + self.b_col * pc;
        for i in 0..LB as u32 {
            let kr = self.b_row + i * (NT / cb);
            let dst =
                offset(kr, self.b_col, 0, b_pitch::<O, BN>(), pc, if SWIZZLE { O::swizzle_b(kr, b_pitch::<O, BN>()) } else { 0 }) as u32;
            for p in 0..pc / per {
                let (col, valid) = (cn + p * per, k0 + kr < k && cn + p * per < n);
                // SAFETY: as for A (row k0 + kr < k, the piece inside N).
                unsafe {
                    copy_piece::<O::Elem, W>(sb.offset(dst + p * per), b, if valid { ((k0 + kr) * n + col) as usize } else { 0 }, valid)
                };
            }
        }
    }
}

/// One `cp.async` piece of `W` bytes (16, 8 or 4), zero-filled where `valid` is false.
///
/// # Safety
/// As [`async_copy::copy16_zfill_at`] (`W` = 16) or [`async_copy::copy_narrow_zfill_at`].
#[inline(always)]
unsafe fn copy_piece<T: Copy + Default, const W: u32>(dst: SharedPtr<T>, src: View<T>, si: usize, valid: bool) {
    // SAFETY: forwarded from the caller.
    unsafe {
        match W {
            16 => async_copy::copy16_zfill_at(dst, src, si, valid),
            8 => async_copy::copy_narrow_zfill_at::<T, 8>(dst, src, si, valid),
            _ => async_copy::copy_narrow_zfill_at::<T, 4>(dst, src, si, valid),
        }
    }
}

/// The widest `cp.async` piece (16, 8 or 4 bytes) that rows of `len` elements of `elem` bytes allow,
/// or 0 where none does (odd 16-bit rows: element by element). Each operand by its own rows: K for
/// `A`, N for `B`. Public: Auto's model prices each operand's pieces by this same rule.
#[inline(always)]
pub fn piece_bytes(len: u32, elem: u32) -> u32 {
    if (len * elem).is_multiple_of(16) {
        16
    } else if (len * elem).is_multiple_of(8) {
        8
    } else if (len * elem).is_multiple_of(4) {
        4
    } else {
        0
    }
}

/// Loads one operand's share of a K-tile element by element, guarded, into `tile`, storing
/// synchronously: the path for rows no `cp.async` piece fits (odd 16-bit K for `A`, odd N for `B`),
/// correct for any shape. Element `idx` of the `rows × TC` tile is element `(r0 + idx / TC, c0 + idx
/// % TC)` of the row-major `m_rows × m_cols` matrix (zero outside it), stored in chunk `(idx % TC) /
/// pc` of tile row `idx / TC` (`pitch` chunks a row, `swizzle` by row). Consecutive threads take
/// consecutive elements of a row, so a warp's loads are 32 neighbours (64 contiguous bytes of a
/// 16-bit row), not 32 elements 16 bytes apart.
///
/// # Safety
/// As [`mma_gemm`]; `tile` is one stage's tile of the operand, `rows · TC` a multiple of `NT · pc`.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the operand, the tile and its place: all scalars
unsafe fn load_unaligned<O: MmaKind, const TC: u32, const NT: u32>(
    v: View<O::Elem>,
    tile: View<O::Elem>,
    (m_rows, m_cols): (u32, u32),
    (r0, c0): (u32, u32),
    (rows, pitch): (u32, u32),
    swizzle: impl Fn(u32) -> u32,
) {
    let (pc, tid) = (O::PER_CHUNK, thread::thread_idx_x());
    // Groups of `pc` loads, then their `pc` stores: a loop kept rolled, so that ptxas does not hoist
    // every load of the tile above the first store (fully unrolled: 255 registers).
    for g in 0..unroll::opaque((rows * TC) / (NT * pc)) {
        unroll::keep_rolled();
        // `pc` loads (a chunk's worth; with `f32`, whose rows never come here, the first four twice).
        let x: [O::Elem; 8] = core::array::from_fn(|e| {
            let idx = tid + (g * pc + (e as u32 % pc)) * NT;
            // SAFETY: `at` guards the global index.
            unsafe { at(v, m_rows, m_cols, r0 + idx / TC, c0 + idx % TC, O::ZERO) }
        });
        for e in 0..pc {
            let (x, idx) = (x[e as usize], tid + (g * pc + e) * NT);
            let (r, col) = (idx / TC, idx % TC);
            // SAFETY: idx < rows·TC (g < rows·TC / (NT·pc)), so r < rows and col < TC: inside the tile.
            unsafe { tile.set(offset(r, col / pc, col % pc, pitch, pc, swizzle(r)), x) };
        }
    }
}

/// Stage `s` of the shared buffer: its `A` tile (`a_len` elements) and `B` tile (`b_len`).
///
/// # Safety
/// `(s + 1)·stage_len ≤ smem.len()`, `a_len + b_len = stage_len`.
#[inline(always)]
unsafe fn stage<T: Copy>(smem: View<T>, s: u32, stage_len: usize, a_len: usize, b_len: usize) -> (View<T>, View<T>) {
    let base = s as usize * stage_len;
    // SAFETY: inside `smem` by the caller's contract.
    unsafe { (smem.sub(base, a_len), smem.sub(base + a_len, b_len)) }
}

/// One K-step on stage `s`: for each `O::K` slice, this warp's `MI` A and `NI` B fragments and its
/// `MI·NI` `mma`s into `acc`.
///
/// # Safety
/// As [`mma_gemm`]; the stage is complete and visible (after the wait and the barrier);
/// `wr + 16·MI ≤ BM`, `wc + 8·NI ≤ BN`. Warp-collective.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the stage, this warp's place and its accumulators
unsafe fn compute_stage<O: MmaKind, const BM: u32, const BN: u32, const BK: u32, const MI: usize, const NI: usize, const SWIZZLE: bool>(
    smem: View<O::Elem>,
    s: u32,
    stage_len: usize,
    wr: u32,
    wc: u32,
    lane: u32,
    acc: &mut [[[f32; 4]; NI]; MI],
) {
    let (ca, cb) = (BK / O::PER_CHUNK, b_pitch::<O, BN>());
    // SAFETY: forwarded contract.
    let (sa, sb) = unsafe { stage::<O::Elem>(smem, s, stage_len, (BM * BK) as usize, (BK * (BN + O::B_PAD)) as usize) };
    let mut kk = 0;
    while kk < BK {
        // SAFETY: wr + 16·MI ≤ BM, wc + 8·NI ≤ BN, kk + K ≤ BK (caller's contract and the loop bound).
        let fa: [[u32; 4]; MI] = core::array::from_fn(|mi| unsafe { O::a_frag_shared(sa, ca, wr + 16 * mi as u32, kk, lane, SWIZZLE) });
        let mut fb = [[0u32; 2]; NI];
        for q in 0..NI / 4 {
            // SAFETY: as above (wc and NI are multiples of 32 columns / 4 tiles).
            let four = unsafe { O::b_frags_shared(sb, cb, kk, wc + 32 * q as u32, lane, SWIZZLE) };
            fb[4 * q..4 * q + 4].copy_from_slice(&four);
        }
        for (mi, row) in acc.iter_mut().enumerate() {
            for (ni, out) in row.iter_mut().enumerate() {
                // SAFETY: every lane of the warp runs this loop (warp-uniform bounds, no early exit).
                *out = unsafe { O::mma(fa[mi], fb[ni], *out) };
            }
        }
        kk += O::K;
    }
}

/// `C = A·B` for operand kind `O` on a `BM × BN` block tile, `BK` per K-step, a `WARPS_M × WARPS_N`
/// grid of warps each owning `(16·MI) × (8·NI)` of the tile, `S` pipeline stages.
///
/// **Shared memory**: `S` stages of `A [BM][BK]` and `B [BK][BN]` in 16-byte chunks; with `SWIZZLE`
/// chunk `c` of row `r` sits at `c ^ swizzle(r)` (see `mma_ops`), so the 8 rows an `ldmatrix` phase
/// reads fall in 8 different bank groups.
///
/// **Per K-step, per warp**: for each `O::K` slice, `MI` A fragments (`ldmatrix.x4`), `NI` B
/// fragments (`ldmatrix.x4.trans`, two 8-column blocks each; TF32: one 128-bit shared load per
/// K-row for four tiles, with the tiles' columns interleaved — `MmaKind::column`), `MI·NI` `mma`s.
///
/// **Pipeline** (`S ≥ 2`): tiles `0 .. S-1` are issued first; at step `kt` a thread waits until at
/// most `S - 2` of its copy groups are pending (tile `kt` has landed), the block barrier makes
/// everyone's copies visible and guarantees everyone finished step `kt - 1`, then tile `kt + S - 1`
/// is issued into the stage step `kt - 1` used, and tile `kt` is computed while up to `S - 1` tiles
/// load. One barrier per K-step. `S = 1`: load, wait, barrier, compute, barrier.
///
/// **Edges**: any M, N, K (`cp.async` zero-fill, or element-wise guarded loads when rows are not
/// 16-byte aligned); only in-range outputs are stored. All lanes of every warp run every `ldmatrix`
/// and `mma` (no early return).
///
/// **Split K** (`SPLIT`, kernel 20): block `(x, y, z)` computes its tile over the `z`-th run of
/// `⌈⌈K/BK⌉ / gridDim.z⌉` K-tiles and, with more than one slice, adds it into `C` atomically.
///
/// # Safety
/// `a` holds `m·k`, `b` `k·n` elements, `c` `m·n` floats (products fit in `u32`), zeroed before a
/// `SPLIT` launch of more than one slice; the launch has
/// `32·WARPS_M·WARPS_N` threads, a `⌈n/BN⌉ × ⌈m/BM⌉` grid and [`shared_bytes`]`(BM, BN, BK, S,
/// size_of::<O::Elem>())` bytes of dynamic shared memory. `out` (`k27_fused::out`) is `F32` unless
/// `STAGED`, where `c` then holds `m·n` elements of its type.
#[inline(always)]
pub unsafe fn mma_gemm<
    O: MmaKind,
    const BM: u32,
    const BN: u32,
    const BK: u32,
    const WARPS_M: u32,
    const WARPS_N: u32,
    const MI: usize,
    const NI: usize,
    const S: u32,
    const SWIZZLE: bool,
    const NT: u32,
    const LA: usize,
    const LB: usize,
    const SPLIT: bool,
    const STAGED: bool,
>(
    a: *const O::Elem,
    b: *const O::Elem,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
    out: u32,
) {
    const { assert!(BM == WARPS_M * 16 * MI as u32 && BN == WARPS_N * 8 * NI as u32 && NI.is_multiple_of(4)) };
    const { assert!(BK.is_multiple_of(O::K) && BK.is_multiple_of(O::PER_CHUNK) && S >= 1) };
    const { assert!(NT == 32 * WARPS_M * WARPS_N && LA as u32 * NT * O::PER_CHUNK == BM * BK && LB as u32 * NT * O::PER_CHUNK == BK * BN) };
    const { assert!(NT.is_multiple_of(BK / O::PER_CHUNK) && NT.is_multiple_of(BN / O::PER_CHUNK)) };
    // A staged tile may store a 16-bit `C`, one word per lane's pair of adjacent sums.
    const { assert!(!STAGED || O::ADJACENT_PAIRS) };
    // A launch of several slices follows C's zeroing (the host queues it as its dependent) and waits
    // only before its adds; one slice waits here, before it reads A or B.
    if !(SPLIT && thread::grid_dim_z() > 1) {
        crate::device::dependent_launch::wait_for_prior_grids();
    }
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let stage_len = (BM * BK + BK * (BN + O::B_PAD)) as usize;
    // SAFETY: the launch provides S stages of (BM·BK + BK·BN) elements.
    let smem = unsafe { SharedTiles::<O::Elem>::new().tile(S as usize * stage_len) };
    // SAFETY: `smem` is this block's shared memory.
    let smem_ptr = unsafe { SharedPtr::new(smem, 0) };
    let (warp, lane) = (thread::thread_idx_x() / 32, thread::lane_id());
    let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
    let (wr, wc) = ((warp / WARPS_N) * 16 * MI as u32, (warp % WARPS_N) * 8 * NI as u32);
    // Each operand copies asynchronously in the widest pieces its rows allow (block-uniform): 16
    // bytes, 8 or 4; only odd 16-bit rows load element by element, and only that operand: an odd K
    // leaves `B` asynchronous where N allows, an odd N `A`.
    let elem = core::mem::size_of::<O::Elem>() as u32;
    let (a_piece, b_piece) = (piece_bytes(k, elem), piece_bytes(n, elem));
    // SPLIT: block z takes the z-th of `gridDim.z` runs of whole K-tiles (an empty run past the end
    // adds zeros).
    let (kt0, steps) = if SPLIT {
        let tiles = k.div_ceil(BK);
        let per = tiles.div_ceil(thread::grid_dim_z());
        let kt0 = (thread::block_idx_z() * per).min(tiles);
        (kt0, (kt0 + per).min(tiles) - kt0)
    } else {
        (0, k.div_ceil(BK))
    };
    // Loads K-tile `kt` into stage `s`. A macro, not a closure: closures are not always inlined, and
    // a call puts the captured views in local memory (seen: a 168-byte stack frame).
    let copies = Copies::new::<O, BK, BN>(thread::thread_idx_x());
    macro_rules! load {
        ($s:expr, $kt:expr) => {
            // SAFETY: stage $s < S lies inside `smem`; $kt < steps; each operand's pieces are ones its
            // rows are aligned to (`piece_bytes`: K and N multiples of them), else element by element.
            unsafe {
                let (sa, sb) = stage::<O::Elem>(smem, $s, stage_len, (BM * BK) as usize, (BK * (BN + O::B_PAD)) as usize);
                let sa_ptr = smem_ptr.offset($s * stage_len as u32);
                let sb_ptr = sa_ptr.offset(BM * BK);
                let k0 = (kt0 + $kt) * BK;
                match a_piece {
                    16 => copies.issue_a::<O, BK, NT, LA, SWIZZLE, 16>(a, sa_ptr, m, k, row0, k0),
                    8 => copies.issue_a::<O, BK, NT, LA, SWIZZLE, 8>(a, sa_ptr, m, k, row0, k0),
                    4 => copies.issue_a::<O, BK, NT, LA, SWIZZLE, 4>(a, sa_ptr, m, k, row0, k0),
                    _ => load_unaligned::<O, BK, NT>(a, sa, (m, k), (row0, k0), (BM, BK / O::PER_CHUNK), |r| {
                        if SWIZZLE {
                            swizzle_a(r, BK / O::PER_CHUNK)
                        } else {
                            0
                        }
                    }),
                }
                match b_piece {
                    16 => copies.issue_b::<O, BN, NT, LB, SWIZZLE, 16>(b, sb_ptr, n, k, col0, k0),
                    8 => copies.issue_b::<O, BN, NT, LB, SWIZZLE, 8>(b, sb_ptr, n, k, col0, k0),
                    4 => copies.issue_b::<O, BN, NT, LB, SWIZZLE, 4>(b, sb_ptr, n, k, col0, k0),
                    _ => load_unaligned::<O, BN, NT>(b, sb, (k, n), (k0, col0), (BK, b_pitch::<O, BN>()), |r| {
                        if SWIZZLE {
                            O::swizzle_b(r, b_pitch::<O, BN>())
                        } else {
                            0
                        }
                    }),
                }
                async_copy::commit();
            }
        };
    }

    let mut acc = [[[0.0f32; 4]; NI]; MI];
    if S == 1 {
        for kt in 0..steps {
            load!(0, kt);
            async_copy::wait_all();
            // SAFETY: reached by every thread of the block (block-uniform loop bounds).
            unsafe { thread::sync_threads() };
            // SAFETY: the stage is complete (barrier); warp offsets inside the tile (const asserts).
            unsafe { compute_stage::<O, BM, BN, BK, MI, NI, SWIZZLE>(smem, 0, stage_len, wr, wc, lane, &mut acc) };
            // SAFETY: as above; nobody overwrites the stage while another warp still reads it.
            unsafe { thread::sync_threads() };
        }
    } else {
        for s in 0..S - 1 {
            if s < steps {
                load!(s, s);
            } else {
                async_copy::commit();
            }
        }
        for kt in 0..steps {
            async_copy::wait_pending(S - 2);
            // SAFETY: reached by every thread of the block (block-uniform loop bounds).
            unsafe { thread::sync_threads() };
            let next = kt + S - 1;
            if next < steps {
                load!(next % S, next);
            } else {
                async_copy::commit();
            }
            // SAFETY: tile kt has landed in stage kt % S (wait + barrier); offsets as above.
            unsafe { compute_stage::<O, BM, BN, BK, MI, NI, SWIZZLE>(smem, kt % S, stage_len, wr, wc, lane, &mut acc) };
        }
    }
    // The K-loop is done: the launch after this one may start its blocks (set here rather than at the
    // start, where it cost the entries registers).
    crate::device::dependent_launch::allow_dependents();

    if STAGED && !SPLIT {
        // The stages hold one warp row's staging tile at least.
        const {
            assert!(
                !STAGED
                    || S as usize * (BM * BK + BK * (BN + O::B_PAD)) as usize * core::mem::size_of::<O::Elem>()
                        >= 4 * 16 * MI * (BN as usize + STAGING_PAD)
            )
        };
        let floats = S * stage_len as u32 * core::mem::size_of::<O::Elem>() as u32 / 4;
        // Every warp's last `ldmatrix` of the stages before they become the staging tile.
        async_copy::wait_all();
        // SAFETY: reached by every thread of the block.
        unsafe { thread::sync_threads() };
        // 4 columns a thread: 16 bytes of `f32`, 8 of a 16-bit type.
        let rows_aligned = n.is_multiple_of(4) && (c.as_mut_ptr() as usize).is_multiple_of(4 * out::bytes(out));
        // (Staged tiles are BF16/FP16 `mma`s, adjacent pairs: the const assertion at the top.)
        if out == out::F32 || !O::ADJACENT_PAIRS {
            // SAFETY: every thread is here; the shared memory holds `floats` floats; c holds m·n floats.
            unsafe { store_staged::<O, BN, WARPS_M, WARPS_N, MI, NI, NT>(&acc, c, floats, (m, n), (row0, col0), warp, rows_aligned) };
        } else {
            // SAFETY: as above, the caller's `c` holding m·n elements of `out`'s 16-bit type.
            unsafe {
                let c16 = View::new(c.as_mut_ptr().cast::<u16>(), (m * n) as usize);
                let place = ((m, n), (row0, col0), warp, rows_aligned, out == out::F16);
                store_staged_half::<O, BN, WARPS_M, WARPS_N, MI, NI, NT>(&acc, c16, floats, place)
            };
        }
        return;
    }
    let (g, t) = (lane / 4, lane % 4);
    // One slice stores its outputs; several add theirs into the zeroed C.
    let adds = SPLIT && thread::grid_dim_z() > 1;
    if adds {
        // C's zeroing may still run (the host queues this launch as its dependent).
        crate::device::dependent_launch::wait_for_prior_grids();
    }
    for (mi, row) in acc.iter().enumerate() {
        for (ni, frag) in row.iter().enumerate() {
            for (i, &v) in frag.iter().enumerate() {
                // C fragment: (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1).
                let r = row0 + wr + 16 * mi as u32 + g + 8 * (i as u32 / 2);
                let col = col0 + wc + 32 * (ni as u32 / 4) + O::column(ni as u32 % 4, 2 * t + i as u32 % 2);
                if r < m && col < n {
                    // SAFETY: r < m and col < n; C is zeroed before a launch of several slices.
                    unsafe {
                        if adds {
                            crate::device::atomic::add_f32(c, (r * n + col) as usize, v)
                        } else {
                            c.set((r * n + col) as usize, v)
                        }
                    }
                }
            }
        }
    }
}

/// Floats between the staging tile's rows beyond `BN` ([`store_staged`]): a row pitch of 8 banks
/// mod 32, so that the 4 rows × 4 lanes of each half-warp's 8-byte fragment stores fill 32 distinct
/// banks, and rows start on 16 bytes.
const STAGING_PAD: usize = 8;

/// Stores the block's tile of `C` through shared memory (kernel 30): each warp's fragments into a
/// staging tile, then whole rows of `C` by consecutive threads — 16 bytes each where `C`'s rows
/// start on 16 bytes (`rows_aligned`: N a multiple of 4, `C` on 16 bytes), else one float each —
/// instead of the fragments' 8-byte pieces 8 rows apart (the in-place kernels' fitted store rate,
/// about 1 TB/s: `select::tuning::TC_STORE_GB_PER_S`). As many warp rows a pass as `floats` of
/// shared memory hold.
///
/// # Safety
/// Every thread of the block calls it, after its last read of the pipeline's stages; the block's
/// dynamic shared memory holds `floats` floats; `c` holds `m·n` floats.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the tile's place and the block's: all scalars
unsafe fn store_staged<
    O: MmaKind,
    const BN: u32,
    const WARPS_M: u32,
    const WARPS_N: u32,
    const MI: usize,
    const NI: usize,
    const NT: u32,
>(
    acc: &[[[f32; 4]; NI]; MI],
    c: View<f32>,
    floats: u32,
    (m, n): (u32, u32),
    (row0, col0): (u32, u32),
    warp: u32,
    rows_aligned: bool,
) {
    let pitch = BN + STAGING_PAD as u32;
    let warp_rows = 16 * MI as u32;
    let per_pass = (floats / (warp_rows * pitch)).clamp(1, WARPS_M);
    let rows = per_pass * warp_rows;
    // SAFETY: rows·pitch ≤ floats (per_pass ≥ 1 by the caller's const assertion).
    let staging = unsafe { SharedTiles::<f32>::new().tile((rows * pitch) as usize) };
    let (wm, wn, tid) = (warp / WARPS_N, warp % WARPS_N, thread::thread_idx_x());
    let (g, t) = (thread::lane_id() / 4, thread::lane_id() % 4);
    for pass in 0..WARPS_M.div_ceil(per_pass) {
        if wm / per_pass == pass {
            let base = (wm % per_pass) * warp_rows;
            for (mi, row) in acc.iter().enumerate() {
                for (ni, frag) in row.iter().enumerate() {
                    for h in 0..2u32 {
                        let r = base + 16 * mi as u32 + g + 8 * h;
                        let col = wn * 8 * NI as u32 + 32 * (ni as u32 / 4);
                        let (i0, i1) = (2 * h as usize, 2 * h as usize + 1);
                        let (c0, c1) = (O::column(ni as u32 % 4, 2 * t), O::column(ni as u32 % 4, 2 * t + 1));
                        // SAFETY: r < rows and each column < BN: inside the staging tile; a pair of
                        // adjacent columns starts on an even float (even pitch and columns), 8 bytes.
                        unsafe {
                            if c1 == c0 + 1 {
                                staging.set2((r * pitch + col + c0) as usize, Float2([frag[i0], frag[i1]]));
                            } else {
                                staging.set((r * pitch + col + c0) as usize, frag[i0]);
                                staging.set((r * pitch + col + c1) as usize, frag[i1]);
                            }
                        }
                    }
                }
            }
        }
        // SAFETY: reached by every thread of the block (block-uniform loop).
        unsafe { thread::sync_threads() };
        let first = row0 + pass * rows;
        if rows_aligned {
            let chunks = BN / 4;
            for j in 0..(rows * chunks).div_ceil(NT) {
                let idx = tid + j * NT;
                let (r, ch) = (idx / chunks, idx % chunks);
                let (gr, gc) = (first + r, col0 + 4 * ch);
                if r < rows && gr < m && gc < n {
                    // SAFETY: gc + 4 ≤ n (N a multiple of 4, gc too) and gr < m; both addresses on 16
                    // bytes (C's start and rows; the staging rows' pitch a multiple of 4 floats).
                    unsafe { c.set4((gr * n + gc) as usize, staging.get4((r * pitch + 4 * ch) as usize)) };
                }
            }
        } else {
            for j in 0..(rows * BN).div_ceil(NT) {
                let idx = tid + j * NT;
                let (r, col) = (idx / BN, idx % BN);
                let (gr, gc) = (first + r, col0 + col);
                if r < rows && gr < m && gc < n {
                    // SAFETY: gr < m, gc < n; r < rows, col < BN: inside the staging tile.
                    unsafe { c.set((gr * n + gc) as usize, staging.get((r * pitch + col) as usize)) };
                }
            }
        }
        // SAFETY: as above; the next pass overwrites the staging tile only after every thread read it.
        unsafe { thread::sync_threads() };
    }
}

/// Words between the 16-bit staging tile's rows beyond `BN / 2` ([`store_staged_half`]): a row pitch
/// of 8 banks mod 32, as [`STAGING_PAD`] gives the `f32` tile.
const HALF_STAGING_PAD: u32 = 8;

/// [`store_staged`] into a 16-bit `C` (FP16 where `f16`, else BF16): each pair of adjacent sums is
/// rounded once to nearest as it is staged, one 32-bit word, so the staging tile is half the `f32`
/// one's bytes and the whole block's fits the drained stages at once — every warp stages its
/// accumulators before any row leaves, none kept live through another's stores. Rows leave 4
/// columns (8 bytes) a thread where `rows_aligned` (N a multiple of 4, `C` on 8 bytes), else one
/// element a thread.
///
/// # Safety
/// As [`store_staged`], `c` holding `m·n` 16-bit elements.
#[inline(always)]
unsafe fn store_staged_half<
    O: MmaKind,
    const BN: u32,
    const WARPS_M: u32,
    const WARPS_N: u32,
    const MI: usize,
    const NI: usize,
    const NT: u32,
>(
    acc: &[[[f32; 4]; NI]; MI],
    c: View<u16>,
    words: u32,
    ((m, n), (row0, col0), warp, rows_aligned, f16): ((u32, u32), (u32, u32), u32, bool, bool),
) {
    const { assert!(BN.is_multiple_of(4)) };
    let pitch = BN / 2 + HALF_STAGING_PAD;
    let warp_rows = 16 * MI as u32;
    let per_pass = (words / (warp_rows * pitch)).clamp(1, WARPS_M);
    let rows = per_pass * warp_rows;
    // SAFETY: rows·pitch ≤ words (per_pass ≥ 1: a 16-bit tile is half the f32 one the caller's const
    // assertion fits).
    let staging = unsafe { SharedTiles::<u32>::new().tile((rows * pitch) as usize) };
    let (wm, wn, tid) = (warp / WARPS_N, warp % WARPS_N, thread::thread_idx_x());
    let (g, t) = (thread::lane_id() / 4, thread::lane_id() % 4);
    for pass in 0..WARPS_M.div_ceil(per_pass) {
        if wm / per_pass == pass {
            let base = (wm % per_pass) * warp_rows;
            for (mi, row) in acc.iter().enumerate() {
                for (ni, frag) in row.iter().enumerate() {
                    for h in 0..2u32 {
                        let r = base + 16 * mi as u32 + g + 8 * h;
                        // The pair's first column, even (adjacent pairs, const-asserted): its word.
                        let col = wn * 8 * NI as u32 + 32 * (ni as u32 / 4) + O::column(ni as u32 % 4, 2 * t);
                        let (lo, hi) = (frag[2 * h as usize], frag[2 * h as usize + 1]);
                        let word = if f16 { f32x2_to_f16x2(lo, hi) } else { f32x2_to_bf16x2(lo, hi) };
                        // SAFETY: r < rows and col / 2 < BN / 2: inside the staging tile.
                        unsafe { staging.set((r * pitch + col / 2) as usize, word) };
                    }
                }
            }
        }
        // SAFETY: reached by every thread of the block (block-uniform loop).
        unsafe { thread::sync_threads() };
        let first = row0 + pass * rows;
        if rows_aligned {
            let chunks = BN / 4;
            for j in 0..(rows * chunks).div_ceil(NT) {
                let idx = tid + j * NT;
                let (r, ch) = (idx / chunks, idx % chunks);
                let (gr, gc) = (first + r, col0 + 4 * ch);
                if r < rows && gr < m && gc < n {
                    // SAFETY: gc + 4 ≤ n (N a multiple of 4, gc too) and gr < m, the address on 8 bytes
                    // (C's start and rows); words 2·ch and 2·ch + 1 of staged row r.
                    unsafe {
                        let (w0, w1) = (staging.get((r * pitch + 2 * ch) as usize), staging.get((r * pitch + 2 * ch + 1) as usize));
                        c.set4((gr * n + gc) as usize, Half4([w0 as u16, (w0 >> 16) as u16, w1 as u16, (w1 >> 16) as u16]));
                    }
                }
            }
        } else {
            for j in 0..(rows * BN).div_ceil(NT) {
                let idx = tid + j * NT;
                let (r, col) = (idx / BN, idx % BN);
                let (gr, gc) = (first + r, col0 + col);
                if r < rows && gr < m && gc < n {
                    // SAFETY: gr < m, gc < n; r < rows, col < BN: inside the staging tile.
                    unsafe {
                        let w = staging.get((r * pitch + col / 2) as usize);
                        c.set((gr * n + gc) as usize, (w >> (16 * (col % 2))) as u16);
                    }
                }
            }
        }
        // SAFETY: as above; the next pass overwrites the staging tile only after every thread read it.
        unsafe { thread::sync_threads() };
    }
}
