//! Kernel 25: a few rows against a large `B` with K split over the warps of a block — no atomics,
//! no zeroed `C`, one launch.
//!
//! **What it fixes in kernel 20**: decoding (`1..32 × 4096 × 4096` and the LLM weights) is bound by
//! reading `B` once from DRAM (33.5 MB: 8 µs at the measured 4.19 TB/s). Kernel 20 fills the GPU by
//! splitting K over `gridDim.z`, so its slices add into `C`, which the host zeroes first: a second
//! stream operation and every output added `splits` times, at 1–2 µs on an 8–10 µs product. Here a
//! block owns a 16×32 strip of `C` over the whole K — `N / 32` blocks (128 at N = 4096, one per SM)
//! — and its four warps split each 256-deep K-step between them (64 rows of `B` each); at the end
//! three warps leave their partial tiles in the idle stages and the fourth adds them up and stores.
//!
//! **Tiling**: kernel 13's pipeline ([`mma_gemm`](super::mma_tile::mma_gemm) with `WARPS_K = 4`):
//! stages of `A [16][256]` (XOR-swizzled) and `B [256][32]` (64-byte rows, which the swizzle's 8
//! chunks do not span: `ldmatrix` reads them with 4-way bank conflicts, a few instructions per
//! 24 KiB stage of a memory-bound kernel). Two depths: 4 stages (96 KiB, 2 blocks per SM: three
//! stages in flight when N leaves one block per SM) and 2 stages (48 KiB, 4 blocks per SM: all 448
//! strips of N = 14336 resident at once, each with one stage in flight).
//!
//! **Rows**: M past 16 takes `⌈M/16⌉` block rows, each reading the strip of `B` again (from L2 when
//! the rows run together).
//!
//! Measurements: `docs/ladder/k25-warp-split-k.md`.

mma_entry!(matmul_warpk_bf16_16x32_s4, WARPK_BF16_16X32_S4, Bf16, u16, 16 x 32 x 256, warps 1 x 1 x 4, stages 4, swizzle true,
    "Kernel 25 on BF16 inputs, `f32` output: 16×32 strips over the whole K, 256-deep steps split over 4 warps, 4 stages (96 KiB).");
mma_entry!(matmul_warpk_f16_16x32_s4, WARPK_F16_16X32_S4, F16, u16, 16 x 32 x 256, warps 1 x 1 x 4, stages 4, swizzle true,
    "Kernel 25 on FP16 inputs, `f32` output: 16×32 strips, 4 warps along K, 4 stages (96 KiB).");
mma_entry!(matmul_warpk_bf16_16x32_s2, WARPK_BF16_16X32_S2, Bf16, u16, 16 x 32 x 256, warps 1 x 1 x 4, stages 2, swizzle true,
    "Kernel 25 on BF16 inputs, `f32` output: 16×32 strips, 4 warps along K, 2 stages (48 KiB: 4 blocks per SM).");
mma_entry!(matmul_warpk_f16_16x32_s2, WARPK_F16_16X32_S2, F16, u16, 16 x 32 x 256, warps 1 x 1 x 4, stages 2, swizzle true,
    "Kernel 25 on FP16 inputs, `f32` output: 16×32 strips, 4 warps along K, 2 stages (48 KiB).");
