//! Kernel 10: split-K — when the output has too few tiles to fill the GPU, blocks also divide K.

/// The split-K body for a `BM×BN×BK` tile of kernel 8 (its const parameters, forwarded): block
/// `(x, y, z)` computes output tile `(y, x)` over K slice `z` of `gridDim.z` and adds it into `C`
/// (`BY_ROWS`: as [`add_acc`]'s).
///
/// # Safety
/// As kernel 8's `double_buffer` with the same parameters, plus `C` zeroed before the launch and
/// 16-byte aligned.
#[inline(always)]
pub unsafe fn split_k<
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
>(
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    use super::k07_warptile::thread_origin;
    use crate::device::thread;
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let (k_begin, k_end) = k_slice(k, BK);
    let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
    // SAFETY: forwarded contract; k_begin ≤ k_end ≤ k and k_begin is a multiple of BK (hence of 4).
    let acc = unsafe {
        super::k08_double_buffer::accumulate::<BM, BN, BK, LDA, WMI, WNI, NT, LA, LB, BK>(a, b, m, n, k, (row0, col0), (k_begin, k_end))
    };
    let (ar, bc) = thread_origin::<BN, WMI, WNI>(thread::thread_idx_x());
    // SAFETY: C zeroed by the caller; (row0 + ar, col0 + bc) is this thread's first output.
    unsafe { add_acc::<BM, BN, WMI, WNI, BY_ROWS>(c, m, n, row0 + ar, col0 + bc, &acc) }
}

/// Adds this thread's accumulators (outputs placed as in kernel 7's `thread_origin`, the first at
/// `(r0, c0)`) into `C` atomically, skipping outputs past `m` or `n`: four columns per 16-byte
/// `red.global.add.v4.f32` where N is a multiple of 4; otherwise one `red.global.add.f32` each: a
/// row of `C` at a time through shared memory when `BY_ROWS` (kernel 7's `write_acc_by_rows`),
/// element by element across the warp's rows if not.
///
/// # Safety
/// `c` is a view of global memory of `m·n` floats starting on a 16-byte boundary (every allocation
/// does); `c0` is a multiple of 4. Where `BY_ROWS` and `n % 4 != 0`, as `write_acc_by_rows`: every
/// thread of the block calls it, after a barrier that follows its last use of shared memory, and a
/// barrier separates it from the next use.
#[inline(always)]
pub unsafe fn add_acc<const BM: u32, const BN: u32, const WMI: usize, const WNI: usize, const BY_ROWS: bool>(
    c: crate::device::mem::View<f32>,
    m: u32,
    n: u32,
    r0: u32,
    c0: u32,
    acc: &super::k07_warptile::Acc<WMI, WNI>,
) {
    use super::k07_warptile::{write_acc_by_rows, WSUB_M, WSUB_N};
    use crate::device::atomic;
    // C's zeroing may still run (the host queues this launch as its dependent).
    crate::device::dependent_launch::wait_for_prior_grids();
    if BY_ROWS && !n.is_multiple_of(4) {
        // SAFETY: forwarded contract (n % 4 is the same for every thread of the grid).
        return unsafe { write_acc_by_rows::<BM, BN, WMI, WNI, true>(c, m, n, r0, c0, acc) };
    }
    for (wm, rows) in acc.iter().enumerate() {
        for (i, frags) in rows.iter().enumerate() {
            let r = r0 + wm as u32 * WSUB_M + i as u32;
            for (wn, frag) in frags.iter().enumerate() {
                let col = c0 + wn as u32 * WSUB_N;
                if r < m && col + 4 <= n && n.is_multiple_of(4) {
                    // SAFETY: r < m, col + 4 ≤ n: inside C's m·n floats; col and n multiples of 4:
                    // 16-byte aligned.
                    unsafe { atomic::add_f32x4(c, (r * n + col) as usize, *frag) }
                    continue;
                }
                for (j, &v) in frag.iter().enumerate() {
                    let col = col + j as u32;
                    if r < m && col < n {
                        // SAFETY: r < m, col < n: inside C's m·n floats.
                        unsafe { atomic::add_f32(c, (r * n + col) as usize, v) }
                    }
                }
            }
        }
    }
}

/// Declares a monomorphic entry of a kernel over kernel 8's tile that adds into a zeroed `C` — its
/// body `$body` (this file's `split_k`, kernel 17's `stream_k`), named in the caller's module — and
/// its launch (`$config`, marked by `TileConfig::$launch`; `$grid` says how its grid is sized), with
/// its configuration in the doc; `min_blocks`: the launch bound (0 = none); `$page`: its lab notes;
/// `$by_rows`: its twin whose unaligned epilogue goes by rows (`BY_ROWS`, see `by_rows_twin!`).
macro_rules! zeroed_c_entry {
    ($body:ident, $launch:ident, $grid:literal, $page:literal; $name:ident / $by_rows:ident, $config:ident, $bm:literal, $bn:literal, $bk:literal, wmi $wmi:literal, wni $wni:literal, threads $nt:literal, la $la:literal, lb $lb:literal, min_blocks $mb:literal, $(interior $ip:literal,)? $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`]: ", $grid, ".")]
        pub const $config: crate::launch::TileConfig =
            crate::launch::TileConfig::new($bm, $bn, $bk, $nt, super::k08_double_buffer::shared_bytes($bm, $bn, $bk))
                .min_blocks_per_sm($mb)
                .$launch();

        kernel! {
            #[doc = $doc]
            ///
            #[doc = concat!("Measurements: `", $page, "`.")]
            ///
            /// # Safety
            /// As kernel 1, plus `C` zeroed before the launch and 16-byte aligned, and the launch the
            /// host's `$config` (this entry's `TileConfig`) states: the thread count above, the grid
            /// its doc names, `k08_double_buffer::shared_bytes(BM, BN, BK)` of dynamic shared memory.
            pub unsafe fn $name(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe { $body::<$bm, $bn, $bk, { $bm + 4 }, $wmi, $wni, $nt, $la, $lb, false $(, $ip)?>(a, b, c, m, n, k) }
            }
        }

        by_rows_twin!($name, $by_rows, $body::<$bm, $bn, $bk, { $bm + 4 }, $wmi, $wni, $nt, $la, $lb, true $(, $ip)?>);
    };
}

/// A split-K entry ([`split_k`]) through `zeroed_c_entry!`.
macro_rules! split_k_entry {
    ($($args:tt)*) => {
        zeroed_c_entry!(split_k, split_k, "`gridDim.z` slices of K", "docs/ladder/k10-split-k.md"; $($args)*);
    };
}

split_k_entry!(matmul_splitk_128x128x16 / matmul_splitk_128x128x16_by_rows, SPLITK_128X128X16, 128, 128, 16, wmi 2, wni 2, threads 256, la 2, lb 2, min_blocks 0,
    "Split-K matmul: kernel 8's 128×128×16 double-buffered tile, with `gridDim.z` blocks per output \
     tile, each computing one slice of K and adding its partial tile into `C` atomically.\n\n\
     **What it fixes in kernel 8**: a 128×128 tile gives `⌈M/128⌉·⌈N/128⌉` blocks, and shapes like \
     256×4096×4096 or 8192×128×8192 (64 blocks) leave half of the 132 SMs idle however long K is; \
     smaller tiles (64×64) fill the SMs but move twice the global traffic per FMA and compute 4×8 per \
     thread. Here `S = gridDim.z` blocks share an output tile: block `z` runs kernel 8's pipeline over \
     K columns `z·chunk .. (z+1)·chunk` (`chunk = ⌈K/S⌉` rounded up to BK), so the grid has `S`× the \
     blocks at the efficient tile size. Global loads are unchanged (`M·N·K·(1/BM + 1/BN)`); the \
     epilogue adds `S·M·N` partial sums into `C` instead of `M·N` stores — four per 16-byte \
     `red.global.add.v4.f32` where N is a multiple of 4, one per `red.global.add.f32` otherwise. The \
     host picks `S` (`tuning::splits_for`) and zeroes `C` first.\n\n\
     **Parameters / edges**: as kernel 5 (any M, N, K; an empty slice adds zeros).\n\n\
     **Determinism**: the `S` partial sums of an element arrive in any order, so its last bits may \
     differ between runs (within the reference tolerance; `S = 1` is deterministic).");
split_k_entry!(matmul_splitk_64x64x16 / matmul_splitk_64x64x16_by_rows, SPLITK_64X64X16, 64, 64, 16, wmi 1, wni 2, threads 128, la 2, lb 2, min_blocks 4,
    "Split-K over kernel 8's 64×64×16 tile (4×8 outputs per thread), for the smallest outputs \
     (512³: 64 tiles, `S = 2`).");
split_k_entry!(matmul_splitk_128x32x16 / matmul_splitk_128x32x16_by_rows, SPLITK_128X32X16, 128, 32, 16, wmi 1, wni 2, threads 128, la 4, lb 1, min_blocks 4,
    "Split-K over a 128×32×16 tile (128 threads, 4 warps of 32×32 stacked along M, 4×8 outputs per \
     thread): for outputs a few columns wide (N ≤ 32) with deep K, where a 64-column tile computes \
     half or more of its columns past N (6960×32×8288).");
split_k_entry!(matmul_splitk_32x128x16 / matmul_splitk_32x128x16_by_rows, SPLITK_32X128X16, 32, 128, 16, wmi 1, wni 2, threads 128, la 1, lb 4, min_blocks 4,
    "Split-K over a 32×128×16 tile (128 threads, 4 warps of 32×32 side by side along N, 4×8 outputs \
     per thread): for outputs a few rows tall (M ≤ 32) with deep K (11×2285×1430).");
split_k_entry!(matmul_splitk_128x256x16 / matmul_splitk_128x256x16_by_rows, SPLITK_128X256X16, 128, 256, 16, wmi 2, wni 4, threads 256, la 2, lb 4, min_blocks 0,
    "Split-K over kernel 8's fastest tile, 128×256×16 (256 threads, 8 warps of 64×64, 8×16 outputs per \
     thread, 48.5 KiB shared): for outputs of a few dozen 128×256 tiles with deep K (256×4096×4096: \
     32 tiles, 4 slices fill 128 of 132 SMs; 1024³ likewise), where `splitk-128x128x16` runs the \
     less efficient 8×8 thread tile.");
split_k_entry!(matmul_splitk_256x128x16 / matmul_splitk_256x128x16_by_rows, SPLITK_256X128X16, 256, 128, 16, wmi 2, wni 4, threads 256, la 4, lb 2, min_blocks 0,
    "Split-K over the transposed big tile, 256×128×16 (256 threads, 8 warps of 64×64 — four along M, \
     two along N — 8×16 outputs per thread, 48.5 KiB shared): the 128×256 tile's arithmetic for \
     outputs about 128 columns wide (8192×128×8192: 32 tiles, 4 slices), where a 256-column tile \
     would compute half its columns past N.");

/// This block's slice of K, `k_begin .. k_end`: slice `blockIdx.z` of `gridDim.z`, each `⌈K/S⌉`
/// rounded up to `bk` (a slice past the end is empty). The split of kernels 10, 18 and 21 (kernel 19
/// computes the same slice inline: the helper moved a branch of its PTX).
#[inline(always)]
pub fn k_slice(k: u32, bk: u32) -> (u32, u32) {
    use crate::device::thread;
    let chunk = k.div_ceil(thread::grid_dim_z()).next_multiple_of(bk);
    let k_begin = (thread::block_idx_z() * chunk).min(k);
    (k_begin, (k_begin + chunk).min(k))
}
