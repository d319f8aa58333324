//! Kernel 13: the tensor-core pipeline — multi-stage `cp.async`, XOR-swizzled tiles, large warp tiles.
//!
//! **What it fixes in kernel 12**:
//! - *latency*: kernel 12 waits for each K-step's tiles before any `mma`. Here `S` stages are in
//!   flight: while the warps compute tile `t`, tiles `t + 1 .. t + S - 1` load (`cp.async` groups,
//!   `cp.async.wait_group S - 2`), with one barrier per K-step;
//! - *bank conflicts*: chunk `c` of row `r` is stored at `c ^ swizzle(r)`, so the 8 rows one
//!   `ldmatrix` phase reads (same logical chunk) fall in 8 distinct 16-byte bank groups: `A` rows of
//!   64 bytes XOR with `(r / 2) % 4`, `B` rows XOR with `k % 8` (TF32's B loads: `2·(k % 4)`);
//! - *reuse*: 64×64 warp tiles (4×8 `mma`s per K-slice from 4 A and 8 B fragments: 2.7 `mma`s per
//!   fragment load, against 1.3 in kernel 12), 128×256 or 128×128 block tiles (global traffic
//!   `M·N·K·(1/BN + 1/BM)` elements).
//!
//! **Tiling**: see each entry; threads `32·warps`, shared memory `S·(BM·BK + BK·BN)` elements.
//!
//! **Barriers**: one per K-step, after the wait (see `mma_tile::mma_gemm`).
//!
//! Measurements: `docs/ladder/k11-k13-tensor-cores.md`.

mma_entry!(matmul_mma_pipe_bf16_128x256, MMA_PIPE_BF16_128X256, Bf16, u16, 128 x 256 x 32, warps 2 x 4, stages 4, swizzle true,
    "Kernel 13 on BF16 inputs, `f32` output: 128×256×32 block tile, 8 warps of 64×64, 4 stages (96 KiB).");
mma_entry!(matmul_mma_pipe_f16_128x256, MMA_PIPE_F16_128X256, F16, u16, 128 x 256 x 32, warps 2 x 4, stages 4, swizzle true,
    "Kernel 13 on FP16 inputs, `f32` output: 128×256×32 block tile, 8 warps of 64×64, 4 stages (96 KiB).");
mma_entry!(matmul_mma_pipe_bf16_128x128, MMA_PIPE_BF16_128X128, Bf16, u16, 128 x 128 x 32, warps 2 x 2, stages 4, swizzle true,
    "Kernel 13 on BF16 inputs, `f32` output: 128×128×32 block tile, 4 warps of 64×64, 4 stages (64 KiB): \
     twice the blocks of the 128×256 tile, for outputs that give too few of those.");
mma_entry!(matmul_mma_pipe_f16_128x128, MMA_PIPE_F16_128X128, F16, u16, 128 x 128 x 32, warps 2 x 2, stages 4, swizzle true,
    "Kernel 13 on FP16 inputs, `f32` output: 128×128×32 block tile, 4 warps of 64×64, 4 stages (64 KiB).");
mma_entry!(matmul_mma_pipe_tf32_128x128, MMA_PIPE_TF32_128X128, Tf32, f32, 128 x 128 x 32, warps 2 x 2, stages 3, swizzle true,
    "Kernel 13 in TF32 on `f32` inputs, `f32` output: 128×128×32 block tile, 4 warps of 64×64, 3 stages \
     (99 KiB with B's row padding), 2 blocks per SM by shared memory and registers. (8 warps of 64×32 \
     under a 128-register bound ran 0–10 % slower once B's loads went to padded rows.)");
