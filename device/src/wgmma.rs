//! Hopper warpgroup MMA (`wgmma.mma_async`, sm_90a): a warpgroup (4 warps, 128 threads) multiplies
//! operands that the tensor core reads straight from shared memory, described by 64-bit matrix
//! descriptors, asynchronously. Each PTX instruction is one wrapper (core has no intrinsics for them).
//!
//! **Shared layouts** (128-byte swizzle, the one layout these kernels use): a tile is made of
//! 1024-byte atoms of 8 rows × 128 bytes, aligned to 1024 bytes; the 16-byte chunk `c` of atom row
//! `r` is stored at chunk `c ^ r`. Equivalently, the hardware XORs address bits 4–6 with bits 7–9
//! ([`swizzle_sw128`]); descriptors name *unswizzled* addresses and the hardware applies it.
//! - K-major (A, `M × K` row-major, 64 bf16/f16 of K per row): row `m` at `(m / 8)·SBO + (m % 8)·128`,
//!   K advances along the row; the `k16` slice `s` starts `32·s` bytes in. SBO = 1024.
//! - N-major (B, `K × N` row-major, BF16/FP16 only): N-blocks of 64 elements (128 bytes); within
//!   one, K-row `k` at `(k / 8)·SBO + (k % 8)·128`; N-blocks `LBO` bytes apart. SBO = 1024, LBO = the
//!   N-block's size.
//! - TF32 (32 elements of K per 128-byte row) is K-major for both operands: B is given as `Bᵀ`.
//!
//! **Accumulators** (`f32`, `m64nN`): warp `w` of the warpgroup owns rows `16w .. 16w + 16`; lane
//! `(g, t) = (lane / 4, lane % 4)` holds, for each 8-column block `j`, `(16w + g, 8j + 2t)`,
//! `(16w + g, 8j + 2t + 1)`, `(16w + g + 8, 8j + 2t)`, `(16w + g + 8, 8j + 2t + 1)` as
//! `acc[4j .. 4j + 4]` ([`acc_position`]).
//!
//! **Ordering**: shared-memory writes (`cp.async`, `st.shared`) reach the tensor core's async proxy
//! only after [`fence_proxy_async`]; [`fence`] orders this thread's accumulator registers before the
//! first `wgmma`; [`commit_group`] closes a batch and [`wait_group`] waits for batches to complete.
//!
//! The host build (the CPU executor) performs each `wgmma` at once, per thread, from the block's
//! shared memory through the same descriptor and swizzle decoding, which is one legal schedule.

/// Bytes of one 128-byte-swizzle atom (8 rows × 128 bytes); tiles are aligned to it.
pub const SW128_ATOM_BYTES: u32 = 1024;

/// The 128-byte swizzle of a shared-memory byte address: bits 4–6 XOR bits 7–9.
#[inline(always)]
pub const fn swizzle_sw128(addr: u32) -> u32 {
    addr ^ (((addr >> 7) & 7) << 4)
}

/// The matrix descriptor of a 128-byte-swizzled shared tile starting at the (unswizzled) shared
/// address `addr`, with leading and stride byte offsets `lbo`, `sbo` (multiples of 16; see the
/// module documentation for what they span). Fields: start `addr >> 4` (bits 0–13), `lbo >> 4`
/// (16–29), `sbo >> 4` (32–45), base offset 0 (atoms 1024-byte aligned), swizzle mode 1 = 128-byte
/// (bits 62–63).
#[inline(always)]
pub const fn descriptor_sw128(addr: u32, lbo: u32, sbo: u32) -> u64 {
    (((addr & 0x3_FFFF) >> 4) as u64) | ((((lbo >> 4) & 0x3FFF) as u64) << 16) | ((((sbo >> 4) & 0x3FFF) as u64) << 32) | (1u64 << 62)
}

/// `(row, column)` of accumulator `i` of thread `tid` (0..128 within its warpgroup) in the 64×N result
/// of a `wgmma` (`i < N / 2`).
#[inline(always)]
pub const fn acc_position(tid: u32, i: u32) -> (u32, u32) {
    let (warp, lane) = (tid / 32, tid % 32);
    let (g, t) = (lane / 4, lane % 4);
    (16 * warp + g + 8 * ((i % 4) / 2), 8 * (i / 4) + 2 * t + i % 2)
}

/// `(row, k)` of word `i` (0..4) of thread `tid`'s (0..128 within its warpgroup) fragment of a 64×8
/// TF32 A operand from registers: warp `w` holds rows `16w .. 16w + 16`; lane `(g, t)` holds `(g, t)`,
/// `(g + 8, t)`, `(g, t + 4)`, `(g + 8, t + 4)` of them — per warp the A fragment of `mma.m16n8k8`,
/// which `ldmatrix.x4` loads from four 8-row × 16-byte matrices (rows 0–7 and 8–15 of K 0–3, then of
/// K 4–7).
#[inline(always)]
pub const fn a_fragment_position(tid: u32, i: u32) -> (u32, u32) {
    let (warp, lane) = (tid / 32, tid % 32);
    (16 * warp + lane / 4 + 8 * (i % 2), lane % 4 + 4 * (i / 2))
}

/// `wgmma.fence.sync.aligned`: orders this warpgroup's earlier register accesses to the
/// accumulators before the `wgmma`s that follow.
///
/// # Safety
/// Warpgroup-collective (all 128 threads, converged).
#[inline(always)]
pub unsafe fn fence() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no operands; the caller's contract makes it warpgroup-uniform.
    unsafe {
        core::arch::asm!("wgmma.fence.sync.aligned;", options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    converge("wgmma.fence.sync.aligned");
}

/// `wgmma.commit_group.sync.aligned`: closes the `wgmma`s issued since the last commit into a group.
///
/// # Safety
/// Warpgroup-collective (all 128 threads, converged).
#[inline(always)]
pub unsafe fn commit_group() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no operands; the caller's contract makes it warpgroup-uniform.
    unsafe {
        core::arch::asm!("wgmma.commit_group.sync.aligned;", options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    converge("wgmma.commit_group.sync.aligned");
}

/// `wgmma.wait_group.sync.aligned n`: waits until at most `n` of this warpgroup's committed groups
/// are pending; their accumulators may then be read and their shared operands overwritten. `n` is
/// an immediate: a constant after inlining; `n > 1` waits for all but one.
///
/// # Safety
/// Warpgroup-collective (all 128 threads, converged).
#[inline(always)]
pub unsafe fn wait_group(n: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: immediates only; a memory clobber, so no accumulator or shared access moves above it.
    unsafe {
        match n {
            0 => core::arch::asm!("wgmma.wait_group.sync.aligned 0;", options(nostack, preserves_flags)),
            _ => core::arch::asm!("wgmma.wait_group.sync.aligned 1;", options(nostack, preserves_flags)),
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = n;
        converge("wgmma.wait_group.sync.aligned");
    }
}

/// An accumulator `x` read after [`wait_group`], through a `mov` that the compiler keeps in program
/// order (an `asm` with side effects; host: `x`). Register-only uses of the accumulators — LLVM
/// packing a pair into one 64-bit register for a vector store — carry no memory dependence on the
/// wait, so LLVM may hoist them above it, into the `wgmma` pipeline, and ptxas then serialises every
/// `wgmma` of the kernel (C7514; measured 10 % slower at 8192³). Reads through this stay below.
#[inline(always)]
pub fn settled(x: f32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let y: f32;
        // SAFETY: a register move; not `pure`, so it is not reordered with the wait's `asm`.
        unsafe { core::arch::asm!("mov.b32 {y}, {x};", x = in(reg32) x, y = out(reg32) y, options(nomem, nostack, preserves_flags)) };
        y
    }
    #[cfg(not(target_arch = "nvptx64"))]
    x
}

/// The host model of `.sync.aligned`: the 32 lanes of the warp meet here (a warp exchange), so no
/// lane runs ahead of the others past the instruction — as on the GPU, where the warp executes it
/// converged — and a lane that skips it is reported as a divergent warp.
#[cfg(not(target_arch = "nvptx64"))]
fn converge(op: &'static str) {
    let _ = super::host::warp_exchange(op, [0; super::host::LANE_WORDS]);
}

/// `fence.proxy.async.shared::cta`: makes this thread's earlier shared-memory writes (`st.shared`,
/// completed `cp.async`) visible to the async proxy the tensor core reads through. Each writer fences
/// its own writes, before the barrier that precedes the `wgmma`.
#[inline(always)]
pub fn fence_proxy_async() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no operands; a memory clobber.
    unsafe {
        core::arch::asm!("fence.proxy.async.shared::cta;", options(nostack, preserves_flags))
    }
}

/// Declares one `wgmma.mma_async` wrapper: on the GPU the instruction `$instr` with the accumulator
/// array's `$len` registers listed (`$regs`: operand name = index; the first separately, so the
/// list joins without a trailing comma), `p` (scale-d) from `accumulate`, unit scales and, for 16-bit
/// types, the transpose flags `$trans`; on the host the emulation with operand format `$format` and
/// element decoder `$value`. A is a descriptor (`u64`), or with `registers` before the name this
/// thread's four-word fragment of A (see [`a_fragment_position`]); both forms share one body (`@form`).
macro_rules! wgmma_op {
    (
        $(#[$doc:meta])*
        $name:ident, $instr:literal, $trans:literal, $len:literal, $format:expr, $value:expr,
        [$d0:ident = $i0:literal $(, $d:ident = $i:literal)*]
    ) => {
        wgmma_op!(@form $(#[$doc])* $name, $instr, $trans, $len, $format, $value, [$d0 = $i0 $(, $d = $i)*],
            a: u64, "{a}", [a = in(reg64) a,], host_impl::mma,
            "Host build: this thread's results, each an `f64` sum of exact products read through the \
             descriptors (with the swizzle), rounded once to `f32`; every operand byte is checked to lie \
             in the block's shared memory.");
    };
    (
        $(#[$doc:meta])*
        registers $name:ident, $instr:literal, $len:literal, $format:expr, $value:expr,
        [$d0:ident = $i0:literal $(, $d:ident = $i:literal)*]
    ) => {
        wgmma_op!(@form $(#[$doc])* $name, $instr, "", $len, $format, $value, [$d0 = $i0 $(, $d = $i)*],
            a: [u32; 4], "{{{a0}, {a1}, {a2}, {a3}}}",
            [a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],],
            host_impl::mma_regs,
            "Host build: the warp exchanges its fragments (so all 32 lanes must call it, as on the GPU), \
             then each thread's results as the descriptor form's, A read from the fragments.");
    };
    (
        @form $(#[$doc:meta])* $name:ident, $instr:literal, $trans:literal, $len:literal, $format:expr, $value:expr,
        [$d0:ident = $i0:literal $(, $d:ident = $i:literal)*],
        $a:ident: $a_ty:ty, $a_asm:literal, [$($a_op:tt)*], $host:path, $host_doc:literal
    ) => {
        $(#[$doc])*
        #[cfg(target_arch = "nvptx64")]
        #[inline(always)]
        pub unsafe fn $name(acc: &mut [f32; $len], $a: $a_ty, b: u64, accumulate: bool) {
            let scale_d = accumulate as u32;
            // SAFETY: register and descriptor operands; what the instruction reads asynchronously (B's
            // shared memory, A's shared memory or registers) the caller's contract orders. Not `pure`:
            // a warpgroup-collective.
            unsafe {
                core::arch::asm!(
                    "{{ .reg .pred p; setp.ne.b32 p, {scale_d}, 0;",
                    concat!(
                        "wgmma.mma_async.sync.aligned.", $instr, " {{{", stringify!($d0), "}" $(, ", {", stringify!($d), "}")*,
                        "}}, ", $a_asm, ", {b}, p, 1, 1", $trans, "; }}"
                    ),
                    $d0 = inout(reg32) acc[$i0],
                    $($d = inout(reg32) acc[$i],)*
                    $($a_op)*
                    b = in(reg64) b,
                    scale_d = in(reg32) scale_d,
                    options(nostack, preserves_flags)
                );
            }
        }

        $(#[$doc])*
        ///
        #[doc = $host_doc]
        #[cfg(not(target_arch = "nvptx64"))]
        pub unsafe fn $name(acc: &mut [f32; $len], $a: $a_ty, b: u64, accumulate: bool) {
            $host(acc, $a, b, accumulate, $format, $value)
        }
    };
}

wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16`: `acc += A·B` (or `acc = A·B` when
    /// `!accumulate`) on a 64×128×16 tile, A (64×16, K-major) and B (16×128, N-major) read from shared
    /// memory through the descriptors `a` and `b` ([`descriptor_sw128`]); `acc` is this thread's part
    /// of the 64×128 `f32` result ([`acc_position`]). Asynchronous: complete after [`commit_group`]
    /// and [`wait_group`].
    ///
    /// # Safety
    /// Warpgroup-collective: the 128 threads of an aligned warpgroup (warps `4w .. 4w + 4`) call it
    /// together, converged, after [`fence`]; `a` and `b` describe [`SW128_ATOM_BYTES`]-aligned
    /// 128-byte-swizzled tiles inside this block's shared memory, written before a
    /// [`fence_proxy_async`] and a barrier. `acc` may not be read before [`wait_group`] covers it.
    mma_m64n128k16_bf16, "m64n128k16.f32.bf16.bf16", ", 0, 1", 64, host_impl::HALF, host_impl::bf16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16`: as [`mma_m64n128k16_bf16`] on FP16.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n128k16_f16, "m64n128k16.f32.f16.f16", ", 0, 1", 64, host_impl::HALF, host_impl::f16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16`: as [`mma_m64n128k16_bf16`] on a
    /// 64×192×16 tile (B three 64-column blocks of the swizzled layout).
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n192k16_bf16, "m64n192k16.f32.bf16.bf16", ", 0, 1", 96, host_impl::HALF, host_impl::bf16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n192k16.f32.f16.f16`: as [`mma_m64n192k16_bf16`] on FP16.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n192k16_f16, "m64n192k16.f32.f16.f16", ", 0, 1", 96, host_impl::HALF, host_impl::f16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n160k16.f32.bf16.bf16`: as [`mma_m64n128k16_bf16`] on a
    /// 64×160×16 tile (B 2 whole 64-column blocks of the swizzled layout and the first 32 columns of
    /// one more: the tile's last block is loaded whole, its columns past 160 unread).
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n160k16_bf16, "m64n160k16.f32.bf16.bf16", ", 0, 1", 80, host_impl::HALF, host_impl::bf16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n160k16.f32.f16.f16`: as [`mma_m64n160k16_bf16`] on FP16.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n160k16_f16, "m64n160k16.f32.f16.f16", ", 0, 1", 80, host_impl::HALF, host_impl::f16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n224k16.f32.bf16.bf16`: as [`mma_m64n128k16_bf16`] on a
    /// 64×224×16 tile (B 3 whole 64-column blocks of the swizzled layout and the first 32 columns of
    /// one more: the tile's last block is loaded whole, its columns past 224 unread).
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n224k16_bf16, "m64n224k16.f32.bf16.bf16", ", 0, 1", 112, host_impl::HALF, host_impl::bf16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95, d96 = 96, d97 = 97, d98 = 98, d99 = 99, d100 = 100, d101 = 101, d102 = 102, d103 = 103, d104 = 104, d105 = 105, d106 = 106, d107 = 107, d108 = 108, d109 = 109, d110 = 110, d111 = 111]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n224k16.f32.f16.f16`: as [`mma_m64n224k16_bf16`] on FP16.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n224k16_f16, "m64n224k16.f32.f16.f16", ", 0, 1", 112, host_impl::HALF, host_impl::f16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95, d96 = 96, d97 = 97, d98 = 98, d99 = 99, d100 = 100, d101 = 101, d102 = 102, d103 = 103, d104 = 104, d105 = 105, d106 = 106, d107 = 107, d108 = 108, d109 = 109, d110 = 110, d111 = 111]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16`: as [`mma_m64n128k16_bf16`] on a
    /// 64×256×16 tile.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n256k16_bf16, "m64n256k16.f32.bf16.bf16", ", 0, 1", 128, host_impl::HALF, host_impl::bf16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95, d96 = 96, d97 = 97, d98 = 98, d99 = 99, d100 = 100, d101 = 101, d102 = 102, d103 = 103, d104 = 104, d105 = 105, d106 = 106, d107 = 107, d108 = 108, d109 = 109, d110 = 110, d111 = 111, d112 = 112, d113 = 113, d114 = 114, d115 = 115, d116 = 116, d117 = 117, d118 = 118, d119 = 119, d120 = 120, d121 = 121, d122 = 122, d123 = 123, d124 = 124, d125 = 125, d126 = 126, d127 = 127]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16`: as [`mma_m64n256k16_bf16`] on FP16.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n256k16_f16, "m64n256k16.f32.f16.f16", ", 0, 1", 128, host_impl::HALF, host_impl::f16,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95, d96 = 96, d97 = 97, d98 = 98, d99 = 99, d100 = 100, d101 = 101, d102 = 102, d103 = 103, d104 = 104, d105 = 105, d106 = 106, d107 = 107, d108 = 108, d109 = 109, d110 = 110, d111 = 111, d112 = 112, d113 = 113, d114 = 114, d115 = 115, d116 = 116, d117 = 117, d118 = 118, d119 = 119, d120 = 120, d121 = 121, d122 = 122, d123 = 123, d124 = 124, d125 = 125, d126 = 126, d127 = 127]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32`: `acc += A·B` on a 64×256×8 tile of
    /// TF32 operands (the top 19 bits of each `f32` word), A and B both K-major (B given as `Bᵀ`, 256
    /// rows of K: TF32 has no transposed form, so no transpose flags).
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n256k8_tf32, "m64n256k8.f32.tf32.tf32", "", 128, host_impl::TF32, host_impl::tf32,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95, d96 = 96, d97 = 97, d98 = 98, d99 = 99, d100 = 100, d101 = 101, d102 = 102, d103 = 103, d104 = 104, d105 = 105, d106 = 106, d107 = 107, d108 = 108, d109 = 109, d110 = 110, d111 = 111, d112 = 112, d113 = 113, d114 = 114, d115 = 115, d116 = 116, d117 = 117, d118 = 118, d119 = 119, d120 = 120, d121 = 121, d122 = 122, d123 = 123, d124 = 124, d125 = 125, d126 = 126, d127 = 127]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3`: `acc += A·B` on a 64×256×32 tile of
    /// FP8 E4M3 operands, A and B both K-major (B given as `Bᵀ`, 256 rows of K: FP8 has no transposed
    /// form), accumulated by the tensor core in its own reduced-precision FP8 accumulator path.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n256k32_e4m3, "m64n256k32.f32.e4m3.e4m3", "", 128, host_impl::FP8, host_impl::e4m3,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95, d96 = 96, d97 = 97, d98 = 98, d99 = 99, d100 = 100, d101 = 101, d102 = 102, d103 = 103, d104 = 104, d105 = 105, d106 = 106, d107 = 107, d108 = 108, d109 = 109, d110 = 110, d111 = 111, d112 = 112, d113 = 113, d114 = 114, d115 = 115, d116 = 116, d117 = 117, d118 = 118, d119 = 119, d120 = 120, d121 = 121, d122 = 122, d123 = 123, d124 = 124, d125 = 125, d126 = 126, d127 = 127]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n256k32.f32.e5m2.e5m2`: as [`mma_m64n256k32_e4m3`] on FP8 E5M2.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n256k32_e5m2, "m64n256k32.f32.e5m2.e5m2", "", 128, host_impl::FP8, host_impl::e5m2,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95, d96 = 96, d97 = 97, d98 = 98, d99 = 99, d100 = 100, d101 = 101, d102 = 102, d103 = 103, d104 = 104, d105 = 105, d106 = 106, d107 = 107, d108 = 108, d109 = 109, d110 = 110, d111 = 111, d112 = 112, d113 = 113, d114 = 114, d115 = 115, d116 = 116, d117 = 117, d118 = 118, d119 = 119, d120 = 120, d121 = 121, d122 = 122, d123 = 123, d124 = 124, d125 = 125, d126 = 126, d127 = 127]
);

wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3`: as [`mma_m64n256k32_e4m3`] on a
    /// 64×128×32 tile (`Bᵀ` 128 rows of K).
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n128k32_e4m3, "m64n128k32.f32.e4m3.e4m3", "", 64, host_impl::FP8, host_impl::e4m3,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e5m2`: as [`mma_m64n128k32_e4m3`] on FP8 E5M2.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n128k32_e5m2, "m64n128k32.f32.e5m2.e5m2", "", 64, host_impl::FP8, host_impl::e5m2,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63]
);

wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32`: as [`mma_m64n256k8_tf32`] on a
    /// 64×128×8 tile (B given as `Bᵀ`, 128 rows of K).
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`].
    mma_m64n128k8_tf32, "m64n128k8.f32.tf32.tf32", "", 64, host_impl::TF32, host_impl::tf32,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63]
);

wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32` with A from registers: `acc += A·B` on a
    /// 64×256×8 tile, `a` this thread's fragment of A (64×8 TF32 words, [`a_fragment_position`]), B
    /// (`Bᵀ`, K-major) read from shared memory through the descriptor `b`. What lets a kernel round
    /// A on its way into registers (`ldmatrix`, `cvt.rna.tf32.f32`) at no cost in shared-memory traffic.
    ///
    /// # Safety
    /// As [`mma_m64n128k16_bf16`] for B and the warpgroup; `a`'s registers are read asynchronously too,
    /// and ptxas does not keep them for it: they may not be written (not even by the compiler's reuse
    /// of the registers for the next fragment) until [`wait_group`] covers the instruction.
    registers mma_m64n256k8_tf32_regs, "m64n256k8.f32.tf32.tf32", 128, host_impl::TF32, host_impl::tf32,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63, d64 = 64, d65 = 65, d66 = 66, d67 = 67, d68 = 68, d69 = 69, d70 = 70, d71 = 71, d72 = 72, d73 = 73, d74 = 74, d75 = 75, d76 = 76, d77 = 77, d78 = 78, d79 = 79, d80 = 80, d81 = 81, d82 = 82, d83 = 83, d84 = 84, d85 = 85, d86 = 86, d87 = 87, d88 = 88, d89 = 89, d90 = 90, d91 = 91, d92 = 92, d93 = 93, d94 = 94, d95 = 95, d96 = 96, d97 = 97, d98 = 98, d99 = 99, d100 = 100, d101 = 101, d102 = 102, d103 = 103, d104 = 104, d105 = 105, d106 = 106, d107 = 107, d108 = 108, d109 = 109, d110 = 110, d111 = 111, d112 = 112, d113 = 113, d114 = 114, d115 = 115, d116 = 116, d117 = 117, d118 = 118, d119 = 119, d120 = 120, d121 = 121, d122 = 122, d123 = 123, d124 = 124, d125 = 125, d126 = 126, d127 = 127]
);
wgmma_op!(
    /// `wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32` with A from registers: as
    /// [`mma_m64n256k8_tf32_regs`] on a 64×128×8 tile.
    ///
    /// # Safety
    /// As [`mma_m64n256k8_tf32_regs`].
    registers mma_m64n128k8_tf32_regs, "m64n128k8.f32.tf32.tf32", 64, host_impl::TF32, host_impl::tf32,
    [d0 = 0, d1 = 1, d2 = 2, d3 = 3, d4 = 4, d5 = 5, d6 = 6, d7 = 7, d8 = 8, d9 = 9, d10 = 10, d11 = 11, d12 = 12, d13 = 13, d14 = 14, d15 = 15, d16 = 16, d17 = 17, d18 = 18, d19 = 19, d20 = 20, d21 = 21, d22 = 22, d23 = 23, d24 = 24, d25 = 25, d26 = 26, d27 = 27, d28 = 28, d29 = 29, d30 = 30, d31 = 31, d32 = 32, d33 = 33, d34 = 34, d35 = 35, d36 = 36, d37 = 37, d38 = 38, d39 = 39, d40 = 40, d41 = 41, d42 = 42, d43 = 43, d44 = 44, d45 = 45, d46 = 46, d47 = 47, d48 = 48, d49 = 49, d50 = 50, d51 = 51, d52 = 52, d53 = 53, d54 = 54, d55 = 55, d56 = 56, d57 = 57, d58 = 58, d59 = 59, d60 = 60, d61 = 61, d62 = 62, d63 = 63]
);

/// The host side: descriptor decoding and the swizzled addressing of the module documentation.
#[cfg(not(target_arch = "nvptx64"))]
mod host_impl {
    use super::super::{shared, thread};
    use super::{a_fragment_position, acc_position, swizzle_sw128};

    /// The fields of a descriptor: start address, LBO, SBO in bytes; panics (a kernel fault) on a
    /// mode other than the 128-byte swizzle or a non-zero base offset.
    fn decode(desc: u64) -> (u32, u32, u32) {
        if desc >> 62 != 1 || (desc >> 49) & 7 != 0 {
            super::super::host::out_of_bounds(format_args!(
                "wgmma descriptor {desc:#x}: only the 128-byte swizzle with base offset 0 is modelled"
            ));
        }
        let field = |shift: u32| (((desc >> shift) & 0x3FFF) as u32) << 4;
        (field(0), field(16), field(32))
    }

    /// The `bytes`-byte element (1, 2 or 4) at the unswizzled shared address `addr`, as raw bits.
    fn element(addr: u32, bytes: u32) -> u32 {
        let phys = swizzle_sw128(addr) as usize;
        if phys + bytes as usize > shared::dynamic_bytes() || !addr.is_multiple_of(bytes) {
            super::super::host::out_of_bounds(format_args!(
                "wgmma operand at shared byte {phys} outside the block's {} bytes (or misaligned)",
                shared::dynamic_bytes()
            ));
        }
        // SAFETY: inside the block's dynamic shared memory (checked above), aligned.
        unsafe {
            let p = shared::dynamic::<u8>().add(phys);
            match bytes {
                1 => p.read() as u32,
                2 => p.cast::<u16>().read() as u32,
                _ => p.cast::<u32>().read(),
            }
        }
    }

    /// A bf16 bit pattern's value.
    pub(super) fn bf16(bits: u32) -> f64 {
        f32::from_bits(bits << 16) as f64
    }

    /// An f16 bit pattern's value.
    pub(super) fn f16(bits: u32) -> f64 {
        super::super::mma::f16_bits_to_f64(bits as u16)
    }

    /// A TF32 operand's value: the top 19 bits of the word.
    pub(super) fn tf32(bits: u32) -> f64 {
        f32::from_bits(bits & 0xFFFF_E000) as f64
    }

    /// An FP8 E4M3 bit pattern's value.
    pub(super) fn e4m3(bits: u32) -> f64 {
        float8::F8E4M3::from_bits(bits as u8).to_f64()
    }

    /// An FP8 E5M2 bit pattern's value.
    pub(super) fn e5m2(bits: u32) -> f64 {
        float8::F8E5M2::from_bits(bits as u8).to_f64()
    }

    /// The operand format of an instruction: element bytes, K per instruction, B K-major or not.
    #[derive(Clone, Copy)]
    pub(super) struct Format {
        bytes: u32,
        k: u32,
        b_k_major: bool,
    }

    /// BF16/FP16: 2-byte elements, K = 16, B N-major (the transpose flag the kernels set).
    pub(super) const HALF: Format = Format { bytes: 2, k: 16, b_k_major: false };
    /// TF32: 4-byte elements, K = 8, B K-major.
    pub(super) const TF32: Format = Format { bytes: 4, k: 8, b_k_major: true };
    /// FP8 (E4M3, E5M2): 1-byte elements, K = 32, B K-major. The host sums exactly in `f64` and
    /// rounds once: the promoted accumulation, not the tensor core's reduced-precision FP8 path.
    pub(super) const FP8: Format = Format { bytes: 1, k: 32, b_k_major: true };

    /// One thread's part of a `wgmma` with A from registers: the warp's fragments exchanged (A's rows
    /// of this thread's outputs are in its own warp), B through its descriptor as in [`mma`].
    pub(super) fn mma_regs(acc: &mut [f32], a: [u32; 4], b: u64, accumulate: bool, f: Format, value: impl Fn(u32) -> f64) {
        let mut words = [0; super::super::host::LANE_WORDS];
        words[..4].copy_from_slice(&a);
        let (lane, fragments) = super::super::host::warp_exchange("wgmma (A from registers)", words);
        let tid = thread::thread_idx_x() % 128;
        let warp = tid / 32;
        debug_assert_eq!(lane as u32, tid % 32);
        // Element (row, k) of the warp's 16 rows: the lane and word a_fragment_position puts it in.
        let mut rows = [[0u32; 8]; 16];
        for (l, words) in fragments.iter().enumerate() {
            for i in 0..4 {
                let (row, k) = a_fragment_position(32 * warp + l as u32, i);
                rows[(row - 16 * warp) as usize][k as usize] = words[i as usize];
            }
        }
        let a_at = |m: u32, k: u32| value(rows[(m - 16 * warp) as usize][k as usize]);
        product(acc, b, accumulate, f, &value, a_at);
    }

    /// One thread's part of a `wgmma`: its accumulators from the operands the descriptors name.
    pub(super) fn mma(acc: &mut [f32], a: u64, b: u64, accumulate: bool, f: Format, value: impl Fn(u32) -> f64) {
        let (a0, _, a_sbo) = decode(a);
        // Host shared addresses are offsets from the block's shared base (see `SharedPtr`). A is
        // K-major: row m at (m / 8)·SBO + (m % 8)·128.
        let a_at = |m: u32, k: u32| value(element(a0 + (m / 8) * a_sbo + (m % 8) * 128 + f.bytes * k, f.bytes));
        product(acc, b, accumulate, f, &value, a_at);
    }

    /// This thread's accumulators of `A·B` (plus `acc` when `accumulate`), A's elements from `a_at`,
    /// B's through the descriptor `b`: K-major by its row n as A; N-major: K-row k at
    /// (k / 8)·SBO + (k % 8)·128 within 128-byte blocks of N, LBO apart.
    fn product(acc: &mut [f32], b: u64, accumulate: bool, f: Format, value: &impl Fn(u32) -> f64, a_at: impl Fn(u32, u32) -> f64) {
        let (b0, b_lbo, b_sbo) = decode(b);
        let per_row = 128 / f.bytes;
        let b_at = |k: u32, n: u32| {
            let addr = if f.b_k_major {
                b0 + (n / 8) * b_sbo + (n % 8) * 128 + f.bytes * k
            } else {
                b0 + (n / per_row) * b_lbo + (k / 8) * b_sbo + (k % 8) * 128 + f.bytes * (n % per_row)
            };
            value(element(addr, f.bytes))
        };
        let tid = thread::thread_idx_x() % 128;
        for (i, out) in acc.iter_mut().enumerate() {
            let (row, col) = acc_position(tid, i as u32);
            let start = if accumulate { *out as f64 } else { 0.0 };
            *out = (0..f.k).fold(start, |s, k| s + a_at(row, k) * b_at(k, col)) as f32;
        }
    }
}
