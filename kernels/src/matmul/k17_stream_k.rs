//! Kernel 17: stream-K — the K-steps of every output tile, dealt out evenly to the blocks that fit
//! on the GPU at once.
//!
//! **What it fixes in kernels 8 and 10**: a grid of one block per tile runs in waves of
//! `SMs × blocks per SM`, and the last wave is as long as a full one however few tiles it holds:
//! 1000×1037×519 is 72 tiles of 128×128 for 132 SMs (55 % of one wave), 1024³ 32 tiles of 128×256,
//! 4096³ 512 tiles (3.9 waves: the fourth 88 % full). Split-K (kernel 10) multiplies the blocks by a
//! whole number of slices, which rounds the same way (72 tiles × 2 slices = 144 blocks: two waves on
//! 12 SMs). Here the grid is exactly the blocks that fit at once (`G`, the host's
//! [`TileConfig::stream_k`](crate::launch::TileConfig) launch), and the `tiles × ⌈K/BK⌉` K-steps
//! of the whole product, numbered tile by tile, are cut into `G` runs of equal length (to one step):
//! block `b` takes steps `⌊b·total/G⌋ .. ⌊(b+1)·total/G⌋`. A run covers the end of one tile, whole
//! tiles, and the start of another; each piece runs kernel 8's pipeline (`accumulate`) on that tile's
//! K range. A piece that is a whole tile stores it; a piece of a tile is added into `C` atomically
//! (kernel 10's `add_acc`), so the host zeroes `C` first, as for split-K.
//!
//! **Tiling, threads, barriers**: kernel 8's, unchanged inside a piece (`BM×BN×BK` tiles, warps of
//! 64×32 or 32×32, two shared stages, one barrier after the prologue and one per K-step); `accumulate` ends on a barrier after
//! its last shared read, so the next piece's prologue may overwrite the stages. Every loop bound is
//! the same for the whole block (the run depends on `blockIdx.x` only), so every thread reaches
//! every barrier.
//!
//! **Interior pieces** (`INTERIOR`: the 128×256 and 64×64 entries): a piece of whole K-steps on a
//! tile wholly inside `C`, N and K multiples of 4, runs kernel 8's pipeline without its edge handling
//! (`k08_double_buffer::accumulate_interior`: slot offsets computed once, no range checks; an
//! `accumulate` step spends ~110 of its ~1,200 instructions at 128×128×16 on them). Not the 128×128
//! entry: with both loops in it ptxas leaves one block per SM instead of two (187 registers, or
//! spills inside the loop at a 128 bound), which costs more than the instructions saved. Not the by-rows
//! twins either: they run where N % 4 ≠ 0, where the path never applies.
//!
//! **Determinism**: the partial sums of a split tile arrive in any order (as in split-K), so the last
//! bits of its outputs may differ between runs, within the reference tolerance.
//!
//! Measurements: `docs/ladder/k17-stream-k.md`.

/// The stream-K walk over a `BM×BN×BK` tiling of `C` (kernel 7's warp layout, `WMI×WNI`): block `b`
/// of `G = gridDim.x` takes K-steps `⌊b·total/G⌋ .. ⌊(b+1)·total/G⌋` of the `total = tiles·⌈K/BK⌉`
/// steps, tile by tile (tiles row-major over the `⌈M/BM⌉ × ⌈N/BN⌉` grid of tiles); `piece(origin,
/// k_range)` computes one piece's accumulators (the tile's first output, its K range: `k_begin` a
/// multiple of `BK`, at least one step; not called when K = 0, whose tiles are zeros). A whole tile
/// is stored, part of one added into `C` (kernel 10's `add_acc`). `BY_ROWS`: as kernel 7's `store_acc`'s
/// (and a barrier after each piece's unaligned writes). Kernel 21's stream-K entries walk with their
/// own pieces.
///
/// # Safety
/// `c` holds `m·n` floats, zeroed before the launch and 16-byte aligned; `piece` is safe to call
/// with every thread of the block at once (it may have barriers) and ends on a barrier after its last
/// read of the shared memory that `store_acc`/`add_acc` stage through.
#[inline(always)]
pub unsafe fn walk<const BM: u32, const BN: u32, const BK: u32, const WMI: usize, const WNI: usize, const BY_ROWS: bool>(
    c: crate::device::mem::View<f32>,
    m: u32,
    n: u32,
    k: u32,
    mut piece: impl FnMut((u32, u32), (u32, u32)) -> super::k07_warptile::Acc<WMI, WNI>,
) {
    use super::k07_warptile::{store_acc, thread_origin};
    use crate::device::thread;
    let tiles_n = n.div_ceil(BN).max(1);
    // K-steps per tile: at least one, so that K = 0 still visits (and zeroes) every tile.
    let per_tile = u64::from(k.div_ceil(BK).max(1));
    let total = u64::from(m.div_ceil(BM) * tiles_n) * per_tile;
    let (blocks, block) = (u64::from(thread::grid_dim_x()).max(1), u64::from(thread::block_idx_x()));
    let end = (block + 1) * total / blocks;
    let (ar, bc) = thread_origin::<BN, WMI, WNI>(thread::thread_idx_x());
    let mut step = block * total / blocks;
    while step < end {
        let tile = step / per_tile;
        let first = tile * per_tile;
        let piece_end = end.min(first + per_tile);
        // Both below K (or 0 when K = 0): a piece lies inside one tile's K-steps.
        let k_begin = ((step - first) as u32) * BK;
        let k_end = (((piece_end - first) as u32) * BK).min(k);
        let tile = tile as u32;
        let (row0, col0) = ((tile / tiles_n) * BM, (tile % tiles_n) * BN);
        // K = 0 reads nothing (B has no element to point an empty copy at): its tiles are zeros.
        let acc = if k == 0 { [[[[0.0; 4]; WNI]; 4]; WMI] } else { piece((row0, col0), (k_begin, k_end)) };
        let (r0, c0) = (row0 + ar, col0 + bc);
        if step == first && piece_end == first + per_tile {
            // SAFETY: the whole tile, which no other block writes; `fast` only for an interior tile
            // with n % 4 == 0.
            unsafe {
                store_acc::<BM, BN, WMI, WNI, BY_ROWS>(c, m, n, r0, c0, &acc, row0 + BM <= m && col0 + BN <= n && n.is_multiple_of(4))
            }
        } else {
            // SAFETY: C zeroed by the caller; c0 is a multiple of 4 (thread_origin's columns).
            unsafe { super::k10_split_k::add_acc::<BM, BN, WMI, WNI, BY_ROWS>(c, m, n, r0, c0, &acc) }
        }
        if BY_ROWS && !n.is_multiple_of(4) {
            // The unaligned writes above used shared memory, which the next piece's loads overwrite.
            // SAFETY: reached by every thread of the block (n and the loop bounds are block-uniform).
            unsafe { thread::sync_threads() };
        }
        step = piece_end;
    }
}

/// The stream-K body over kernel 8's `BM×BN×BK` tile (its const parameters, forwarded): [`walk`]
/// with kernel 8's pipeline (`accumulate`) as its piece. `INTERIOR`: interior pieces take
/// `accumulate_interior` (see the module).
///
/// # Safety
/// As kernel 8's `double_buffer` with the same parameters, with a 1-D grid of any size, plus `C`
/// zeroed before the launch and 16-byte aligned.
#[inline(always)]
pub unsafe fn stream_k<
    const BM: u32,
    const BN: u32,
    const BK: u32,
    const LDA: u32,
    const WMI: usize,
    const WNI: usize,
    const NT: u32,
    const LA: usize,
    const LB: usize,
    const BY_ROWS: bool,
    const INTERIOR: bool,
>(
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let piece = move |(row0, col0): (u32, u32), (k_begin, k_end): (u32, u32)| {
        let interior = INTERIOR
            && !BY_ROWS
            && row0 + BM <= m
            && col0 + BN <= n
            && n.is_multiple_of(4)
            && k.is_multiple_of(4)
            && (k_end - k_begin).is_multiple_of(BK);
        if interior {
            // SAFETY: forwarded contract; the tile is inside both matrices, rows are 16-byte aligned,
            // and the piece is whole K-steps (k_begin < k_end: a piece has at least one step).
            unsafe {
                super::k08_double_buffer::accumulate_interior::<BM, BN, BK, LDA, WMI, WNI, NT, LA, LB>(
                    a,
                    b,
                    n,
                    k,
                    (row0, col0),
                    (k_begin, k_end),
                )
            }
        } else {
            // SAFETY: forwarded contract; k_begin ≤ k_end ≤ k, k_begin a multiple of BK (hence of
            // 4); the arguments are the same for every thread of the block.
            unsafe {
                super::k08_double_buffer::accumulate::<BM, BN, BK, LDA, WMI, WNI, NT, LA, LB, BK>(
                    a,
                    b,
                    m,
                    n,
                    k,
                    (row0, col0),
                    (k_begin, k_end),
                )
            }
        }
    };
    // SAFETY: forwarded contract; both of kernel 8's loops end on a barrier after their last shared read.
    unsafe { walk::<BM, BN, BK, WMI, WNI, BY_ROWS>(c, m, n, k, piece) }
}

/// A stream-K entry ([`stream_k`]) through kernel 10's `zeroed_c_entry!`.
macro_rules! stream_k_entry {
    ($($args:tt)*) => {
        zeroed_c_entry!(stream_k, stream_k, "the blocks that fit on the GPU at once", "docs/ladder/k17-stream-k.md"; $($args)*);
    };
}

stream_k_entry!(matmul_streamk_128x128x16 / matmul_streamk_128x128x16_by_rows, STREAMK_128X128X16, 128, 128, 16, wmi 2, wni 2, threads 256, la 2, lb 2, min_blocks 0, interior false,
    "Stream-K over kernel 8's 128×128×16 tile (256 threads, 8 warps of 64×32, 8×8 outputs per \
     thread): every tile's K-steps shared evenly by the blocks that fit at once (see the module).");
stream_k_entry!(matmul_streamk_128x256x16 / matmul_streamk_128x256x16_by_rows, STREAMK_128X256X16, 128, 256, 16, wmi 2, wni 4, threads 256, la 2, lb 4, min_blocks 0, interior true,
    "Stream-K over kernel 8's fastest tile, 128×256×16 (256 threads, 8 warps of 64×64, 8×16 outputs \
     per thread, one block per SM): large outputs without a partial last wave (4096³: 512 tiles, \
     3.9 waves of one-tile blocks).");
stream_k_entry!(matmul_streamk_64x64x16 / matmul_streamk_64x64x16_by_rows, STREAMK_64X64X16, 64, 64, 16, wmi 1, wni 2, threads 128, la 2, lb 2, min_blocks 4, interior true,
    "Stream-K over kernel 8's 64×64×16 tile (128 threads, 4 warps of 32×32, 4×8 outputs per thread, \
     four blocks per SM): small outputs (512³: 64 tiles for 528 blocks).");
