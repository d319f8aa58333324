//! Kernel 9: a multi-stage asynchronous pipeline — every global → shared copy is a `cp.async`, so no
//! registers stage the tiles, and rows need no alignment (element-wise copies with hardware zero fill).
//!
//! **What it fixes in kernel 8**: kernel 8 stages `A` through registers (to transpose it) and falls back
//! to guarded scalar loads for *every* block when N or K is not a multiple of 4 (rows not 16-byte
//! aligned); its registers also hold a 128×128 tile to one block per SM. Here both operands move with
//! `cp.async`, `S` stages deep, edge elements zero-filled by the copy itself.
//!
//! Measurements: `docs/ladder/k09-async-pipeline.md`.

/// Dynamic shared memory, in bytes, of a `BM×BN×BK` configuration with `stages` stages of
/// `a_tile[BK][BM + 4]` and `b_tile[BK][BN]`.
pub const fn shared_bytes(bm: u32, bn: u32, bk: u32, stages: u32) -> u32 {
    stages * (bk * (bm + 4) + bk * bn) * 4
}

/// The pipelined body (kernel 7's warp tiling and compute loop, `LDA = BM + 4`), `S ≥ 2` stages.
///
/// **Copies.** `A` arrives transposed (`a_tile[kk][row]`), one 4-byte `cp.async` per element
/// ([`copy4_zfill`](crate::device::async_copy::copy4_zfill)): lanes walk a row of `A` along K, so
/// a warp reads 2 rows × 64 contiguous bytes. `B` moves in 16-byte copies on a full, aligned tile and
/// in 4-byte copies otherwise. Out-of-range elements (edge tiles, any M, N, K) are zero-filled by the
/// copy itself — the same instruction stream on every tile, no separate scalar path.
///
/// **Pipeline**, per K-step `t` (tile `t` lives in stage `t % S`; the prologue issued tiles
/// `0 .. S-1`, one commit group each, and every step commits one group, empty or not):
/// 1. wait until at most `S - 2` of this thread's groups are in flight: tile `t`'s copies landed;
/// 2. one barrier: tile `t` is complete for everyone, and everyone finished computing tile `t - 1`;
/// 3. issue tile `t + S - 1` into stage `(t - 1) % S` (read only by step 4 of `t - 1`, now over);
/// 4. compute tile `t`, while up to `S - 1` later tiles load.
///
/// `BY_ROWS`: as kernel 7's `store_acc`'s, after a barrier (its staging rows are the stages).
///
/// # Safety
/// As kernel 1, plus `NT` threads and [`shared_bytes`]`(BM, BN, BK, S)` bytes of dynamic shared memory.
#[inline(always)]
pub unsafe fn async_pipeline<
    const BM: u32,
    const BN: u32,
    const BK: u32,
    const LDA: u32,
    const S: u32,
    const WMI: usize,
    const WNI: usize,
    const NT: u32,
    const BY_ROWS: bool,
>(
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    use super::k07_warptile::{mma_tile, store_acc, thread_origin, Acc, WSUB_M, WSUB_N};
    use super::tile_io::{self, b_slot};
    use crate::device::{async_copy, shared::SharedTiles, thread};
    const { assert!((BM / (WSUB_M * WMI as u32)) * (BN / (WSUB_N * WNI as u32)) * 32 == NT) };
    const { assert!(LDA == BM + 4 && S >= 2) };
    const { assert!(super::k07_warptile::staging_bytes(NT, WNI) <= shared_bytes(BM, BN, BK, S)) };
    const { assert!((BM * BK).is_multiple_of(NT) && NT.is_multiple_of(BK) && (BK * BN).is_multiple_of(4 * NT)) };
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let (a_len, b_len) = (BK * LDA, BK * BN);
    let stage_len = a_len + b_len;
    // SAFETY: the launch provides shared_bytes(BM, BN, BK, S) = S·stage_len·4 bytes.
    let stages = unsafe { SharedTiles::<f32>::new().tile((S * stage_len) as usize) };
    // SAFETY (both): s < S, so the sub-view ends at S·stage_len at most.
    let a_tile = |s: u32| unsafe { stages.sub((s * stage_len) as usize, a_len as usize) };
    let b_tile = |s: u32| unsafe { stages.sub((s * stage_len + a_len) as usize, b_len as usize) };
    let tid = thread::thread_idx_x();
    let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
    let (ar, bc) = thread_origin::<BN, WMI, WNI>(tid);
    let (rows_in, cols_in) = (row0 + BM <= m, col0 + BN <= n);
    // This thread's A elements: row `tid / BK + l·(NT / BK)`, column `tid % BK` of the tile.
    let (a_r, a_k) = (tid / BK, tid % BK);

    // Issues tile `k0`'s copies into stage `s` (block-uniform branches: interior tiles skip the
    // per-element range checks).
    // SAFETY (of the copies): every destination index is < a_len or < b_len (a_r + l·NT/BK < BM,
    // a_k < BK; b_slot rows < BK, columns + 4 ≤ BN); every source index is in range or 0 with
    // `valid = false`; the 16-byte copies only with n % 4 == 0 (16-byte aligned rows, slots wholly in
    // or out of B).
    let issue = |s: u32, k0: u32| unsafe {
        let (at, bt) = (a_tile(s), b_tile(s));
        let a_full = rows_in && k0 + BK <= k;
        for l in 0..BM * BK / NT {
            let r = a_r + l * (NT / BK);
            let (gr, gk) = (row0 + r, k0 + a_k);
            let valid = a_full || (gr < m && gk < k);
            async_copy::copy4_zfill(at, (a_k * LDA + r) as usize, a, if valid { (gr * k + gk) as usize } else { 0 }, valid);
        }
        if cols_in && n.is_multiple_of(4) && k0 + BK <= k {
            for l in 0..BK * BN / (4 * NT) {
                let (r, cc) = b_slot::<BN, NT>(tid, l);
                async_copy::copy16(bt, (r * BN + cc) as usize, b, ((k0 + r) * n + col0 + cc) as usize);
            }
        } else {
            // Edge tiles: zero-filling copies, 16 bytes per slot where rows are aligned.
            tile_io::copy_b_zfill::<BN, BK, NT>(bt, b, n, k0, k, col0, tid);
        }
    };

    let steps = k.div_ceil(BK);
    for s in 0..S - 1 {
        if s < steps {
            issue(s, s * BK);
        }
        async_copy::commit();
    }
    let mut acc: Acc<WMI, WNI> = [[[[0.0; 4]; WNI]; 4]; WMI];
    let (mut read, mut write) = (0, S - 1);
    for t in 0..steps {
        async_copy::wait_pending(S - 2);
        // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
        unsafe { thread::sync_threads() };
        if t + S - 1 < steps {
            issue(write, (t + S - 1) * BK);
        }
        async_copy::commit();
        // SAFETY: ar + 32·WMI ≤ BM < LDA, bc + 16·WNI ≤ BN (thread_origin); the views hold BK·LDA
        // and BK·BN floats.
        unsafe { mma_tile::<BK, LDA, BN, WMI, WNI>(a_tile(read), b_tile(read), ar, bc, &mut acc) };
        read = if read + 1 == S { 0 } else { read + 1 };
        write = if write + 1 == S { 0 } else { write + 1 };
    }
    if BY_ROWS && !n.is_multiple_of(4) {
        // store_acc's unaligned path reuses the stages as staging rows: every warp must be done reading them.
        // SAFETY: reached by every thread of the block (n is block-uniform).
        unsafe { thread::sync_threads() };
    }
    // SAFETY: `fast` only for an interior block with n % 4 == 0.
    unsafe { store_acc::<BM, BN, WMI, WNI, BY_ROWS>(c, m, n, row0 + ar, col0 + bc, &acc, rows_in && cols_in && n.is_multiple_of(4)) }
}

/// Declares a monomorphic entry point of [`async_pipeline`] and its launch (`$config`), with its
/// configuration in the doc; `min_blocks`: the launch bound (0 = none); `$by_rows`: its twin whose
/// unaligned epilogue goes by rows (`by_rows_twin!`).
macro_rules! async_pipeline_entry {
    ($name:ident / $by_rows:ident, $config:ident, $bm:literal, $bn:literal, $bk:literal, stages $s:literal, wmi $wmi:literal, wni $wni:literal, threads $nt:literal, min_blocks $mb:literal, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: crate::launch::TileConfig =
            crate::launch::TileConfig::new($bm, $bn, $bk, $nt, shared_bytes($bm, $bn, $bk, $s)).min_blocks_per_sm($mb);

        kernel! {
            #[doc = $doc]
            ///
            /// Measurements: `docs/ladder/k09-async-pipeline.md`.
            ///
            /// # Safety
            /// As kernel 1, plus the launch its `TileConfig` constant states (the
            /// thread count above, `shared_bytes(BM, BN, BK, S)` of dynamic shared memory).
            pub unsafe fn $name(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe { async_pipeline::<$bm, $bn, $bk, { $bm + 4 }, $s, $wmi, $wni, $nt, false>(a, b, c, m, n, k) }
            }
        }

        by_rows_twin!($name, $by_rows, async_pipeline::<$bm, $bn, $bk, { $bm + 4 }, $s, $wmi, $wni, $nt, true>);
    };
}

async_pipeline_entry!(matmul_async_64x64x16_s3 / matmul_async_64x64x16_s3_by_rows, ASYNC_64X64X16_S3, 64, 64, 16, stages 3, wmi 1, wni 2, threads 128, min_blocks 4,
    "Asynchronous 3-stage pipeline, 64×64×16 tile, 128 threads (4 warps of 32×32, 4×8 per thread).");
