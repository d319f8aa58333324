//! Kernel 28: kernel 8 over a strided batch — `C_i = A_i·B_i` for every matrix `i`, one launch, FP32
//! on the CUDA cores.
//!
//! **Why**: kernel 26 batches the tensor cores' products (BF16, FP16); FP32 products of a batch are
//! as launch-bound one at a time (64 products of 512×512×64 are 64 launches of a few microseconds).
//! Here `blockIdx.z` picks the matrix: each block offsets A, B and `C` by its matrix's strides (0: one
//! matrix shared by all) and runs kernel 8's tile on it, unchanged. The grid is kernel 8's times the
//! batch (`gridDim.z ≤ 65535`). With a table of addresses instead of strides it runs a batch of
//! pointers (matrices anywhere in memory: [`batch_member`](super::batch_member)).
use super::k08_double_buffer::{self, double_buffer};

/// Declares a kernel-28 entry over kernel 8's tile `$bm × $bn × $bk` (its entry's constants), and its
/// by-rows twin.
macro_rules! batched_entry {
    ($name:ident, $twin:ident, $bm:literal, $bn:literal, $bk:literal, wmi $wmi:literal, wni $wni:literal, threads $nt:literal, la $la:literal, lb $lb:literal, unroll $u:literal, $doc:literal) => {
        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            /// For every `i < gridDim.z`, matrix `i`'s operands (`table` null: `a + i·stride_a`, `b +
            /// i·stride_b`, `c + i·stride_c`; else the table's `3·gridDim.z` addresses, A's, B's, then
            /// `C`'s) valid for `m·k`, `k·n` and `m·n` floats, 16-byte aligned, the outputs of different
            /// `i` apart; kernel 8's launch for the tile (its `TileConfig`) with `gridDim.z` matrices.
            #[allow(clippy::too_many_arguments)] // the entry's parameters are its ABI, one per launch argument
            pub unsafe fn $name(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32, stride_a: usize, stride_b: usize, stride_c: usize, table: *const u64) {
                // SAFETY: forwarded contract (the table's addresses), then for this block's matrix.
                unsafe {
                    let (a, b, c) = super::batch_member(a, b, c, (stride_a, stride_b, stride_c), 4, table);
                    double_buffer::<$bm, $bn, $bk, { $bm + 4 }, $wmi, $wni, $nt, $la, $lb, $u, false>(a, b, c, m, n, k)
                }
            }
        }

        kernel! {
            #[doc = concat!("[`", stringify!($name), "`] with its epilogue by rows where N % 4 != 0.")]
            ///
            /// # Safety
            #[doc = concat!("As [`", stringify!($name), "`].")]
            #[allow(clippy::too_many_arguments)] // the entry's parameters are its ABI, one per launch argument
            pub unsafe fn $twin(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32, stride_a: usize, stride_b: usize, stride_c: usize, table: *const u64) {
                // SAFETY: forwarded contract (the table's addresses), then for this block's matrix.
                unsafe {
                    let (a, b, c) = super::batch_member(a, b, c, (stride_a, stride_b, stride_c), 4, table);
                    double_buffer::<$bm, $bn, $bk, { $bm + 4 }, $wmi, $wni, $nt, $la, $lb, $u, true>(a, b, c, m, n, k)
                }
            }
        }
    };
}

/// The launch of [`matmul_batched_dbuf_128x128x16`] per matrix: kernel 8's.
pub const BATCHED_DBUF_128X128X16: crate::launch::TileConfig = k08_double_buffer::DBUF_128X128X16;
/// The launch of [`matmul_batched_dbuf_64x64x16`] per matrix: kernel 8's.
pub const BATCHED_DBUF_64X64X16: crate::launch::TileConfig = k08_double_buffer::DBUF_64X64X16;

batched_entry!(matmul_batched_dbuf_128x128x16, matmul_batched_dbuf_128x128x16_by_rows, 128, 128, 16, wmi 2, wni 2, threads 256, la 2, lb 2, unroll 16,
    "Kernel 28: kernel 8's 128×128×16 tile over a strided batch (`blockIdx.z` the matrix), FP32.");
/// The launch of [`matmul_batched_dbuf_128x256x16`] per matrix: kernel 8's.
pub const BATCHED_DBUF_128X256X16: crate::launch::TileConfig = k08_double_buffer::DBUF_128X256X16;

batched_entry!(matmul_batched_dbuf_128x256x16, matmul_batched_dbuf_128x256x16_by_rows, 128, 256, 16, wmi 2, wni 4, threads 256, la 2, lb 4, unroll 16,
    "Kernel 28: kernel 8's 128×256×16 tile over a strided batch, FP32: large matrices (FP32 `Auto`'s usual tile at 2048³ and up).");
batched_entry!(matmul_batched_dbuf_64x64x16, matmul_batched_dbuf_64x64x16_by_rows, 64, 64, 16, wmi 1, wni 2, threads 128, la 2, lb 2, unroll 16,
    "Kernel 28: kernel 8's 64×64×16 tile over a strided batch, FP32: small matrices, many blocks.");
