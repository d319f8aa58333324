//! Kernel 23: kernel 16 with the producer warpgroup copying the operands itself (`cp.async`)
//! instead of asking the TMA for them (sm_90a).
//!
//! **What it fixes in kernel 16**: the TMA reads rows that start off a 32-byte sector (a BF16 matrix
//! whose row length is 8 modulo 16: 1000, 3000, 5000, 7000) at 0.6–0.7 of its rate — BF16 3000³ took
//! kernel 16 155 µs against 105 at 3008³, 1000³ 16.1 µs against 8.7 at 1024³ — while kernel 14,
//! whose threads copy their tiles with `cp.async`, ran both pairs alike (164.6 / 153.8, 25.9 / 25.4
//! µs; `docs/results/2026-12-02-tc-small-squares/diagnosis`): a 16-byte copy from a 16-byte-aligned
//! row never straddles a sector. Kernel 16 avoids the loss by packing such operands into aligned
//! copies first, one more pass over A and B before the product.
//!
//! **The producer**: the 128 threads of warpgroup 0 copy each stage in 16-byte chunks, laid out as
//! the TMA lays them (kernel 14's chunk offsets: the 128-byte swizzle, B in 64-column blocks), zeros
//! beyond the matrices. A thread's copies of one K-step are one `cp.async` group; once the group of
//! step `g − LAG` has landed (`cp.async.wait_group LAG`) the thread fences its writes for the async
//! proxy the tensor cores read through and arrives on that stage's "full" barrier, which completes
//! after all 128 arrivals. `LAG = min(S − 2, 3)` ([`lag`]) steps stay in flight: the consumers release
//! step `g − S`'s stage only once step `g − S + 1` is full, so a larger lag would deadlock.
//!
//! **Rows**: where the rows are 16-byte aligned (K and N multiples of 8) the copies are `cp.async`;
//! elsewhere the producer stores element by element — correct on every shape, and slow: `Auto`
//! prices it only on aligned rows.
//!
//! **What it costs**: the copies go through the SM's load path, which fed the stages at 40–60 GB/s
//! per SM (`docs/results/2026-12-03-copy-fed/tune`), where the TMA feeds kernel 16's 128×256 tiles
//! at 65 GB/s and more: at 4096³ the 128×256, 128×192 and 128×128 tiles of this kernel took 0.62–0.80
//! of kernel 16's time, and even at 3000³ and 5000³, off a sector, kernel 16 in place was faster. On
//! small products of rows off a sector the copies keep up: 1000³ BF16 in 12.3 µs on 64×128 tiles,
//! where kernel 16's best took 13.6. So only the 64×128 tile is an entry, and the model prices its
//! producer's rate (`tc_model::COPY_FEED_BYTES_PER_US`).
//!
//! **Everything else** (the walk, split-K, the consumers, the epilogue) is kernel 16's
//! (`k16_persistent::walk_gemm` with this feed). Measurements: `docs/ladder/k23-copy-fed.md`.
use super::k14_wgmma::{k_major_chunk, WgmmaTile};
use super::k15_tma::{Pipeline, ROW_BYTES, WG_ROWS};
use super::k16_persistent::{self, walk_gemm, Feed, Plain, Walk, WorkUnits};
use crate::device::mem::View;
use crate::device::{async_copy, mbarrier, thread, wgmma};
use crate::launch::TileConfig;

/// The launch of a kernel-23 entry: kernel 16's (one persistent block per SM, its warpgroups, stages
/// and shared memory), with the operands as pointers rather than tensor maps.
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    TileConfig { tma: false, ..k16_persistent::config(bm, bn, stages, elem) }.producer_copies()
}

/// Copy groups in flight behind the newest in a pipeline of `stages` stages (see the module
/// documentation; `cp.async.wait_group` takes at most 3 here).
pub const fn lag(stages: u32) -> u32 {
    let most = stages.saturating_sub(2);
    if most < 3 {
        most
    } else {
        3
    }
}

/// Threads of the producer warpgroup.
const PRODUCERS: u32 = 128;

/// Operands copied by the producer warpgroup from A (`m × k`) and B (`k × n`), row-major.
#[derive(Clone, Copy)]
pub(crate) struct CopyFeed {
    a: *const u8,
    b: *const u8,
    m: u32,
    n: u32,
    k: u32,
}

impl Feed for CopyFeed {
    const FULL_ARRIVALS: u32 = PRODUCERS;

    #[inline(always)]
    unsafe fn produce<O: WgmmaTile, const S: u32, const NC: u32, const P: u32, W: Walk>(self, pipe: Pipeline<S, NC, P>, walk: W) {
        const { assert!(P == 1, "kernel 23 runs without a cluster") };
        let (m, n, k) = (self.m, self.n, self.k);
        // SAFETY: A and B hold m·k and k·n elements of the tile's type (the kernel's contract).
        let (a, b) = unsafe {
            (View::from_const(self.a.cast::<O::Elem>(), (m * k) as usize), View::from_const(self.b.cast::<O::Elem>(), (k * n) as usize))
        };
        let elem = core::mem::size_of::<O::Elem>() as u32;
        let (bk, per_chunk) = (ROW_BYTES / elem, 16 / elem);
        let aligned = k.is_multiple_of(per_chunk) && n.is_multiple_of(per_chunk);
        let (tid, bm, lag) = (thread::thread_idx_x() % PRODUCERS, Pipeline::<S, NC, P>::BM, lag(S));

        let (mut walk, mut g) = (walk, 0);
        while let Some(p) = walk.next() {
            for t in 0..p.ke - p.kb {
                let s = g % S;
                let k0 = (p.kb + t) * bk;
                // SAFETY: the barriers are initialised; the stage is free once its "empty" phase of
                // the previous round completed (a fresh barrier's previous phase counts as complete).
                unsafe { mbarrier::wait_parity(pipe.empty(s), (g / S + 1) % 2) };
                // A: bm rows of K from (row0, k0); B: one box of bk K-rows per 64 columns from (k0, col0 + 64j).
                let a_box = Box128 { view: a, stride: k, row0: p.row0, rows: m, col0: k0, cols: k, at: 0 };
                // SAFETY: the stage is free (above); s < S; each box lies in the stage.
                unsafe { a_box.copy(pipe, s, bm, tid, aligned) };
                for j in 0..O::N / (ROW_BYTES / elem) {
                    let col0 = p.col0 + j * (ROW_BYTES / elem);
                    let b_box = Box128 { view: b, stride: n, row0: k0, rows: k, col0, cols: n, at: bm * ROW_BYTES + j * bk * ROW_BYTES };
                    // SAFETY: as above.
                    unsafe { b_box.copy(pipe, s, bk, tid, aligned) };
                }
                async_copy::commit();
                if g >= lag {
                    // SAFETY: step g − lag's copies were committed by this thread; its stage's "full"
                    // barrier counts one arrival of each producer thread per phase.
                    unsafe { land(pipe, g - lag, lag) };
                }
                g += 1;
            }
        }
        for done in g.saturating_sub(lag)..g {
            // SAFETY: as above; with nothing left to copy every group is waited for.
            unsafe { land(pipe, done, 0) };
        }
    }
}

/// One box of a stage: rows of 128 bytes in the 128-byte swizzle (what a TMA box with that swizzle
/// writes), from row `row0` and element `col0` of a row-major operand (`rows × cols`, rows `stride`
/// elements apart), zeros beyond it, at byte `at` of the stage.
#[derive(Clone, Copy)]
struct Box128<T: Copy> {
    view: View<T>,
    stride: u32,
    row0: u32,
    rows: u32,
    col0: u32,
    cols: u32,
    at: u32,
}

impl<T: Copy + Default> Box128<T> {
    /// Copies `height` rows (a multiple of 16) into stage `s`: producer thread `tid` copies 16-byte
    /// chunk `tid % 8` of rows `tid / 8 + 16i`, whose swizzled position depends on `tid` alone (rows
    /// 16 apart share their row modulo 8). `cp.async` where `aligned` (rows of whole 16-byte chunks:
    /// each wholly inside or outside the operand), else element by element.
    ///
    /// # Safety
    /// Stage `s` is free; `at` + `height` rows of 128 bytes lie inside it; `view` holds the operand.
    #[inline(always)]
    unsafe fn copy<const S: u32, const NC: u32, const P: u32>(
        self,
        pipe: Pipeline<S, NC, P>,
        s: u32,
        height: u32,
        tid: u32,
        aligned: bool,
    ) {
        let elem = core::mem::size_of::<T>() as u32;
        let per_chunk = 16 / elem;
        let (r0, ch) = (tid / 8, tid % 8);
        let col = self.col0 + ch * per_chunk;
        // Byte offset of this thread's chunk in row r0 (and in every row 16·i below it).
        let dst0 = self.at + k_major_chunk(r0, ch);
        if aligned {
            // SAFETY: s < S (the caller's contract).
            let stage = unsafe { pipe.stage_ptr::<T>(s) };
            for i in 0..height / 16 {
                let row = self.row0 + r0 + 16 * i;
                let valid = row < self.rows && col < self.cols;
                let src = if valid { (row * self.stride + col) as usize } else { 0 };
                // SAFETY: the chunk lies in the stage (the caller's contract); the source chunk lies in
                // the operand when valid (whole chunks), index 0 otherwise (nothing read).
                unsafe { async_copy::copy16_zfill_at(stage.offset((dst0 + i * 16 * ROW_BYTES) / elem), self.view, src, valid) };
            }
        } else {
            for i in 0..height / 16 {
                let row = self.row0 + r0 + 16 * i;
                for e in 0..per_chunk {
                    let inside = row < self.rows && col + e < self.cols;
                    // SAFETY: read only inside the operand; the destination lies in the stage.
                    unsafe {
                        let v = if inside { self.view.get((row * self.stride + col + e) as usize) } else { T::default() };
                        pipe.stage_store::<T>(s, (dst0 + i * 16 * ROW_BYTES) / elem + e, v);
                    }
                }
            }
        }
    }
}

/// Announces global step `g`'s stage full once at most `pending` of this thread's younger copy
/// groups are in flight: the wait, the fence that shows the copies to the async proxy, the arrival.
///
/// # Safety
/// This thread committed step `g`'s copies as its `pending + 1`-th newest group (or earlier, with
/// `pending` 0); each producer thread arrives once per step.
#[inline(always)]
unsafe fn land<const S: u32, const NC: u32, const P: u32>(pipe: Pipeline<S, NC, P>, g: u32, pending: u32) {
    async_copy::wait_pending(pending);
    // Element stores (unaligned rows) are this thread's too: the same fence covers them.
    wgmma::fence_proxy_async();
    // SAFETY: the barrier is initialised with PRODUCERS arrivals per phase (the caller's contract).
    unsafe { mbarrier::arrive(pipe.full(g % S)) };
}

/// `C = A·B` as [`k16_persistent::persistent_gemm`], the operands copied by the producer warpgroup
/// from `a` and `b` (16-bit elements) instead of read through tensor maps.
///
/// # Safety
/// `a` holds `m·k` elements, `b` `k·n`, `c` `m·n` floats (products fit in `u32`); the launch is
/// [`config`]`(64·NC, O::N, S, 2)`'s threads and shared bytes, any grid along x, `gridDim.y` K slices
/// (`C` zeroed first when above 1); sm_90a.
#[inline(always)]
pub unsafe fn copy_fed_gemm<O: WgmmaTile, const S: u32, const NC: u32>(
    a: *const O::Elem,
    b: *const O::Elem,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    let feed = CopyFeed { a: a.cast(), b: b.cast(), m, n, k };
    // SAFETY: forwarded contract; the feed describes A and B.
    unsafe { walk_gemm::<O, S, NC, 1, WorkUnits, CopyFeed, Plain>(feed, (), Plain, core::ptr::null(), c, core::ptr::null_mut(), m, n, k) }
}

/// Declares a kernel-23 entry (16-bit operands) and its launch constant.
macro_rules! copy_fed_entry {
    ($name:ident, $config:ident, $tile:ident, stages $s:literal, consumers $c:literal, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: TileConfig = config(WG_ROWS * $c, <super::k14_wgmma::$tile as WgmmaTile>::N, $s, 2);

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            /// As [`copy_fed_gemm`], with the launch its `TileConfig` constant states.
            pub unsafe fn $name(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe { copy_fed_gemm::<super::k14_wgmma::$tile, $s, $c>(a, b, c, m, n, k) }
            }
        }
    };
}

copy_fed_entry!(matmul_copyfeed_bf16_64x128, COPYFEED_BF16_64X128, Bf16N128, stages 9, consumers 1,
    "Kernel 23 on BF16 inputs, `f32` output (sm_90a): kernel 16's 64×128×64 tiles (one consumer warpgroup) \
     and 9 stages, the operands copied by the producer warpgroup.");
copy_fed_entry!(matmul_copyfeed_f16_64x128, COPYFEED_F16_64X128, F16N128, stages 9, consumers 1,
    "Kernel 23 on FP16 inputs, `f32` output (sm_90a), 64×128 tiles: as [`matmul_copyfeed_bf16_64x128`].");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lag_leaves_a_stage_for_the_consumers_release() {
        assert_eq!([lag(4), lag(5), lag(6), lag(9)], [2, 3, 3, 3]);
        for s in 2..12 {
            assert!(lag(s) + 2 <= s && lag(s) <= 3, "{s} stages");
        }
    }

    #[test]
    fn entries_launch_as_kernel_16_without_tensor_maps() {
        for (fed, tma) in
            [(COPYFEED_BF16_64X128, k16_persistent::PERSISTENT_BF16_64X128), (COPYFEED_F16_64X128, k16_persistent::PERSISTENT_F16_64X128)]
        {
            assert!(!fed.tma && fed.producer_copies && fed.persistent && fed.sm90a);
            assert_eq!(TileConfig { tma: true, producer_copies: false, ..fed }, tma);
        }
    }
}
