//! Kernel 21: CUDA cores on 16-bit inputs — BF16 or FP16 operands widened to `f32` as they are
//! loaded, multiplied on kernel 8's warp-tiled, double-buffered tile, K split over `gridDim.z` as in
//! kernel 10. For the products too small for the tensor cores to pay.
//!
//! **What it fixes**: on a product of a few microseconds the tensor-core kernels lose to their fixed
//! costs, not their arithmetic: the TMA kernels need rows 16-byte aligned (a padded copy, one more
//! launch per operand, where they are not), the in-place ones copy such rows element by element, and
//! every one of them has a pipeline to fill (FP16 88×86×214: 9.2 µs after two padding copies, cuBLAS
//! 3.9; `docs/ladder/k21-widened.md`). The FP32 kernels run such shapes in one launch at 2–6 µs; this
//! kernel is their tile on 16-bit inputs: any M, N, K and alignment, one launch (two with split-K's
//! zeroing of `C`).
//!
//! **Precision**: none is lost. Every BF16 and FP16 value is an `f32` (widening is exact), and the
//! products and sums are `f32` FMAs — the tensor cores' own FP32 accumulation, in another order.
//!
//! **Pipeline** (kernel 8's, both operands through registers): per K-step, the next tile's 16-bit
//! elements load into registers (one 8-byte load of four where rows are 8-byte aligned and the four
//! lie inside the matrix, guarded 2-byte loads otherwise), the current tile is computed from shared
//! memory, then the registers are widened and stored (`A` transposed) into the other stage; one barrier
//! per K-step. `cp.async` cannot widen, so neither operand takes kernel 8's asynchronous copies.
//!
//! **Epilogue**: with one slice (`gridDim.z = 1`) the block stores its tile (`C` need not be zeroed),
//! with more it adds into a zeroed `C` (kernel 10's `add_acc`); where N is not a multiple of 4, a row
//! of `C` at a time through shared memory (kernel 7's `write_acc_by_rows`, as kernel 10's twins).
//!
//! **Stream-K entries** (`matmul_widened_streamk_*`): the same tile under kernel 17's walk, every
//! tile's K-steps dealt evenly to the blocks that fit at once. Split-K keeps slices of at least
//! `MIN_SLICE_STEPS` steps, so a product of one or two tiles with a few hundred K runs on one or two
//! blocks, each walking all its steps at the loads' latency; stream-K spreads them over as many blocks
//! as there are steps (FP32's `Auto` takes kernel 17's 64×64 entry on such products for that reason).
use super::input::Input;
use super::k07_warptile::{mma_tile, store_acc, thread_origin, Acc};
use super::mma_ops::{Bf16, F16};
use super::tile_io::{b_slot, store_a_transposed, store_b};
use crate::device::mem::{Float4, Half4, View};
use crate::device::thread;

/// Four consecutive elements of a row from `i` (`row` holds those of the row up to `end`), as bit
/// patterns, zero (`+0.0` in both formats) at and past `end`: one 8-byte load where `vec` (the row's
/// start and `i` are multiples of 4 elements: 8-byte aligned) and all four are inside, guarded 2-byte
/// loads otherwise. Not widened here: the loads stay in flight while the current tile is computed,
/// and [`widen4`] uses them after it (widening at once stalled every K-step on the loads' latency,
/// 2.5× kernel 10's time on the same tile).
///
/// # Safety
/// `v` holds every element `i + e` with `col + e < end`; the base of `v` is 8-byte aligned when `vec`.
#[inline(always)]
unsafe fn four(v: View<u16>, i: u32, col: u32, end: u32, vec: bool) -> Half4 {
    if vec && col + 4 <= end {
        // SAFETY: col + 4 ≤ end: inside; i a multiple of 4 on an 8-byte aligned base (vec).
        return unsafe { v.get4(i as usize) };
    }
    let mut out = Half4::default();
    for (e, o) in out.0.iter_mut().enumerate() {
        if col + (e as u32) < end {
            // SAFETY: col + e < end: inside (the caller's contract).
            *o = unsafe { v.get((i + e as u32) as usize) };
        }
    }
    out
}

/// The slots of [`load_a`] or [`load_b`], widened.
#[inline(always)]
fn widen4<W: Input<Elem = u16>, const L: usize>(slots: &[Half4; L]) -> [Float4; L] {
    let mut out = [Float4::default(); L];
    for (o, h) in out.iter_mut().zip(slots.iter()) {
        for (x, &bits) in o.0.iter_mut().zip(h.0.iter()) {
            *x = W::value(bits);
        }
    }
    out
}

/// This thread's `L` slots of the `BM×BK` tile of `A` at `(row0, k0)`, as bits: slot `l` is the four
/// elements `idx = tid + l·NT` of the tile, row-major (row `idx / (BK/4)`, columns
/// `(idx % (BK/4))·4 .. +4`), as kernel 8's `tile_io::load_a`. Columns at or past `k_end` and rows at
/// or past `m` read as zero.
///
/// # Safety
/// `a` holds `m·k` elements from a 16-byte aligned base, `k_end ≤ k`, `k0 % 4 == 0`; `L·NT·4 = BM·BK`.
#[allow(clippy::too_many_arguments)] // a tile load's extent and position: all scalars, kept in registers
#[inline(always)]
unsafe fn load_a<const BM: u32, const BK: u32, const NT: u32, const L: usize>(
    a: View<u16>,
    m: u32,
    k: u32,
    k_end: u32,
    row0: u32,
    k0: u32,
    tid: u32,
) -> [Half4; L] {
    const { assert!(L as u32 * NT * 4 == BM * BK) };
    let mut r = [Half4::default(); L];
    for (l, slot) in r.iter_mut().enumerate() {
        let idx = tid + l as u32 * NT;
        let (gr, gc) = (row0 + idx / (BK / 4), k0 + (idx % (BK / 4)) * 4);
        if gr < m {
            // SAFETY: gr < m, columns below k_end ≤ k; rows k elements apart, gc % 4 == 0 (k0 and the
            // slot column are): 8-byte aligned when k % 4 == 0.
            *slot = unsafe { four(a, gr * k + gc, gc, k_end, k.is_multiple_of(4)) };
        }
    }
    r
}

/// This thread's `L` slots of the `BK×BN` tile of `B` at `(k0, col0)` (slots as kernel 8's
/// `tile_io::b_slot`), as bits. Rows at or past `k_end` and columns at or past `n` read as zero.
///
/// # Safety
/// `b` holds `k·n` elements from a 16-byte aligned base, `k_end ≤ k`, `col0 % 4 == 0`; `L·NT·4 = BK·BN`.
#[allow(clippy::too_many_arguments)] // as load_a
#[inline(always)]
unsafe fn load_b<const BN: u32, const BK: u32, const NT: u32, const L: usize>(
    b: View<u16>,
    n: u32,
    k_end: u32,
    k0: u32,
    col0: u32,
    tid: u32,
) -> [Half4; L] {
    const { assert!(L as u32 * NT * 4 == BK * BN) };
    let mut r = [Half4::default(); L];
    for (l, slot) in r.iter_mut().enumerate() {
        let (br, bc) = b_slot::<BN, NT>(tid, l as u32);
        let (gr, gc) = (k0 + br, col0 + bc);
        if gr < k_end {
            // SAFETY: gr < k_end ≤ k, columns below n; gc % 4 == 0: 8-byte aligned when n % 4 == 0.
            *slot = unsafe { four(b, gr * n + gc, gc, n, n.is_multiple_of(4)) };
        }
    }
    r
}

/// The pipelined loop over the K range `k_begin .. k_end` of the block tile whose first output is
/// `(row0, col0)`: this thread's accumulators (outputs placed as kernel 7's `thread_origin`).
///
/// Per K-step `t` (stage `t % 2` holds tile `t`): load tile `t + 1` into registers, compute tile `t`,
/// widen and store the registers into the other stage, barrier. Writing the other stage is safe: it
/// was last read before the previous step's barrier.
///
/// # Safety
/// As [`widened`]; `k_begin ≤ k_end ≤ k`, `k_begin % 4 == 0`; every thread of the block calls it
/// with the same arguments (it has barriers).
#[allow(clippy::too_many_arguments)] // as load_a
#[inline(always)]
unsafe fn accumulate<
    W: Input<Elem = u16>,
    const BM: u32,
    const BN: u32,
    const BK: u32,
    const LDA: u32,
    const WMI: usize,
    const WNI: usize,
    const NT: u32,
    const LA: usize,
    const LB: usize,
>(
    a: View<u16>,
    b: View<u16>,
    m: u32,
    n: u32,
    k: u32,
    (row0, col0): (u32, u32),
    (k_begin, k_end): (u32, u32),
) -> Acc<WMI, WNI> {
    const { assert!(LDA == BM + 4) };
    const { assert!(super::k07_warptile::staging_bytes(NT, WNI) <= super::k08_double_buffer::shared_bytes(BM, BN, BK)) };
    // SAFETY: the launch provides shared_bytes(BM, BN, BK) bytes (the caller's contract).
    let tiles = unsafe { super::k08_double_buffer::stages::<BN, BK, LDA>() };
    // A select, not an index into `tiles` (an indexed array of views would live in local memory).
    let stage = |s: u32| if s & 1 == 0 { tiles[0] } else { tiles[1] };
    let tid = thread::thread_idx_x();
    let (ar, bc) = thread_origin::<BN, WMI, WNI>(tid);
    // SAFETY (both closures): the views and bounds of the caller's contract; a stage holds BK·LDA
    // floats of A and BK·BN of B.
    let load = |k0: u32| unsafe {
        (load_a::<BM, BK, NT, LA>(a, m, k, k_end, row0, k0, tid), load_b::<BN, BK, NT, LB>(b, n, k_end, k0, col0, tid))
    };
    let store = |(sa, sb): (View<f32>, View<f32>), (ra, rb): &([Half4; LA], [Half4; LB])| unsafe {
        store_a_transposed::<BK, NT, LDA, LA>(sa, &widen4::<W, LA>(ra), tid);
        store_b::<BN, NT, BN, LB>(sb, &widen4::<W, LB>(rb), tid);
    };

    store(tiles[0], &load(k_begin));
    // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
    unsafe { thread::sync_threads() };
    let mut acc: Acc<WMI, WNI> = [[[[0.0; 4]; WNI]; 4]; WMI];
    let steps = (k_end - k_begin).div_ceil(BK);
    for t in 0..steps {
        let more = t + 1 < steps;
        let regs = if more { load(k_begin + (t + 1) * BK) } else { ([Half4::default(); LA], [Half4::default(); LB]) };
        let cur = stage(t);
        // SAFETY: ar + 32·WMI ≤ BM < LDA, bc + 16·WNI ≤ BN (thread_origin).
        unsafe { mma_tile::<BK, LDA, BN, WMI, WNI>(cur.0, cur.1, ar, bc, &mut acc) };
        if more {
            store(stage(t + 1), &regs);
        }
        // SAFETY: as above.
        unsafe { thread::sync_threads() };
    }
    acc
}

/// The body of every kernel-21 entry: block `(x, y, z)` computes output tile `(y, x)` over K slice
/// `z` of `gridDim.z` (`⌈K/S⌉` rounded up to `BK`, as kernel 10) and stores it (one slice) or adds it
/// into `C` (more).
///
/// # Safety
/// `a` holds `m·k`, `b` `k·n` 16-bit elements, `c` `m·n` floats, each 16-byte aligned, each product
/// fits in `u32`; `NT` threads, `k08_double_buffer::shared_bytes(BM, BN, BK)` bytes of dynamic shared
/// memory; `C` zeroed before a launch of more than one slice.
#[inline(always)]
pub unsafe fn widened<
    W: Input<Elem = u16>,
    const BM: u32,
    const BN: u32,
    const BK: u32,
    const LDA: u32,
    const WMI: usize,
    const WNI: usize,
    const NT: u32,
    const LA: usize,
    const LB: usize,
>(
    a: *const u16,
    b: *const u16,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let slices = thread::grid_dim_z();
    let (k_begin, k_end) = super::k10_split_k::k_slice(k, BK);
    let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
    // SAFETY: forwarded contract; k_begin ≤ k_end ≤ k, k_begin a multiple of BK (hence of 4).
    let acc = unsafe { accumulate::<W, BM, BN, BK, LDA, WMI, WNI, NT, LA, LB>(a, b, m, n, k, (row0, col0), (k_begin, k_end)) };
    let (ar, bc) = thread_origin::<BN, WMI, WNI>(thread::thread_idx_x());
    // Where N is not a multiple of 4, C is written a row at a time through shared memory (kernel 7's
    // `write_acc_by_rows`: whole rows of a warp's 8, not four scattered columns per lane). Both
    // branches are block-uniform, and `accumulate` ended on a barrier after its last shared read.
    if slices == 1 {
        let fast = row0 + BM <= m && col0 + BN <= n && n.is_multiple_of(4);
        // SAFETY: `fast` only for an interior tile with n % 4 == 0; the staging fits the stages.
        unsafe { store_acc::<BM, BN, WMI, WNI, true>(c, m, n, row0 + ar, col0 + bc, &acc, fast) }
    } else {
        // SAFETY: C zeroed by the caller (more than one slice); 16-byte aligned; bc % 4 == 0.
        unsafe { super::k10_split_k::add_acc::<BM, BN, WMI, WNI, true>(c, m, n, row0 + ar, col0 + bc, &acc) }
    }
}

/// Kernel 21's tile under kernel 17's stream-K walk (`k17_stream_k::walk`): the `gridDim.x` blocks
/// that fit at once share every tile's K-steps evenly, whole tiles stored, parts added into `C`. The
/// small products where split-K's slices of at least `MIN_SLICE_STEPS` steps leave one block on a
/// long K: 5×33×218 is one tile of 14 steps, one per block here.
///
/// # Safety
/// As [`widened`] with a 1-D grid of any size and `C` zeroed before the launch.
#[inline(always)]
pub unsafe fn widened_stream_k<
    W: Input<Elem = u16>,
    const BM: u32,
    const BN: u32,
    const BK: u32,
    const LDA: u32,
    const WMI: usize,
    const WNI: usize,
    const NT: u32,
    const LA: usize,
    const LB: usize,
>(
    a: *const u16,
    b: *const u16,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    // SAFETY: forwarded contract; the walk's ranges are block-uniform, `k_begin` a multiple of BK.
    let piece = |origin, range| unsafe { accumulate::<W, BM, BN, BK, LDA, WMI, WNI, NT, LA, LB>(a, b, m, n, k, origin, range) };
    // SAFETY: C zeroed by the caller; `accumulate` ends on a barrier after its last shared read.
    unsafe { super::k17_stream_k::walk::<BM, BN, BK, WMI, WNI, true>(c, m, n, k, piece) }
}

/// Declares one kernel-21 entry for format `$w` on a `$bm×$bn×$bk` tile, and its launch `$config`:
/// body `$body` ([`widened`] or [`widened_stream_k`]), the launch's grid as `$grid` states it, built
/// by `TileConfig`'s `$launch` methods.
macro_rules! widened_entry {
    ($body:ident, $grid:literal, [$($launch:ident),+]; $name:ident, $w:ident, $config:ident, $bm:literal, $bn:literal, $bk:literal, wmi $wmi:literal, wni $wni:literal, threads $nt:literal, la $la:literal, lb $lb:literal, min_blocks $mb:literal, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`]: ", $grid, ".")]
        pub const $config: crate::launch::TileConfig =
            crate::launch::TileConfig::new($bm, $bn, $bk, $nt, super::k08_double_buffer::shared_bytes($bm, $bn, $bk))
                .min_blocks_per_sm($mb)
                $(.$launch())+;

        kernel! {
            #[doc = $doc]
            ///
            /// Measurements: `docs/ladder/k21-widened.md`.
            ///
            /// # Safety
            #[doc = concat!("As [`", stringify!($body), "`] with this entry's tile: the launch is its `TileConfig`.")]
            pub unsafe fn $name(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe { $body::<$w, $bm, $bn, $bk, { $bm + 4 }, $wmi, $wni, $nt, $la, $lb>(a, b, c, m, n, k) }
            }
        }
    };
}

/// A split-K entry ([`widened`]: `gridDim.z` slices, one storing `C`) through `widened_entry!`.
macro_rules! split_entry {
    ($($args:tt)*) => {
        widened_entry!(widened, "`gridDim.z` slices of K, one storing `C`", [split_k, stores_unsplit]; $($args)*);
    };
}

/// A stream-K entry ([`widened_stream_k`]) through `widened_entry!`.
macro_rules! stream_k_entry {
    ($($args:tt)*) => {
        widened_entry!(widened_stream_k, "the blocks that fit on the GPU at once", [stream_k]; $($args)*);
    };
}

split_entry!(matmul_widened_bf16_64x64, Bf16, WIDENED_BF16_64X64, 64, 64, 16, wmi 1, wni 2, threads 128, la 2, lb 2, min_blocks 4,
    "BF16 inputs on the CUDA cores, kernel 10's 64×64×16 tile (128 threads, 4×8 outputs each).");
split_entry!(matmul_widened_f16_64x64, F16, WIDENED_F16_64X64, 64, 64, 16, wmi 1, wni 2, threads 128, la 2, lb 2, min_blocks 4,
    "FP16 inputs on the CUDA cores, 64×64×16.");
split_entry!(matmul_widened_bf16_128x32, Bf16, WIDENED_BF16_128X32, 128, 32, 16, wmi 1, wni 2, threads 128, la 4, lb 1, min_blocks 4,
    "BF16 inputs on the CUDA cores, kernel 10's 128×32×16 tile: outputs a few columns wide.");
split_entry!(matmul_widened_f16_128x32, F16, WIDENED_F16_128X32, 128, 32, 16, wmi 1, wni 2, threads 128, la 4, lb 1, min_blocks 4,
    "FP16 inputs on the CUDA cores, 128×32×16.");
split_entry!(matmul_widened_bf16_32x128, Bf16, WIDENED_BF16_32X128, 32, 128, 16, wmi 1, wni 2, threads 128, la 1, lb 4, min_blocks 4,
    "BF16 inputs on the CUDA cores, kernel 10's 32×128×16 tile: outputs a few rows tall.");
split_entry!(matmul_widened_f16_32x128, F16, WIDENED_F16_32X128, 32, 128, 16, wmi 1, wni 2, threads 128, la 1, lb 4, min_blocks 4,
    "FP16 inputs on the CUDA cores, 32×128×16.");
split_entry!(matmul_widened_bf16_128x128, Bf16, WIDENED_BF16_128X128, 128, 128, 8, wmi 2, wni 2, threads 256, la 1, lb 1, min_blocks 0,
    "BF16 inputs on the CUDA cores, kernel 8's 128×128×8 tile (256 threads, 8×8 outputs each): short K over large outputs, \
     where the product is its store of `C` and FP32's fastest tiles are this one.");
split_entry!(matmul_widened_f16_128x128, F16, WIDENED_F16_128X128, 128, 128, 8, wmi 2, wni 2, threads 256, la 1, lb 1, min_blocks 0,
    "FP16 inputs on the CUDA cores, 128×128×8.");
stream_k_entry!(matmul_widened_streamk_bf16_64x64, Bf16, WIDENED_STREAMK_BF16_64X64, 64, 64, 16, wmi 1, wni 2, threads 128, la 2, lb 2, min_blocks 4,
    "BF16 inputs on the CUDA cores, 64×64×16, stream-K: small products with long K.");
stream_k_entry!(matmul_widened_streamk_f16_64x64, F16, WIDENED_STREAMK_F16_64X64, 64, 64, 16, wmi 1, wni 2, threads 128, la 2, lb 2, min_blocks 4,
    "FP16 inputs on the CUDA cores, 64×64×16, stream-K.");
