//! The TMA's read rate: `cp.async.bulk.tensor` loads alone, no products — what the operand pipelines
//! of kernels 15–27 can get out of memory for a given row pitch, box and walk (sm_90).
//!
//! **Why**: two gaps of the tensor-core kernels are in their reads, not their math. Rows that start
//! 16 bytes off a 32-byte sector (BF16 rows of 8 mod 16 elements) run the TMA kernels at 0.6–0.85 of
//! their rate on aligned rows (`docs/ladder/k15-tma.md`), and a decode product's `B` (64 K-rows ×
//! 256 bytes a box, rows `2N` bytes apart) streams at 2.1–2.4 TB/s however many SMs share it
//! (`docs/ladder/k20-mma-split-k.md`). This kernel times the loads of such walks with nothing else
//! in the way.
//!
//! **Walk**: the map's tensor is `cols × rows` boxes; `strip` adjacent boxes across make one unit,
//! and the units go down each strip of columns in turn (`unit = strip_index · rows + row`). Block `b`
//! of `G` loads units `⌊b·U/G⌋ .. ⌊(b+1)·U/G⌋`, one box after another: `strip = cols` gives each block
//! contiguous whole rows (kernel 15's A, a row panel across K), `strip = 1`–`4` a tile's column strip
//! down K (a decode product's `B`).
//!
//! **Pipeline**: one thread of a one-warp block issues every load into a ring of `stages` boxes of
//! `box_bytes` (1024-byte aligned), each completing its bytes on the stage's `mbarrier`; before a
//! stage is reused it waits for the stage's last load — so up to `stages` boxes are in flight a block.
//!
//! **Output**: `out[b]` = the sum, over the boxes block `b` loaded, of each box's first 32-bit word
//! as loaded (the tensor's bytes at the box's origin; zero where that lies outside the tensor), so a
//! wrong coordinate shows and no load is dead.
//!
//! **Launch**: 1-D grid of any size, [`BLOCK`] threads, `stages · box_bytes + `[`SLACK_BYTES`]` + 8 ·
//! stages` bytes of dynamic shared memory ([`shared_bytes`]).
use crate::device::async_copy::SharedPtr;
use crate::device::mem::View;
use crate::device::shared::SharedTiles;
use crate::device::tma::{self, TensorMap};
use crate::device::{mbarrier, thread, wgmma};

/// Threads per block: one warp, of which lane 0 works (the others only pass the barrier).
pub const BLOCK: u32 = 32;
/// Alignment slack before the ring: one 1024-byte swizzle atom.
pub const SLACK_BYTES: u32 = wgmma::SW128_ATOM_BYTES;

/// Dynamic shared bytes of a launch with `stages` boxes of `box_bytes` in flight.
pub const fn shared_bytes(stages: u32, box_bytes: u32) -> u32 {
    stages * box_bytes + SLACK_BYTES + 8 * stages
}

/// [`shared_bytes`], or `None` where it overflows a `u32` (a host checking a caller's probe).
pub const fn checked_shared_bytes(stages: u32, box_bytes: u32) -> Option<u32> {
    let Some(ring) = stages.checked_mul(box_bytes) else { return None };
    let Some(barriers) = stages.checked_mul(8) else { return None };
    let Some(ring) = ring.checked_add(SLACK_BYTES) else { return None };
    ring.checked_add(barriers)
}

/// The box origin (inner, outer element coordinates) of load `j` of unit `unit` (`j < strip`), for
/// boxes of `box_w × box_h` elements in a walk of `rows` boxes down each strip.
#[inline(always)]
pub const fn box_origin(unit: u32, j: u32, (strip, rows): (u32, u32), (box_w, box_h): (u32, u32)) -> (i32, i32) {
    let (s, r) = (unit / rows, unit % rows);
    (((s * strip + j) * box_w) as i32, (r * box_h) as i32)
}

/// The units of block `b` of `blocks` over `units` in all: `⌊b·units/blocks⌋ .. ⌊(b+1)·units/blocks⌋`.
#[inline(always)]
pub const fn block_units(b: u32, blocks: u32, units: u32) -> (u32, u32) {
    let (b, blocks, units) = (b as u64, if blocks == 0 { 1 } else { blocks as u64 }, units as u64);
    ((b * units / blocks) as u32, ((b + 1) * units / blocks) as u32)
}

kernel! {
    /// Loads every box of this block's units through `map` (see the module documentation) and writes
    /// `out[blockIdx.x]`.
    ///
    /// # Safety
    /// `map` is a valid tensor map of boxes `box_w × box_h` of `box_bytes` bytes (the 128-byte
    /// swizzle only with 128-byte box rows); `cols` and `rows` count its tensor's boxes across and
    /// down, `strip` divides `cols`; `out` holds `gridDim.x` words; the launch has [`BLOCK`] threads
    /// and [`shared_bytes`]`(stages, box_bytes)` bytes of dynamic shared memory, `stages ≥ 1`,
    /// `box_bytes` a multiple of 1024.
    #[allow(clippy::too_many_arguments)] // the entry's parameters are its ABI
    pub unsafe fn tma_read(
        map: *const TensorMap,
        cols: u32,
        rows: u32,
        strip: u32,
        box_w: u32,
        box_h: u32,
        box_bytes: u32,
        stages: u32,
        out: *mut u32,
    ) {
        let region = shared_bytes(stages, box_bytes);
        // SAFETY: the launch provides `region` bytes (the caller's contract).
        let smem = unsafe { SharedTiles::<u8>::new().tile(region as usize) };
        // SAFETY: `smem` is this block's shared memory.
        let base = unsafe { SharedPtr::new(smem, 0) }.addr();
        let lead = (SLACK_BYTES - base % SLACK_BYTES) % SLACK_BYTES;
        let ring = base + lead;
        let bars = ring + stages * box_bytes;
        if thread::thread_idx_x() == 0 {
            for s in 0..stages {
                // SAFETY: 8-byte slots after the ring, inside the region; the barrier below precedes use.
                unsafe { mbarrier::init(bars + 8 * s, 1) };
            }
            wgmma::fence_proxy_async();
        }
        // SAFETY: every thread of the block, once.
        unsafe { thread::sync_threads() };
        if thread::thread_idx_x() != 0 {
            return;
        }
        // SAFETY: the ring's words, 4-byte aligned, inside the region.
        let words = unsafe { View::new(smem.ptr(lead as usize).cast::<u32>(), (stages * box_bytes / 4) as usize) };
        let strips = cols / strip.max(1);
        let (u0, u1) = block_units(thread::block_idx_x(), thread::grid_dim_x(), strips * rows);
        let mut sum = 0u32;
        let mut issued = 0u32;
        for unit in u0..u1 {
            for j in 0..strip {
                let s = issued % stages;
                let bar = bars + 8 * s;
                if issued >= stages {
                    // SAFETY: the stage's previous load completes this phase; its box is then readable.
                    unsafe { mbarrier::wait_parity(bar, (issued / stages - 1) & 1) };
                    // SAFETY: word 0 of stage s, inside the ring.
                    sum = sum.wrapping_add(unsafe { words.get((s * box_bytes / 4) as usize) });
                }
                let (x, y) = box_origin(unit, j, (strip, rows), (box_w, box_h));
                // SAFETY: the stage holds a box (box_bytes, 1024-aligned); its barrier expects it.
                unsafe {
                    mbarrier::arrive_expect_tx(bar, box_bytes);
                    tma::load_2d(ring + s * box_bytes, map, x, y, bar);
                }
                issued += 1;
            }
        }
        // The loads still in flight: the last min(issued, stages), oldest first.
        let first = issued.saturating_sub(stages);
        for i in first..issued {
            let s = i % stages;
            // SAFETY: load i completes phase i / stages of its stage's barrier.
            unsafe { mbarrier::wait_parity(bars + 8 * s, (i / stages) & 1) };
            // SAFETY: as above.
            sum = sum.wrapping_add(unsafe { words.get((s * box_bytes / 4) as usize) });
        }
        // SAFETY: out holds gridDim.x words.
        unsafe { View::new(out, thread::grid_dim_x() as usize).set(thread::block_idx_x() as usize, sum) };
    }
}
