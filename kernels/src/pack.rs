//! Packing a strided matrix into a dense row-major one, transposing on the way if asked: the pass that
//! lets the GEMM of the host library (`Gpu::gemm`) feed sub-matrices, column-major operands and
//! transposed operands to matmul kernels that read dense row-major `A` and `B`.
//!
//! The kernels move bits (`u32` for `f32` data, `u16` for `bf16` / `f16`): a pack never rounds.
//! [`for_each_element`] is the tile walk they share with the GEMM epilogue (`crate::epilogue`).
use crate::device::mem::{Float4, View};
use crate::device::shared::SharedTiles;
use crate::device::thread::{block_idx_x, block_idx_y, grid_dim_x, grid_dim_y, sync_threads, thread_idx_x, thread_idx_y};

/// The side of the square tile a block moves per step.
pub const TILE: u32 = 32;
/// Threads per block: `TILE × ROWS` (each thread moves `TILE / ROWS` elements per tile).
pub const BLOCK: (u32, u32) = (TILE, ROWS);
/// Rows of threads: each moves every `ROWS`-th row of the tile.
pub const ROWS: u32 = 8;
/// Row stride of the shared tile: one more than [`TILE`], so the transposed reads (a column of the
/// tile per warp) fall in 32 different banks.
pub const TILE_STRIDE: u32 = TILE + 1;

/// Dynamic shared memory of a launch moving `elem_bytes`-byte elements: one padded tile.
pub const fn shared_bytes(elem_bytes: u32) -> u32 {
    TILE * TILE_STRIDE * elem_bytes
}

/// Visits every element of a `rows × cols` result whose element `(r, c)` is `src[r·ld + c]`, or
/// `src[c·ld + r]` when `transposed`, calling `store(r, c, value)` once for each.
///
/// **Thread mapping**: block `(x, y)` takes the `TILE × TILE` result tiles `(y + i·gridDim.y,
/// x + j·gridDim.x)` (a 2-D grid-stride loop, so any grid covers any size). Stores go along a result
/// row (thread `x` of a warp writes column `c0 + x`): coalesced. Without transposing, reads go along
/// the same row: coalesced too. Transposing, a warp first reads a *source* row (a result column) into
/// the shared tile, the block synchronizes, and then each warp stores a result row from a column of
/// the tile (padded: no bank conflicts); so both global sides stay coalesced.
///
/// # Safety
/// `src` holds every element the walk reads: `(rows-1)·ld + cols` of them without transposing,
/// `(cols-1)·ld + rows` transposing (when `rows, cols > 0`). Launch with [`BLOCK`] threads and at least
/// [`shared_bytes`]`(size_of::<T>())` bytes of dynamic shared memory; `transposed`, `rows` and `cols`
/// are the same for every thread (the barriers inside are reached by all threads of a block).
#[inline(always)]
pub unsafe fn for_each_element<T: Copy>(
    src: View<T>,
    ld: usize,
    transposed: bool,
    rows: u32,
    cols: u32,
    mut store: impl FnMut(u32, u32, T),
) {
    let (tx, ty) = (thread_idx_x(), thread_idx_y());
    // SAFETY: the launch passes shared_bytes(size_of::<T>()) bytes: one TILE × TILE_STRIDE tile.
    let tile = unsafe { SharedTiles::<T>::new().tile((TILE * TILE_STRIDE) as usize) };
    let (tiles_r, tiles_c) = (rows.div_ceil(TILE), cols.div_ceil(TILE));
    let mut tr = block_idx_y();
    while tr < tiles_r {
        let mut tc = block_idx_x();
        while tc < tiles_c {
            let (r0, c0) = (tr * TILE, tc * TILE);
            if transposed {
                // Load: thread (x, y) reads source row c0 + y + i (a result column), element r0 + x.
                let mut i = 0;
                while i < TILE {
                    let (r, c) = (r0 + tx, c0 + ty + i);
                    if r < rows && c < cols {
                        // SAFETY: c < cols and r < rows, so c·ld + r ≤ (cols-1)·ld + rows - 1 (the caller's
                        // length); the tile index (ty + i)·TILE_STRIDE + tx < TILE·TILE_STRIDE.
                        unsafe { tile.set(((ty + i) * TILE_STRIDE + tx) as usize, src.get(c as usize * ld + r as usize)) };
                    }
                    i += ROWS;
                }
                // SAFETY: every thread of the block runs the same tile loop (its bounds depend on the
                // block index and the uniform arguments only) and `transposed` is uniform.
                unsafe { sync_threads() };
                let mut i = 0;
                while i < TILE {
                    let (r, c) = (r0 + ty + i, c0 + tx);
                    if r < rows && c < cols {
                        // SAFETY: tx·TILE_STRIDE + ty + i < TILE·TILE_STRIDE; this element was loaded above
                        // (it is result (r, c), read by thread (ty + i, tx) of the load).
                        store(r, c, unsafe { tile.get((tx * TILE_STRIDE + ty + i) as usize) });
                    }
                    i += ROWS;
                }
                // SAFETY: as above; the next tile's loads must not overwrite this one before it is read.
                unsafe { sync_threads() };
            } else {
                let mut i = 0;
                while i < TILE {
                    let (r, c) = (r0 + ty + i, c0 + tx);
                    if r < rows && c < cols {
                        // SAFETY: r < rows and c < cols, so r·ld + c ≤ (rows-1)·ld + cols - 1.
                        store(r, c, unsafe { src.get(r as usize * ld + c as usize) });
                    }
                    i += ROWS;
                }
            }
            tc += grid_dim_x();
        }
        tr += grid_dim_y();
    }
}

/// The body of both pack kernels: `dst[r·cols + c] = src(r, c)` over a `rows × cols` result.
///
/// # Safety
/// As [`for_each_element`], with `src` valid for `src_len` elements (at least what the walk reads) and
/// `dst` for `rows·cols` elements, not overlapping `src`.
#[inline(always)]
unsafe fn pack<T: Copy>(src: *const T, src_len: usize, ld: usize, rows: u32, cols: u32, transposed: u32, dst: *mut T) {
    // SAFETY: the caller's lengths.
    let (src, dst) = unsafe { (View::from_const(src, src_len), View::new(dst, rows as usize * cols as usize)) };
    let width = cols as usize;
    // SAFETY: forwarded from the caller; each (r, c) < (rows, cols) is stored once, inside `dst`.
    unsafe { for_each_element(src, ld, transposed != 0, rows, cols, |r, c, v| dst.set(r as usize * width + c as usize, v)) }
}

kernel! {
    /// Packs 32-bit elements (`f32` bits): `dst` (`rows × cols`, dense row-major) gets element `(r, c)`
    /// of the source matrix `src[r·ld + c]`, or `src[c·ld + r]` when `transposed != 0`.
    ///
    /// **What it is for**: the matmul kernels read dense row-major operands; a GEMM operand that is a
    /// sub-matrix (`ld` larger than its width), column-major, or transposed is packed into that form
    /// first. Bandwidth-bound: each element is read once and written once (see [`for_each_element`]
    /// for the tiling and why both sides are coalesced).
    ///
    /// # Safety
    /// `src` is valid for `src_len ≥` the elements read (`(rows-1)·ld + cols`, or `(cols-1)·ld + rows`
    /// transposed, when `rows, cols > 0`), `dst` for `rows·cols` elements, not overlapping `src`; the
    /// launch has [`BLOCK`] threads and [`shared_bytes`]`(4)` bytes of dynamic shared memory.
    pub unsafe fn pack_b32(src: *const u32, src_len: usize, ld: usize, rows: u32, cols: u32, transposed: u32, dst: *mut u32) {
        // SAFETY: the contract above is `pack`'s.
        unsafe { pack(src, src_len, ld, rows, cols, transposed, dst) }
    }
}

kernel! {
    /// Packs 16-bit elements (`bf16` / `f16` bits); otherwise as [`pack_b32`].
    ///
    /// # Safety
    /// As [`pack_b32`], in 16-bit elements, with [`shared_bytes`]`(2)` bytes of dynamic shared memory.
    pub unsafe fn pack_b16(src: *const u16, src_len: usize, ld: usize, rows: u32, cols: u32, transposed: u32, dst: *mut u16) {
        // SAFETY: the contract above is `pack`'s.
        unsafe { pack(src, src_len, ld, rows, cols, transposed, dst) }
    }
}

kernel! {
    /// Packs 8-bit elements (FP8 bits); otherwise as [`pack_b32`]. Transposing is how the host turns
    /// an FP8 `B` (`k × n`) into the `Bᵀ` (`n × k`) that FP8 `wgmma` reads (kernel 25).
    ///
    /// # Safety
    /// As [`pack_b32`], in 8-bit elements, with [`shared_bytes`]`(1)` bytes of dynamic shared memory.
    pub unsafe fn pack_b8(src: *const u8, src_len: usize, ld: usize, rows: u32, cols: u32, transposed: u32, dst: *mut u8) {
        // SAFETY: the contract above is `pack`'s.
        unsafe { pack(src, src_len, ld, rows, cols, transposed, dst) }
    }
}

kernel! {
    /// Pads the rows of 16-bit elements (`bf16` / `f16` bits): `dst[r·ld + c] = src[r·cols + c]` for
    /// `(r, c) < (rows, cols)`, a dense `rows × cols` matrix copied into one whose rows start `ld ≥ cols`
    /// elements apart. The padding (elements `cols..ld` of each row) is not written.
    ///
    /// **What it is for**: a TMA tensor map needs rows a multiple of 16 bytes apart; an operand whose
    /// rows are not (K or N not a multiple of 8) is copied with `ld` rounded up first, and its map keeps
    /// the real dimensions (`tessera_catalogue::registry::tma::plan`), so the padding is never read. The walk is
    /// [`for_each_element`]'s without transposing: reads and writes go along rows, both coalesced.
    ///
    /// # Safety
    /// `src` is valid for `rows·cols` elements, `dst` for `rows·ld`, not overlapping `src`, `ld ≥ cols`;
    /// the launch has [`BLOCK`] threads and [`shared_bytes`]`(2)` bytes of dynamic shared memory.
    pub unsafe fn pad_b16(src: *const u16, dst: *mut u16, rows: u32, cols: u32, ld: u32) {
        let aligned = |unit: u32| {
            cols.is_multiple_of(unit) && ld.is_multiple_of(unit) && (src as usize).is_multiple_of(2 * unit as usize) && (dst as usize).is_multiple_of(2 * unit as usize)
        };
        // The branches are uniform (arguments only).
        if aligned(8) {
            // SAFETY: the caller's lengths; rows of whole 16-byte units on both sides, both bases
            // 16-byte aligned (checked).
            unsafe { pad_b16_units::<8>(src, dst, rows, cols, ld) };
            return;
        }
        if aligned(4) {
            // SAFETY: as above, in 8-byte units.
            unsafe { pad_b16_units::<4>(src, dst, rows, cols, ld) };
            return;
        }
        if ld.is_multiple_of(8) && (src as usize).is_multiple_of(4) && (dst as usize).is_multiple_of(16) {
            // SAFETY: the caller's lengths; destination rows of whole 16-byte units from a 16-byte
            // aligned base, the source 4-byte aligned (checked).
            unsafe { pad_b16_shifted(src, dst, rows, cols, ld) };
            return;
        }
        if aligned(2) {
            // SAFETY: as above, in 4-byte units.
            unsafe { pad_b16_units::<2>(src, dst, rows, cols, ld) };
            return;
        }
        let (width, ld) = (cols as usize, ld as usize);
        // SAFETY: the caller's lengths.
        let (src, dst) = unsafe { (View::from_const(src, rows as usize * width), View::new(dst, rows as usize * ld)) };
        // SAFETY: the walk reads (r, c) < (rows, cols) at r·cols + c < rows·cols and stores it at
        // r·ld + c < rows·ld (c < cols ≤ ld); the launch is the one `for_each_element` needs.
        unsafe { for_each_element(src, width, false, rows, cols, |r, c, v| dst.set(r as usize * ld + c as usize, v)) }
    }
}

/// [`pad_b16`] for source rows that do not split into whole 8-byte units (odd `cols`, or 2 mod 4) into
/// destination rows of whole 16-byte units (`ld` a multiple of 8): each thread of a grid-stride loop
/// writes one 8-element unit of a destination row with one 16-byte store, assembled from the aligned
/// 4-byte source words that hold its elements — as they are where the unit starts on an even element,
/// shifted by 16 bits (each word the high half of one and the low half of the next) where it starts
/// on an odd one. A row's last, partial unit, and a unit whose last word would lie past the source,
/// are copied element by element. Element by element the whole copy ran at a third of the copy rate
/// (11096 × 1169 BF16, `A` of an odd-K product packed for the TMA: 59 µs with the product, priced 31).
///
/// # Safety
/// As [`pad_b16`], with `ld % 8 == 0`, `dst` 16-byte aligned and `src` 4-byte aligned.
#[inline(always)]
unsafe fn pad_b16_shifted(src: *const u16, dst: *mut u16, rows: u32, cols: u32, ld: u32) {
    let (per_row, total) = (u64::from(cols.div_ceil(8)), u64::from(rows) * u64::from(cols));
    // SAFETY: the caller's lengths: rows·cols elements hold ⌊rows·cols / 2⌋ whole words from the
    // 4-byte aligned `src`; `dst` holds rows·ld elements, 16-byte aligned.
    let (elems, words, out) = unsafe {
        (
            View::from_const(src, total as usize),
            View::from_const(src.cast::<f32>(), (total / 2) as usize),
            View::new(dst, rows as usize * ld as usize),
        )
    };
    // SAFETY: the same bytes as `out`, as floats (16-byte aligned, ld even).
    let out4 = unsafe { View::new(dst.cast::<f32>(), rows as usize * ld as usize / 2) };
    let threads = BLOCK.0 * BLOCK.1;
    let block = u64::from(block_idx_y()) * u64::from(grid_dim_x()) + u64::from(block_idx_x());
    let stride = u64::from(grid_dim_x()) * u64::from(grid_dim_y()) * u64::from(threads);
    let mut i = block * u64::from(threads) + u64::from(thread_idx_y() * BLOCK.0 + thread_idx_x());
    while i < u64::from(rows) * per_row {
        let (r, c0) = (i / per_row, (i % per_row) * 8);
        let (e, to) = (r * u64::from(cols) + c0, r * u64::from(ld) + c0);
        let whole = c0 + 8 <= u64::from(cols);
        let odd = e % 2 == 1;
        // The last word read: elements e .. e + 8 from word ⌊e/2⌋, one more where e is odd.
        let last_word = e / 2 + if odd { 4 } else { 3 };
        if whole && last_word < total / 2 {
            let w = |j: u64| -> u32 {
                // SAFETY: e/2 + j ≤ last_word < ⌊total / 2⌋, a whole word of the source.
                unsafe { words.get((e / 2 + j) as usize) }.to_bits()
            };
            let mut v = [0f32; 4];
            for (j, x) in v.iter_mut().enumerate() {
                let j = j as u64;
                let bits = if odd { (w(j) >> 16) | (w(j + 1) << 16) } else { w(j) };
                *x = f32::from_bits(bits);
            }
            // SAFETY: to is a multiple of 8 elements (ld and c0 are), and to + 8 ≤ r·ld + cols ≤
            // rows·ld: a whole, 16-byte aligned unit inside the row's first `cols` elements.
            unsafe { out4.set4((to / 2) as usize, Float4(v)) };
        } else {
            let n = (u64::from(cols) - c0).min(8);
            for j in 0..n {
                // SAFETY: c0 + j < cols: element e + j < rows·cols of the source, to + j < rows·ld.
                unsafe { out.set((to + j) as usize, elems.get((e + j) as usize)) };
            }
        }
        i += stride;
    }
}

/// [`pad_b16`] for rows of whole `U`-element units on both sides (`U` = 8: 16-byte units, 4: 8-byte
/// ones, 2: 4-byte ones; `cols` and `ld` multiples of `U`, both bases aligned to a unit): the threads of the
/// grid take the `rows · cols / U` units in turn (a 1-D grid-stride loop over the launch's blocks and
/// threads, whatever their shape), one vector load and one vector store each. Element by element
/// (2-byte accesses) the pack moved a third of the copy rate; the operands the TMA kernels read
/// packed (a 3000 × 3000 BF16 matrix off a 32-byte sector, a weight with N = 11340) are megabytes
/// (6448 × 10074, rows of an even length: 191 µs element by element, 4-byte units below).
/// Bits move unchanged (through `f32` registers, with no arithmetic).
///
/// # Safety
/// As [`pad_b16`], with `cols % U == 0`, `ld % U == 0` and both pointers aligned to `2·U` bytes.
#[inline(always)]
unsafe fn pad_b16_units<const U: u32>(src: *const u16, dst: *mut u16, rows: u32, cols: u32, ld: u32) {
    const { assert!(U == 8 || U == 4 || U == 2) };
    let (units, ld_units, floats) = (u64::from(cols / U), u64::from(ld / U), u64::from(U / 2));
    let total = u64::from(rows) * units;
    // SAFETY: the caller's lengths, in floats (two 16-bit elements each): rows·cols/2 and rows·ld/2.
    let (src, dst) = unsafe {
        (
            View::from_const(src.cast::<f32>(), (total * floats) as usize),
            View::new(dst.cast::<f32>(), (u64::from(rows) * ld_units * floats) as usize),
        )
    };
    let threads = BLOCK.0 * BLOCK.1;
    let block = u64::from(block_idx_y()) * u64::from(grid_dim_x()) + u64::from(block_idx_x());
    let stride = u64::from(grid_dim_x()) * u64::from(grid_dim_y()) * u64::from(threads);
    let mut i = block * u64::from(threads) + u64::from(thread_idx_y() * BLOCK.0 + thread_idx_x());
    while i < total {
        let (r, u) = (i / units, i % units);
        let (from, to) = ((i * floats) as usize, ((r * ld_units + u) * floats) as usize);
        // SAFETY: i < rows·cols/U, so the unit lies inside src; (r·ld_units + u + 1)·floats ≤ rows·ld/2
        // as u < units ≤ ld_units; both indices are multiples of a unit from unit-aligned bases.
        unsafe {
            if U == 8 {
                dst.set4(to, src.get4(from))
            } else if U == 4 {
                dst.set2(to, src.get2(from))
            } else {
                dst.set(to, src.get(from))
            }
        }
        i += stride;
    }
}

kernel! {
    /// Copies an `f32` matrix into another row layout, zero-filling around it: for every
    /// `(r, c) < (out_rows, out_cols)`, `dst[r·dst_ld + c] = src[r·src_ld + c]` where `(r, c) <
    /// (rows, cols)`, and `0.0` elsewhere.
    ///
    /// **What it is for**: FP32 `Auto`'s unaligned path. The FP32 kernels take their 16-byte paths only
    /// where N and K are multiples of 4; for a shape that is not, the host copies `A` and `B` into
    /// operands with K and N rounded up to 4 — the zeros add nothing to any product — runs the kernel on
    /// them, and crops `C`'s padded rows back to N with the same kernel (`out_cols = cols`).
    ///
    /// **Thread mapping**: the pack walk's tiles (block `(x, y)` takes the `TILE × TILE` output tiles
    /// `(y + i·gridDim.y, x + j·gridDim.x)`); thread `x` of a warp moves column `c0 + x` of a row, so
    /// reads and writes go along rows, coalesced. No shared memory, no barrier.
    ///
    /// # Safety
    /// `cols ≤ src_ld`, `out_cols ≤ dst_ld`; `src` is valid for `(rows-1)·src_ld + cols` elements and
    /// `dst` for `(out_rows-1)·dst_ld + out_cols` (when the dimensions are non-zero), not overlapping;
    /// the launch has [`BLOCK`] threads (any grid).
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn copy_padded_f32(src: *const f32, src_ld: u32, rows: u32, cols: u32, dst: *mut f32, dst_ld: u32, out_rows: u32, out_cols: u32) {
        let extent = |rows: u32, cols: u32, ld: u32| if rows == 0 || cols == 0 { 0 } else { (rows as usize - 1) * ld as usize + cols as usize };
        // SAFETY: the caller's lengths.
        let (src, dst) = unsafe { (View::from_const(src, extent(rows, cols, src_ld)), View::new(dst, extent(out_rows, out_cols, dst_ld))) };
        let (tx, ty) = (thread_idx_x(), thread_idx_y());
        let (tiles_r, tiles_c) = (out_rows.div_ceil(TILE), out_cols.div_ceil(TILE));
        let mut tr = block_idx_y();
        while tr < tiles_r {
            let mut tc = block_idx_x();
            while tc < tiles_c {
                let c = tc * TILE + tx;
                let mut r = tr * TILE + ty;
                while r < (tr + 1) * TILE {
                    if r < out_rows && c < out_cols {
                        // SAFETY: r < rows and c < cols: r·src_ld + c < (rows-1)·src_ld + cols.
                        let v = if r < rows && c < cols { unsafe { src.get(r as usize * src_ld as usize + c as usize) } } else { 0.0 };
                        // SAFETY: r < out_rows, c < out_cols: inside dst's extent.
                        unsafe { dst.set(r as usize * dst_ld as usize + c as usize, v) };
                    }
                    r += ROWS;
                }
                tc += grid_dim_x();
            }
            tr += grid_dim_y();
        }
    }
}
