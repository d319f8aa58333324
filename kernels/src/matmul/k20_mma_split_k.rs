//! Kernel 20: tensor cores on thin products — kernel 13's pipeline on 16- and 64-row tiles, with K
//! split over `gridDim.z`.
//!
//! **What it fixes**: a product of a few rows against a large `B` (decoding: `1..64 × 4096 × 4096`),
//! a few columns against a large `A` (the 128×32 entries; the 128×64 ones, 16-bit only, for 33–64
//! columns: in TF32 that tile was never the fastest measured), or of a small output over a deep K
//! is bound by reading its operands once, not by the tensor cores. Kernel 13's 128-row tiles waste
//! most of each `mma` on rows that are not there, and its `⌈N/BN⌉ × ⌈M/BM⌉` grid is a handful of
//! blocks; the TMA kernels (15, 16) pay fixed costs (tensor maps, barriers, copies of rows that are
//! not whole 16-byte units) that such products never earn
//! back. Here a 16-row (or 64-row) tile streams `B` through the same `cp.async` stages, and slices of
//! K over `gridDim.z` put enough blocks on the GPU to keep every SM's loads in flight; with more than
//! one slice each adds its tile into the zeroed `C` (one `red.global.add.f32` per output).
//!
//! **Tiling**: see each entry; the body is [`mma_gemm`](super::mma_tile::mma_gemm) with `SPLIT`.
//!
//! **Barriers**: as kernel 13's, one per K-step.
//!
//! Measurements: `docs/ladder/k20-mma-split-k.md`.

mma_entry!(matmul_mma_splitk_bf16_16x128, MMA_SPLITK_BF16_16X128, Bf16, u16, 16 x 128 x 64, warps 1 x 4, stages 4, swizzle true, split_k,
    "Kernel 20 on BF16 inputs, `f32` output: 16×128×64 block tile, 4 warps of 16×32, 4 stages (73 KiB), K over `gridDim.z`.");
mma_entry!(matmul_mma_splitk_f16_16x128, MMA_SPLITK_F16_16X128, F16, u16, 16 x 128 x 64, warps 1 x 4, stages 4, swizzle true, split_k,
    "Kernel 20 on FP16 inputs, `f32` output: 16×128×64 block tile, 4 warps of 16×32, 4 stages (73 KiB), K over `gridDim.z`.");
mma_entry!(matmul_mma_splitk_tf32_16x128, MMA_SPLITK_TF32_16X128, Tf32, f32, 16 x 128 x 32, warps 1 x 4, stages 4, swizzle true, split_k,
    "Kernel 20 in TF32 on `f32` inputs, `f32` output: 16×128×32 block tile, 4 warps of 16×32, 4 stages, K over `gridDim.z`.");
mma_entry!(matmul_mma_splitk_bf16_64x128, MMA_SPLITK_BF16_64X128, Bf16, u16, 64 x 128 x 32, warps 2 x 2, stages 4, swizzle true, split_k,
    "Kernel 20 on BF16 inputs, `f32` output: 64×128×32 block tile, 4 warps of 32×64, 4 stages (48 KiB), K over `gridDim.z`.");
mma_entry!(matmul_mma_splitk_f16_64x128, MMA_SPLITK_F16_64X128, F16, u16, 64 x 128 x 32, warps 2 x 2, stages 4, swizzle true, split_k,
    "Kernel 20 on FP16 inputs, `f32` output: 64×128×32 block tile, 4 warps of 32×64, 4 stages (48 KiB), K over `gridDim.z`.");
mma_entry!(matmul_mma_splitk_tf32_64x128, MMA_SPLITK_TF32_64X128, Tf32, f32, 64 x 128 x 32, warps 2 x 2, stages 3, swizzle true, split_k,
    "Kernel 20 in TF32 on `f32` inputs, `f32` output: 64×128×32 block tile, 4 warps of 32×64, 3 stages, K over `gridDim.z`.");
mma_entry!(matmul_mma_splitk_bf16_128x32, MMA_SPLITK_BF16_128X32, Bf16, u16, 128 x 32 x 64, warps 4 x 1, stages 4, swizzle true, split_k,
    "Kernel 20 on BF16 inputs, `f32` output: 128×32×64 block tile, 4 warps of 32×32, 4 stages (80 KiB), K over `gridDim.z` — products a few columns wide, `A` read once.");
mma_entry!(matmul_mma_splitk_f16_128x32, MMA_SPLITK_F16_128X32, F16, u16, 128 x 32 x 64, warps 4 x 1, stages 4, swizzle true, split_k,
    "Kernel 20 on FP16 inputs, `f32` output: 128×32×64 block tile, 4 warps of 32×32, 4 stages (80 KiB), K over `gridDim.z`.");
mma_entry!(matmul_mma_splitk_tf32_128x32, MMA_SPLITK_TF32_128X32, Tf32, f32, 128 x 32 x 32, warps 4 x 1, stages 4, swizzle true, split_k,
    "Kernel 20 in TF32 on `f32` inputs, `f32` output: 128×32×32 block tile, 4 warps of 32×32, 4 stages, K over `gridDim.z`.");
mma_entry!(matmul_mma_splitk_bf16_128x64, MMA_SPLITK_BF16_128X64, Bf16, u16, 128 x 64 x 64, warps 4 x 2, stages 4, swizzle true, split_k,
    "Kernel 20 on BF16 inputs, `f32` output: 128×64×64 block tile, 8 warps of 32×32, 4 stages, K over `gridDim.z` — products 33–64 columns wide, `A` read once.");
mma_entry!(matmul_mma_splitk_f16_128x64, MMA_SPLITK_F16_128X64, F16, u16, 128 x 64 x 64, warps 4 x 2, stages 4, swizzle true, split_k,
    "Kernel 20 on FP16 inputs, `f32` output: 128×64×64 block tile, 8 warps of 32×32, 4 stages, K over `gridDim.z`.");
