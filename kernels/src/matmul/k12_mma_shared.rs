//! Kernel 12: tensor cores fed from shared memory — block tiles of `A` and `B` staged once per K-step,
//! fragments formed with `ldmatrix`.
//!
//! **What it fixes in kernel 11**: kernel 11 loads every fragment element from global memory, each
//! by one lane, with no reuse: a 64×64 output region re-reads each element of `A` 8 times and of `B`
//! 4 times, in 2- or 4-byte loads. Here a block of 4 warps stages a 64×32 tile of `A` and a 32×64
//! tile of `B` in shared memory once per K-step (16-byte chunks, `cp.async`), and each warp forms its
//! fragments with `ldmatrix` — one instruction loads a whole 16×16 A fragment (or two 16×8 B
//! fragments, transposed on the way by `.trans`: our `B` rows run along N, the `mma` wants K-pairs)
//! for all 32 lanes. Each warp computes a 32×32 tile (2×4 `mma`s per K-slice) from fragments it loads
//! once, so every fragment feeds 2–4 `mma`s.
//!
//! **Left for kernel 13**: one stage — the warps wait for each tile's loads, with no other work to
//! overlap them; and the tiles are stored unswizzled, so the 8 rows an `ldmatrix` phase reads share
//! bank groups (64-byte rows of `A`: 4-way conflicts; 128-byte rows of `B`: 8-way).
//!
//! **Tiling**: block tile 64×64×32, warps 2×2 of 32×32, 128 threads; shared memory one stage of
//! `A [64][32]` + `B [32][64]` (8 KiB for 16-bit types, 16 KiB for TF32).
//!
//! **Barriers**: after the stage's copies have landed (everyone's tile complete), and after the
//! compute (nobody overwrites a tile another warp still reads).
//!
//! Measurements: `docs/ladder/k11-k13-tensor-cores.md`.

mma_entry!(matmul_mma_shared_bf16, MMA_SHARED_BF16, Bf16, u16, 64 x 64 x 32, warps 2 x 2, stages 1, swizzle false,
    "Kernel 12 on BF16 inputs (raw `u16` bits), `f32` output: 64×64×32 block tile, 4 warps of 32×32, one stage, ldmatrix.");
mma_entry!(matmul_mma_shared_f16, MMA_SHARED_F16, F16, u16, 64 x 64 x 32, warps 2 x 2, stages 1, swizzle false,
    "Kernel 12 on FP16 inputs (raw `u16` bits), `f32` output: 64×64×32 block tile, 4 warps of 32×32, one stage, ldmatrix.");
mma_entry!(matmul_mma_shared_tf32, MMA_SHARED_TF32, Tf32, f32, 64 x 64 x 32, warps 2 x 2, stages 1, swizzle false,
    "Kernel 12 in TF32 on `f32` inputs (rounded to TF32 as the fragments are formed), `f32` output: \
     64×64×32 block tile, 4 warps of 32×32, one stage; A fragments by ldmatrix, B by shared loads.");
