//! Kernel 8: double buffering — the next K-step's tiles load (A through registers, B through
//! `cp.async`) while the current one is computed; one barrier per K-step. Several tile configurations.

/// Dynamic shared memory, in bytes, of a `BM×BN×BK` configuration: two stages of
/// `a_tile[BK][BM + 4]` and `b_tile[BK][BN]`.
pub const fn shared_bytes(bm: u32, bn: u32, bk: u32) -> u32 {
    2 * (bk * (bm + 4) + bk * bn) * 4
}

/// The double-buffered body (kernel 7's warp tiling, `LDA = BM + 4`).
///
/// Pipeline, per K-step `t` (stage `s = t % 2` holds tile `t`):
/// 1. if a tile `t + 1` exists: issue its global loads — `A` into registers (it must be transposed
///    on the way, which a 16-byte `cp.async` cannot do), `B` as `cp.async` copies straight into stage
///    `1 - s` (16-byte, or zero-filling 16- or 4-byte copies on edge tiles), and commit the copy group;
/// 2. compute tile `t` from stage `s` (the loads of step 1 are in flight meanwhile);
/// 3. store the `A` registers transposed into stage `1 - s`; wait for this thread's copies;
/// 4. one barrier: stage `1 - s` is complete for everyone, and everyone is done reading stage `s`,
///    which step 1 of the next iteration overwrites.
///
/// Writing stage `1 - s` in step 1/3 of iteration `t` is safe: it was last read in step 2 of
/// iteration `t - 1`, before that iteration's barrier.
///
/// **`U`**: `kk` steps unrolled per iteration of the K-step loop. `U = BK` (every entry but one) unrolls
/// it fully (`mma_tile`); `U < BK` keeps it a loop of `BK / U` iterations (`mma_tile_rolled`).
///
/// **`BY_ROWS`**: where N is not a multiple of 4, `C` is written a row at a time through shared memory
/// (kernel 7's `store_acc`): true in the `…_by_rows` twin entries (`by_rows_twin!`). 128×128×8 has
/// none: ptxas gives it 143–149 registers there instead of 127, one block per SM instead of two.
///
/// ptxas's register allocation for these entries moves with cosmetic changes to the PTX, and the speed
/// with it: re-measure after any change to this file.
///
/// Measurements: `docs/ladder/k08-double-buffer.md`.
///
/// # Safety
/// As kernel 1, plus `NT` threads and [`shared_bytes`]`(BM, BN, BK)` bytes of dynamic shared memory.
#[inline(always)]
pub unsafe fn double_buffer<
    const BM: u32,
    const BN: u32,
    const BK: u32,
    const LDA: u32,
    const WMI: usize,
    const WNI: usize,
    const NT: u32,
    const LA: usize,
    const LB: usize,
    const U: u32,
    const BY_ROWS: bool,
>(
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    use super::k07_warptile::{store_acc, thread_origin};
    use crate::device::thread;
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
    // SAFETY: forwarded contract; the whole K range.
    let acc = unsafe { accumulate::<BM, BN, BK, LDA, WMI, WNI, NT, LA, LB, U>(a, b, m, n, k, (row0, col0), (0, k)) };
    let (ar, bc) = thread_origin::<BN, WMI, WNI>(thread::thread_idx_x());
    // SAFETY: `fast` only for an interior block with n % 4 == 0.
    unsafe {
        store_acc::<BM, BN, WMI, WNI, BY_ROWS>(c, m, n, row0 + ar, col0 + bc, &acc, row0 + BM <= m && col0 + BN <= n && n.is_multiple_of(4))
    }
}

/// The two stages of [`shared_bytes`]: `(a_tile[BK][LDA], b_tile[BK][BN])` each, carved from the
/// block's dynamic shared memory in that order.
///
/// # Safety
/// The launch provides at least `shared_bytes(BM, BN, BK)` bytes of dynamic shared memory (`LDA = BM + 4`).
#[inline(always)]
pub(super) unsafe fn stages<const BN: u32, const BK: u32, const LDA: u32>(
) -> [(crate::device::mem::View<f32>, crate::device::mem::View<f32>); 2] {
    let mut shared = crate::device::shared::SharedTiles::<f32>::new();
    let (sa, sb) = ((BK * LDA) as usize, (BK * BN) as usize);
    // SAFETY: 2·(sa + sb)·4 bytes = shared_bytes(BM, BN, BK), which the caller provides.
    unsafe { [(shared.tile(sa), shared.tile(sb)), (shared.tile(sa), shared.tile(sb))] }
}

/// The pipelined main loop of [`double_buffer`] over the K range `k_begin .. k_end`: this thread's
/// accumulators for the block tile whose first output is `(row0, col0)` (outputs placed as in
/// kernel 7's `thread_origin`). Kernel 10 (split-K) runs it on one slice of K per block, kernel 17
/// (stream-K) on a run of K-steps of one tile after another.
///
/// Every thread of the block calls it with the same arguments (it has barriers); it ends on a barrier
/// after the last read of shared memory, so the block may call it again at once.
///
/// # Safety
/// As [`double_buffer`] (views of `m·k`, `k·n` floats); `k_begin ≤ k_end ≤ k`, `k_begin % 4 == 0`.
#[inline(always)]
pub unsafe fn accumulate<
    const BM: u32,
    const BN: u32,
    const BK: u32,
    const LDA: u32,
    const WMI: usize,
    const WNI: usize,
    const NT: u32,
    const LA: usize,
    const LB: usize,
    const U: u32,
>(
    a: crate::device::mem::View<f32>,
    b: crate::device::mem::View<f32>,
    m: u32,
    n: u32,
    k: u32,
    (row0, col0): (u32, u32),
    (k_begin, k_end): (u32, u32),
) -> super::k07_warptile::Acc<WMI, WNI> {
    use super::k07_warptile::{mma_tile, mma_tile_rolled, thread_origin, Acc, WSUB_M, WSUB_N};
    use super::tile_io::{self, load_a, store_a_transposed};
    use crate::device::{async_copy, mem::View, thread};
    const { assert!((BM / (WSUB_M * WMI as u32)) * (BN / (WSUB_N * WNI as u32)) * 32 == NT) };
    const { assert!(LDA == BM + 4) };
    const { assert!(super::k07_warptile::staging_bytes(NT, WNI) <= shared_bytes(BM, BN, BK)) };
    // SAFETY: the launch provides shared_bytes(BM, BN, BK) bytes (the caller's contract).
    let tiles = unsafe { stages::<BN, BK, LDA>() };
    // A select, not an index into `tiles` (an indexed array of views would live in local memory).
    let stage = |s: u32| if s & 1 == 0 { tiles[0] } else { tiles[1] };
    let tid = thread::thread_idx_x();
    let (ar, bc) = thread_origin::<BN, WMI, WNI>(tid);
    let a_vec = row0 + BM <= m && k.is_multiple_of(4);
    // Tiles are bounded by the slice end: columns of A / rows of B at or past `k_end` read as zero.
    let kb = k_end;

    // Issues tile `k0`'s B copies into `b_tile`, all `cp.async` (`tile_io::copy_b_zfill`), so an edge
    // tile's copies stay in flight during the compute too. (An unchecked 16-byte path for interior
    // tiles beside these made ptxas spill stream-K's 128×256 entry; the range check costs a few
    // instructions per slot and K-step.)
    // SAFETY: b_tile holds BK·BN floats (a stage); kb = k_end ≤ k; B is k·n floats (k·n ≥ 4 when
    // n % 4 == 0: the host never launches on an empty product); BK·BN = 4·NT·LB.
    let fill_b = |b_tile: View<f32>, k0: u32| unsafe {
        tile_io::copy_b_zfill::<BN, BK, NT>(b_tile, b, n, k0, kb, col0, tid);
        async_copy::commit();
    };

    // Prologue: tile 0 into stage 0.
    // SAFETY: load_a's fast flag follows its contract; the stage holds BK·LDA floats.
    unsafe {
        let ra = load_a::<BM, BK, NT, LA>(a, m, kb, k, row0, k_begin, tid, a_vec && k_begin + BK <= kb);
        fill_b(tiles[0].1, k_begin);
        store_a_transposed::<BK, NT, LDA, LA>(tiles[0].0, &ra, tid);
    }
    async_copy::wait_all();
    // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
    unsafe { thread::sync_threads() };

    let mut acc: Acc<WMI, WNI> = [[[[0.0; 4]; WNI]; 4]; WMI];
    let steps = (k_end - k_begin).div_ceil(BK);
    for t in 0..steps {
        let (cur, next) = (stage(t), stage(t + 1));
        let k1 = k_begin + (t + 1) * BK;
        let more = t + 1 < steps;
        let mut ra = [crate::device::mem::Float4::default(); LA];
        if more {
            // SAFETY: as in the prologue.
            ra = unsafe { load_a::<BM, BK, NT, LA>(a, m, kb, k, row0, k1, tid, a_vec && k1 + BK <= kb) };
            fill_b(next.1, k1);
        }
        // SAFETY: ar + 32·WMI ≤ BM < LDA, bc + 16·WNI ≤ BN (thread_origin).
        unsafe {
            if const { U == BK } {
                mma_tile::<BK, LDA, BN, WMI, WNI>(cur.0, cur.1, ar, bc, &mut acc)
            } else {
                mma_tile_rolled::<BK, U, LDA, BN, WMI, WNI>(cur.0, cur.1, ar, bc, &mut acc)
            }
        };
        if more {
            // SAFETY: the stage holds BK·LDA floats.
            unsafe { store_a_transposed::<BK, NT, LDA, LA>(next.0, &ra, tid) };
            async_copy::wait_all();
        }
        // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
        unsafe { thread::sync_threads() };
    }
    acc
}

/// [`accumulate`] for a tile wholly inside both matrices, rows 16-byte aligned and a K range of
/// whole steps: the same pipeline, stages and barriers, without the edge handling. Each thread's
/// global slot offsets are computed once and a K-step adds `BK` (for `A`) or `BK·n` (for `B`) to them;
/// the `B` copies go to precomputed shared addresses ([`SharedPtr`](crate::device::async_copy::SharedPtr))
/// with no range check; `A` loads are plain 128-bit loads. Kernel 17's 128×256 and 64×64 entries take
/// it for their interior pieces: [`accumulate`]'s per-step checks and address arithmetic were ~110 of
/// the ~1,200 instructions of a 128×128×16 step (`docs/ladder/k17-stream-k.md`). Kernels 8 and 10 do
/// not: there it was slower on small shapes (`docs/ladder/k08-double-buffer.md`, "Tried and dropped").
///
/// # Safety
/// As [`accumulate`], plus: `row0 + BM ≤ m`, `col0 + BN ≤ n`, `n % 4 == 0`, `k % 4 == 0`,
/// `k_begin < k_end`, `(k_end - k_begin) % BK == 0`.
#[allow(clippy::too_many_arguments)] // accumulate's arguments: all scalars, kept in registers
#[inline(always)]
pub unsafe fn accumulate_interior<
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
    a: crate::device::mem::View<f32>,
    b: crate::device::mem::View<f32>,
    n: u32,
    k: u32,
    (row0, col0): (u32, u32),
    (k_begin, k_end): (u32, u32),
) -> super::k07_warptile::Acc<WMI, WNI> {
    use super::k07_warptile::{mma_tile, thread_origin, Acc, WSUB_M, WSUB_N};
    use super::tile_io::{b_slot, store_a_transposed};
    use crate::device::{
        async_copy::{self, SharedPtr},
        mem::Float4,
        thread,
    };
    const { assert!((BM / (WSUB_M * WMI as u32)) * (BN / (WSUB_N * WNI as u32)) * 32 == NT) };
    const { assert!(LDA == BM + 4) };
    const { assert!(LA as u32 * NT * 4 == BM * BK && LB as u32 * NT * 4 == BK * BN) };
    // SAFETY: the launch provides shared_bytes(BM, BN, BK) bytes (the caller's contract).
    let tiles = unsafe { stages::<BN, BK, LDA>() };
    // A select, not an index into `tiles` (an indexed array of views would live in local memory).
    let stage = |s: u32| if s & 1 == 0 { tiles[0] } else { tiles[1] };
    // Each stage's B tile as `cp.async` addresses it (two values, not an array: an indexed array
    // would live in local memory).
    // SAFETY: both are views of this block's shared memory; index 0 is in range.
    let (b_dst0, b_dst1) = unsafe { (SharedPtr::new(tiles[0].1, 0), SharedPtr::new(tiles[1].1, 0)) };
    let tid = thread::thread_idx_x();
    let (ar, bc) = thread_origin::<BN, WMI, WNI>(tid);
    // Slot `l` of A: float4 `tid + l·NT` of the row-major BM×BK tile (tile_io::load_a's order), at
    // `a_at[l] + k0`. Slot `l` of B: tile row r, column cc (tile_io::b_slot), at `b_at[l] + k0·n`,
    // copied to `r·BN + cc` of the stage.
    let a_at: [u32; LA] = core::array::from_fn(|l| {
        let idx = tid + l as u32 * NT;
        (row0 + idx / (BK / 4)) * k + (idx % (BK / 4)) * 4
    });
    let b_at: [(u32, u32); LB] = core::array::from_fn(|l| {
        let (r, cc) = b_slot::<BN, NT>(tid, l as u32);
        (r * n + col0 + cc, r * BN + cc)
    });
    // Both closures are called with k0 a step start: k0 % 4 == 0 and k0 + BK ≤ k_end ≤ k.
    // SAFETY: row0 + BM ≤ m, k0 + BK ≤ k and k % 4 == 0: every slot is inside A, 16-byte aligned.
    let load_a = move |k0: u32| -> [Float4; LA] { core::array::from_fn(|l| unsafe { a.get4((a_at[l] + k0) as usize) }) };
    let fill_b = move |s: u32, k0: u32| {
        let (dst, row) = (if s & 1 == 0 { b_dst0 } else { b_dst1 }, k0 * n);
        for (at, to) in b_at {
            // SAFETY: k0 + BK ≤ k, col0 + BN ≤ n and n % 4 == 0: the slot is inside B, 16-byte aligned;
            // the destination is inside one stage's BK·BN floats (b_slot), 16-byte aligned.
            unsafe { async_copy::copy16_zfill_at(dst.offset(to), b, (at + row) as usize, true) };
        }
        async_copy::commit();
    };

    // Prologue: tile 0 into stage 0.
    let ra = load_a(k_begin);
    fill_b(0, k_begin);
    // SAFETY: the stage holds BK·LDA floats.
    unsafe { store_a_transposed::<BK, NT, LDA, LA>(tiles[0].0, &ra, tid) };
    async_copy::wait_all();
    // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
    unsafe { thread::sync_threads() };

    let mut acc: Acc<WMI, WNI> = [[[[0.0; 4]; WNI]; 4]; WMI];
    let steps = (k_end - k_begin) / BK;
    for t in 0..steps {
        let (cur, next) = (stage(t), stage(t + 1));
        let k1 = k_begin + (t + 1) * BK;
        let more = t + 1 < steps;
        let mut ra = [Float4::default(); LA];
        if more {
            ra = load_a(k1);
            fill_b(t + 1, k1);
        }
        // SAFETY: ar + 32·WMI ≤ BM < LDA, bc + 16·WNI ≤ BN (thread_origin).
        unsafe { mma_tile::<BK, LDA, BN, WMI, WNI>(cur.0, cur.1, ar, bc, &mut acc) };
        if more {
            // SAFETY: the stage holds BK·LDA floats.
            unsafe { store_a_transposed::<BK, NT, LDA, LA>(next.0, &ra, tid) };
            async_copy::wait_all();
        }
        // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
        unsafe { thread::sync_threads() };
    }
    acc
}

/// Declares a monomorphic entry point of [`double_buffer`] and its launch ([`TileConfig`] constant
/// `$config`), with its configuration in the doc. `unroll`: `kk` steps unrolled per K-step loop
/// iteration (`BK` = fully); `min_blocks`: the launch bound (0 = none); `by_rows`: its twin entry whose
/// unaligned epilogue goes by rows (`by_rows_twin!`; none for 128×128×8).
///
/// [`TileConfig`]: crate::launch::TileConfig
macro_rules! double_buffer_entry {
    ($name:ident, $config:ident, $bm:literal, $bn:literal, $bk:literal, wmi $wmi:literal, wni $wni:literal, threads $nt:literal, la $la:literal, lb $lb:literal, unroll $u:literal, min_blocks $mb:literal, $(by_rows $by_rows:ident,)? $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: crate::launch::TileConfig =
            crate::launch::TileConfig::new($bm, $bn, $bk, $nt, shared_bytes($bm, $bn, $bk)).min_blocks_per_sm($mb);

        kernel! {
            #[doc = $doc]
            ///
            /// Measurements: `docs/ladder/k08-double-buffer.md`.
            ///
            /// # Safety
            /// As kernel 1, plus the launch its `TileConfig` constant states (the
            /// thread count above, `shared_bytes(BM, BN, BK)` of dynamic shared memory).
            pub unsafe fn $name(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe { double_buffer::<$bm, $bn, $bk, { $bm + 4 }, $wmi, $wni, $nt, $la, $lb, $u, false>(a, b, c, m, n, k) }
            }
        }

        $( by_rows_twin!($name, $by_rows, double_buffer::<$bm, $bn, $bk, { $bm + 4 }, $wmi, $wni, $nt, $la, $lb, $u, true>); )?
    };
}

double_buffer_entry!(matmul_dbuf_128x128x8, DBUF_128X128X8, 128, 128, 8, wmi 2, wni 2, threads 256, la 1, lb 1, unroll 8, min_blocks 0,
    "Double-buffered warp-tiled matmul, 128×128×8 tile, 256 threads (8 warps of 64×32, 8×8 per thread).\n\n\
     **What it fixes in kernel 7**: kernel 7 waits at a barrier for each tile's global loads before \
     it can compute, and waits again before the next loads (two barriers per K-step, global latency \
     exposed every step unless other blocks hide it). Here the next tile's loads are in flight during \
     the current tile's 1,024 FMAs per thread, and there is one barrier per K-step. `B` moves with \
     `cp.async` (no register staging, no extra instructions); `A` needs its transpose, so it is \
     staged through registers. Global traffic is unchanged (`M·N·K·2/128`), shared memory doubles \
     (16.6 KiB).");
double_buffer_entry!(matmul_dbuf_128x128x16, DBUF_128X128X16, 128, 128, 16, wmi 2, wni 2, threads 256, la 2, lb 2, unroll 16, min_blocks 0, by_rows matmul_dbuf_128x128x16_by_rows,
    "Kernel 8 with a 128×128×16 tile (256 threads, 33.3 KiB shared): half the barriers per K of the \
     BK = 8 version and twice the loads in flight per step.");
double_buffer_entry!(matmul_dbuf_128x64x16, DBUF_128X64X16, 128, 64, 16, wmi 2, wni 2, threads 128, la 4, lb 2, unroll 16, min_blocks 0, by_rows matmul_dbuf_128x64x16_by_rows,
    "Kernel 8 with a 128×64×16 tile (128 threads, 4 warps of 64×32, 8×8 per thread, 24.8 KiB shared): \
     twice the blocks of the 128×128 tile for shapes that give too few blocks to fill 132 SMs \
     (global traffic `M·N·K·(1/64 + 1/128)`, 1.5× the 128×128 tile's).");
double_buffer_entry!(matmul_dbuf_64x64x16, DBUF_64X64X16, 64, 64, 16, wmi 1, wni 2, threads 128, la 2, lb 2, unroll 16, min_blocks 4, by_rows matmul_dbuf_64x64x16_by_rows,
    "Kernel 8 with a 64×64×16 tile (128 threads, 4 warps of 32×32, 4×8 per thread, 16.5 KiB shared): \
     4× the blocks of the 128×128 tile for small or skinny outputs (global traffic `M·N·K·2/64`).");
double_buffer_entry!(matmul_dbuf_128x256x16, DBUF_128X256X16, 128, 256, 16, wmi 2, wni 4, threads 256, la 2, lb 4, unroll 16, min_blocks 0, by_rows matmul_dbuf_128x256x16_by_rows,
    "Kernel 8 with a 128×256×16 tile (256 threads, 8 warps of 64×64, 8×16 outputs per thread, 48.5 KiB \
     shared, above the 48 KiB default: the host opts in): 128 FMAs per 6 shared float4 reads (8×8: 64 \
     per 4), global traffic `M·N·K·(1/256 + 1/128)` (0.75× the 128×128 tile's). The fastest tile \
     wherever it gives about one block per SM or more.");
double_buffer_entry!(matmul_dbuf_128x256x16_rolled, DBUF_128X256X16_ROLLED, 128, 256, 16, wmi 2, wni 4, threads 256, la 2, lb 4, unroll 4, min_blocks 0, by_rows matmul_dbuf_128x256x16_rolled_by_rows,
    "Kernel 8's 128×256×16 tile with the K-step loop kept rolled by 4 (`mma_tile_rolled`): 4 `kk` steps \
     per loop iteration instead of all 16 unrolled: a smaller kernel, but a slower one, kept as a \
     measured lesson.");
