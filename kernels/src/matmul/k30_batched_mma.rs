//! Kernel 30: kernel 13's tensor-core pipeline over a batch — `C_i = A_i·B_i` for every matrix `i`,
//! one launch, BF16 or FP16 on `mma.sync`.
//!
//! **What it fixes in kernel 26** (the persistent TMA walk over a batch's tiles): on small matrices
//! each SM's walk is a few tiles of one or two K-steps, every one waiting for its stages to arrive
//! and for its epilogue to leave before the next starts — 256 products of 128³ took 28 µs on the
//! H200 where cuBLAS's strided-batched GEMM takes 8 (`docs/results/2026-12-05-fused-wide`). Here, as
//! kernel 28 does for FP32, `blockIdx.z` picks the matrix and each block runs kernel 13's tile on it:
//! a block per tile, two resident per SM, so one block's stores overlap another's loads. It reads
//! its operands in place (`cp.async`), so K and N need no alignment (kernel 26's TMA needs multiples
//! of 8), and it runs on any GPU with `mma.sync` (sm_80 on), not only Hopper. With a table of
//! addresses instead of strides it runs a batch of pointers.
//!
//! **The store**: small matrices are mostly their `f32` output (256 × 128³ BF16 reads 16.8 MB and
//! writes as much). Kernel 13 stores its fragments where they lie — 8 bytes per lane, 8 rows apart,
//! about 1 TB/s over the GPU (`select::tuning::TC_STORE_GB_PER_S`); here the tile goes through the
//! drained pipeline's shared memory (`mma_tile::store_staged`) and leaves in whole rows, 16 bytes
//! per lane where `C`'s rows allow.
//!
//! **A 16-bit `C`** (`out`: BF16 or FP16, as `torch.bmm` writes): each lane rounds its pairs of
//! adjacent sums into one word as it stages them (`mma_tile::store_staged_half`), so the staging
//! tile is half the `f32` one and the whole block's fits the drained stages at once; rows leave 8
//! bytes a thread. Half the bytes of an `f32` `C`, which is most of a small product's traffic.
//!
//! **Tiling**: kernel 13's (and kernel 20's 64-row tile, unsplit); see each entry. ptxas (sm_90):
//! 255 registers on 128×128 (two blocks per SM), 128 on 64×128, no spills.
//!
//! Measurements: `docs/ladder/k30-batched-mma.md`.

mma_entry!(matmul_batched_mma_bf16_128x128, BATCHED_MMA_BF16_128X128, Bf16, u16, 128 x 128 x 32, warps 2 x 2, stages 4, swizzle true, batched,
    "Kernel 30 on BF16 inputs, `f32`, BF16 or FP16 output (`out`): kernel 13's 128×128×32 tile over a batch (`blockIdx.z` the matrix).");
mma_entry!(matmul_batched_mma_f16_128x128, BATCHED_MMA_F16_128X128, F16, u16, 128 x 128 x 32, warps 2 x 2, stages 4, swizzle true, batched,
    "Kernel 30 on FP16 inputs, `f32`, BF16 or FP16 output (`out`): kernel 13's 128×128×32 tile over a batch.");
mma_entry!(matmul_batched_mma_bf16_64x128, BATCHED_MMA_BF16_64X128, Bf16, u16, 64 x 128 x 32, warps 2 x 2, stages 4, swizzle true, batched,
    "Kernel 30 on BF16 inputs, `f32`, BF16 or FP16 output (`out`): kernel 20's 64×128×32 tile (unsplit) over a batch — matrices of at most 64 rows, \
     twice the blocks of the 128-row tile.");
mma_entry!(matmul_batched_mma_f16_64x128, BATCHED_MMA_F16_64X128, F16, u16, 64 x 128 x 32, warps 2 x 2, stages 4, swizzle true, batched,
    "Kernel 30 on FP16 inputs, `f32`, BF16 or FP16 output (`out`): kernel 20's 64×128×32 tile (unsplit) over a batch.");
