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
    let _ = n;
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

/// `wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16`: `acc += A·B` (or `acc = A·B` when
/// `!accumulate`) on a 64×128×16 tile, A (64×16, K-major) and B (16×128, N-major) read from shared
/// memory through the descriptors `a` and `b` ([`descriptor_sw128`]); `acc` is this thread's part of
/// the 64×128 `f32` result ([`acc_position`]). Asynchronous: complete after [`commit_group`] and
/// [`wait_group`].
///
/// # Safety
/// Warpgroup-collective: the 128 threads of an aligned warpgroup (warps `4w .. 4w + 4`) call it
/// together, converged, after [`fence`]; `a` and `b` describe [`SW128_ATOM_BYTES`]-aligned
/// 128-byte-swizzled tiles inside this block's shared memory, written before a
/// [`fence_proxy_async`] and a barrier. `acc` may not be read before [`wait_group`] covers it.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn mma_m64n128k16_bf16(acc: &mut [f32; 64], a: u64, b: u64, accumulate: bool) {
    let scale_d = accumulate as u32;
    // SAFETY: register and descriptor operands; the shared memory the descriptors name is read
    // asynchronously (the caller's contract orders it). Not `pure`: a warpgroup-collective.
    unsafe {
        core::arch::asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {scale_d}, 0;",
            "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{d0}, {d1}, {d2}, {d3}, {d4}, {d5}, {d6}, {d7}, {d8}, {d9}, {d10}, {d11}, {d12}, {d13}, {d14}, {d15}, {d16}, {d17}, {d18}, {d19}, {d20}, {d21}, {d22}, {d23}, {d24}, {d25}, {d26}, {d27}, {d28}, {d29}, {d30}, {d31}, {d32}, {d33}, {d34}, {d35}, {d36}, {d37}, {d38}, {d39}, {d40}, {d41}, {d42}, {d43}, {d44}, {d45}, {d46}, {d47}, {d48}, {d49}, {d50}, {d51}, {d52}, {d53}, {d54}, {d55}, {d56}, {d57}, {d58}, {d59}, {d60}, {d61}, {d62}, {d63}}}, {a}, {b}, p, 1, 1, 0, 1; }}",
            d0 = inout(reg32) acc[0],
            d1 = inout(reg32) acc[1],
            d2 = inout(reg32) acc[2],
            d3 = inout(reg32) acc[3],
            d4 = inout(reg32) acc[4],
            d5 = inout(reg32) acc[5],
            d6 = inout(reg32) acc[6],
            d7 = inout(reg32) acc[7],
            d8 = inout(reg32) acc[8],
            d9 = inout(reg32) acc[9],
            d10 = inout(reg32) acc[10],
            d11 = inout(reg32) acc[11],
            d12 = inout(reg32) acc[12],
            d13 = inout(reg32) acc[13],
            d14 = inout(reg32) acc[14],
            d15 = inout(reg32) acc[15],
            d16 = inout(reg32) acc[16],
            d17 = inout(reg32) acc[17],
            d18 = inout(reg32) acc[18],
            d19 = inout(reg32) acc[19],
            d20 = inout(reg32) acc[20],
            d21 = inout(reg32) acc[21],
            d22 = inout(reg32) acc[22],
            d23 = inout(reg32) acc[23],
            d24 = inout(reg32) acc[24],
            d25 = inout(reg32) acc[25],
            d26 = inout(reg32) acc[26],
            d27 = inout(reg32) acc[27],
            d28 = inout(reg32) acc[28],
            d29 = inout(reg32) acc[29],
            d30 = inout(reg32) acc[30],
            d31 = inout(reg32) acc[31],
            d32 = inout(reg32) acc[32],
            d33 = inout(reg32) acc[33],
            d34 = inout(reg32) acc[34],
            d35 = inout(reg32) acc[35],
            d36 = inout(reg32) acc[36],
            d37 = inout(reg32) acc[37],
            d38 = inout(reg32) acc[38],
            d39 = inout(reg32) acc[39],
            d40 = inout(reg32) acc[40],
            d41 = inout(reg32) acc[41],
            d42 = inout(reg32) acc[42],
            d43 = inout(reg32) acc[43],
            d44 = inout(reg32) acc[44],
            d45 = inout(reg32) acc[45],
            d46 = inout(reg32) acc[46],
            d47 = inout(reg32) acc[47],
            d48 = inout(reg32) acc[48],
            d49 = inout(reg32) acc[49],
            d50 = inout(reg32) acc[50],
            d51 = inout(reg32) acc[51],
            d52 = inout(reg32) acc[52],
            d53 = inout(reg32) acc[53],
            d54 = inout(reg32) acc[54],
            d55 = inout(reg32) acc[55],
            d56 = inout(reg32) acc[56],
            d57 = inout(reg32) acc[57],
            d58 = inout(reg32) acc[58],
            d59 = inout(reg32) acc[59],
            d60 = inout(reg32) acc[60],
            d61 = inout(reg32) acc[61],
            d62 = inout(reg32) acc[62],
            d63 = inout(reg32) acc[63],
            a = in(reg64) a,
            b = in(reg64) b,
            scale_d = in(reg32) scale_d,
            options(nostack, preserves_flags)
        );
    }
}

/// Host implementation of [`mma_m64n128k16_bf16`]: this thread's results, each an `f64` sum of exact products
/// read through the descriptors (with the swizzle), rounded once to `f32`.
///
/// # Safety
/// As the GPU version; the host build checks that every operand byte lies in the block's shared memory.
#[cfg(not(target_arch = "nvptx64"))]
pub unsafe fn mma_m64n128k16_bf16(acc: &mut [f32; 64], a: u64, b: u64, accumulate: bool) {
    host_impl::mma(acc, a, b, accumulate, host_impl::HALF, host_impl::bf16)
}

/// `wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16`: `acc += A·B` (`acc = A·B` when
/// `!accumulate`) on a 64×128×16 tile; see [`mma_m64n128k16_bf16`].
///
/// # Safety
/// As [`mma_m64n128k16_bf16`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn mma_m64n128k16_f16(acc: &mut [f32; 64], a: u64, b: u64, accumulate: bool) {
    let scale_d = accumulate as u32;
    // SAFETY: register and descriptor operands; the shared memory the descriptors name is read
    // asynchronously (the caller's contract orders it). Not `pure`: a warpgroup-collective.
    unsafe {
        core::arch::asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {scale_d}, 0;",
            "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{d0}, {d1}, {d2}, {d3}, {d4}, {d5}, {d6}, {d7}, {d8}, {d9}, {d10}, {d11}, {d12}, {d13}, {d14}, {d15}, {d16}, {d17}, {d18}, {d19}, {d20}, {d21}, {d22}, {d23}, {d24}, {d25}, {d26}, {d27}, {d28}, {d29}, {d30}, {d31}, {d32}, {d33}, {d34}, {d35}, {d36}, {d37}, {d38}, {d39}, {d40}, {d41}, {d42}, {d43}, {d44}, {d45}, {d46}, {d47}, {d48}, {d49}, {d50}, {d51}, {d52}, {d53}, {d54}, {d55}, {d56}, {d57}, {d58}, {d59}, {d60}, {d61}, {d62}, {d63}}}, {a}, {b}, p, 1, 1, 0, 1; }}",
            d0 = inout(reg32) acc[0],
            d1 = inout(reg32) acc[1],
            d2 = inout(reg32) acc[2],
            d3 = inout(reg32) acc[3],
            d4 = inout(reg32) acc[4],
            d5 = inout(reg32) acc[5],
            d6 = inout(reg32) acc[6],
            d7 = inout(reg32) acc[7],
            d8 = inout(reg32) acc[8],
            d9 = inout(reg32) acc[9],
            d10 = inout(reg32) acc[10],
            d11 = inout(reg32) acc[11],
            d12 = inout(reg32) acc[12],
            d13 = inout(reg32) acc[13],
            d14 = inout(reg32) acc[14],
            d15 = inout(reg32) acc[15],
            d16 = inout(reg32) acc[16],
            d17 = inout(reg32) acc[17],
            d18 = inout(reg32) acc[18],
            d19 = inout(reg32) acc[19],
            d20 = inout(reg32) acc[20],
            d21 = inout(reg32) acc[21],
            d22 = inout(reg32) acc[22],
            d23 = inout(reg32) acc[23],
            d24 = inout(reg32) acc[24],
            d25 = inout(reg32) acc[25],
            d26 = inout(reg32) acc[26],
            d27 = inout(reg32) acc[27],
            d28 = inout(reg32) acc[28],
            d29 = inout(reg32) acc[29],
            d30 = inout(reg32) acc[30],
            d31 = inout(reg32) acc[31],
            d32 = inout(reg32) acc[32],
            d33 = inout(reg32) acc[33],
            d34 = inout(reg32) acc[34],
            d35 = inout(reg32) acc[35],
            d36 = inout(reg32) acc[36],
            d37 = inout(reg32) acc[37],
            d38 = inout(reg32) acc[38],
            d39 = inout(reg32) acc[39],
            d40 = inout(reg32) acc[40],
            d41 = inout(reg32) acc[41],
            d42 = inout(reg32) acc[42],
            d43 = inout(reg32) acc[43],
            d44 = inout(reg32) acc[44],
            d45 = inout(reg32) acc[45],
            d46 = inout(reg32) acc[46],
            d47 = inout(reg32) acc[47],
            d48 = inout(reg32) acc[48],
            d49 = inout(reg32) acc[49],
            d50 = inout(reg32) acc[50],
            d51 = inout(reg32) acc[51],
            d52 = inout(reg32) acc[52],
            d53 = inout(reg32) acc[53],
            d54 = inout(reg32) acc[54],
            d55 = inout(reg32) acc[55],
            d56 = inout(reg32) acc[56],
            d57 = inout(reg32) acc[57],
            d58 = inout(reg32) acc[58],
            d59 = inout(reg32) acc[59],
            d60 = inout(reg32) acc[60],
            d61 = inout(reg32) acc[61],
            d62 = inout(reg32) acc[62],
            d63 = inout(reg32) acc[63],
            a = in(reg64) a,
            b = in(reg64) b,
            scale_d = in(reg32) scale_d,
            options(nostack, preserves_flags)
        );
    }
}

/// Host implementation of [`mma_m64n128k16_f16`]: this thread's results, each an `f64` sum of exact products
/// read through the descriptors (with the swizzle), rounded once to `f32`.
///
/// # Safety
/// As the GPU version; the host build checks that every operand byte lies in the block's shared memory.
#[cfg(not(target_arch = "nvptx64"))]
pub unsafe fn mma_m64n128k16_f16(acc: &mut [f32; 64], a: u64, b: u64, accumulate: bool) {
    host_impl::mma(acc, a, b, accumulate, host_impl::HALF, |bits| super::mma::f16_bits_to_f64(bits as u16))
}

/// `wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16`: `acc += A·B` (`acc = A·B` when
/// `!accumulate`) on a 64×256×16 tile; see [`mma_m64n128k16_bf16`].
///
/// # Safety
/// As [`mma_m64n128k16_bf16`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn mma_m64n256k16_bf16(acc: &mut [f32; 128], a: u64, b: u64, accumulate: bool) {
    let scale_d = accumulate as u32;
    // SAFETY: register and descriptor operands; the shared memory the descriptors name is read
    // asynchronously (the caller's contract orders it). Not `pure`: a warpgroup-collective.
    unsafe {
        core::arch::asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {scale_d}, 0;",
            "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{{d0}, {d1}, {d2}, {d3}, {d4}, {d5}, {d6}, {d7}, {d8}, {d9}, {d10}, {d11}, {d12}, {d13}, {d14}, {d15}, {d16}, {d17}, {d18}, {d19}, {d20}, {d21}, {d22}, {d23}, {d24}, {d25}, {d26}, {d27}, {d28}, {d29}, {d30}, {d31}, {d32}, {d33}, {d34}, {d35}, {d36}, {d37}, {d38}, {d39}, {d40}, {d41}, {d42}, {d43}, {d44}, {d45}, {d46}, {d47}, {d48}, {d49}, {d50}, {d51}, {d52}, {d53}, {d54}, {d55}, {d56}, {d57}, {d58}, {d59}, {d60}, {d61}, {d62}, {d63}, {d64}, {d65}, {d66}, {d67}, {d68}, {d69}, {d70}, {d71}, {d72}, {d73}, {d74}, {d75}, {d76}, {d77}, {d78}, {d79}, {d80}, {d81}, {d82}, {d83}, {d84}, {d85}, {d86}, {d87}, {d88}, {d89}, {d90}, {d91}, {d92}, {d93}, {d94}, {d95}, {d96}, {d97}, {d98}, {d99}, {d100}, {d101}, {d102}, {d103}, {d104}, {d105}, {d106}, {d107}, {d108}, {d109}, {d110}, {d111}, {d112}, {d113}, {d114}, {d115}, {d116}, {d117}, {d118}, {d119}, {d120}, {d121}, {d122}, {d123}, {d124}, {d125}, {d126}, {d127}}}, {a}, {b}, p, 1, 1, 0, 1; }}",
            d0 = inout(reg32) acc[0],
            d1 = inout(reg32) acc[1],
            d2 = inout(reg32) acc[2],
            d3 = inout(reg32) acc[3],
            d4 = inout(reg32) acc[4],
            d5 = inout(reg32) acc[5],
            d6 = inout(reg32) acc[6],
            d7 = inout(reg32) acc[7],
            d8 = inout(reg32) acc[8],
            d9 = inout(reg32) acc[9],
            d10 = inout(reg32) acc[10],
            d11 = inout(reg32) acc[11],
            d12 = inout(reg32) acc[12],
            d13 = inout(reg32) acc[13],
            d14 = inout(reg32) acc[14],
            d15 = inout(reg32) acc[15],
            d16 = inout(reg32) acc[16],
            d17 = inout(reg32) acc[17],
            d18 = inout(reg32) acc[18],
            d19 = inout(reg32) acc[19],
            d20 = inout(reg32) acc[20],
            d21 = inout(reg32) acc[21],
            d22 = inout(reg32) acc[22],
            d23 = inout(reg32) acc[23],
            d24 = inout(reg32) acc[24],
            d25 = inout(reg32) acc[25],
            d26 = inout(reg32) acc[26],
            d27 = inout(reg32) acc[27],
            d28 = inout(reg32) acc[28],
            d29 = inout(reg32) acc[29],
            d30 = inout(reg32) acc[30],
            d31 = inout(reg32) acc[31],
            d32 = inout(reg32) acc[32],
            d33 = inout(reg32) acc[33],
            d34 = inout(reg32) acc[34],
            d35 = inout(reg32) acc[35],
            d36 = inout(reg32) acc[36],
            d37 = inout(reg32) acc[37],
            d38 = inout(reg32) acc[38],
            d39 = inout(reg32) acc[39],
            d40 = inout(reg32) acc[40],
            d41 = inout(reg32) acc[41],
            d42 = inout(reg32) acc[42],
            d43 = inout(reg32) acc[43],
            d44 = inout(reg32) acc[44],
            d45 = inout(reg32) acc[45],
            d46 = inout(reg32) acc[46],
            d47 = inout(reg32) acc[47],
            d48 = inout(reg32) acc[48],
            d49 = inout(reg32) acc[49],
            d50 = inout(reg32) acc[50],
            d51 = inout(reg32) acc[51],
            d52 = inout(reg32) acc[52],
            d53 = inout(reg32) acc[53],
            d54 = inout(reg32) acc[54],
            d55 = inout(reg32) acc[55],
            d56 = inout(reg32) acc[56],
            d57 = inout(reg32) acc[57],
            d58 = inout(reg32) acc[58],
            d59 = inout(reg32) acc[59],
            d60 = inout(reg32) acc[60],
            d61 = inout(reg32) acc[61],
            d62 = inout(reg32) acc[62],
            d63 = inout(reg32) acc[63],
            d64 = inout(reg32) acc[64],
            d65 = inout(reg32) acc[65],
            d66 = inout(reg32) acc[66],
            d67 = inout(reg32) acc[67],
            d68 = inout(reg32) acc[68],
            d69 = inout(reg32) acc[69],
            d70 = inout(reg32) acc[70],
            d71 = inout(reg32) acc[71],
            d72 = inout(reg32) acc[72],
            d73 = inout(reg32) acc[73],
            d74 = inout(reg32) acc[74],
            d75 = inout(reg32) acc[75],
            d76 = inout(reg32) acc[76],
            d77 = inout(reg32) acc[77],
            d78 = inout(reg32) acc[78],
            d79 = inout(reg32) acc[79],
            d80 = inout(reg32) acc[80],
            d81 = inout(reg32) acc[81],
            d82 = inout(reg32) acc[82],
            d83 = inout(reg32) acc[83],
            d84 = inout(reg32) acc[84],
            d85 = inout(reg32) acc[85],
            d86 = inout(reg32) acc[86],
            d87 = inout(reg32) acc[87],
            d88 = inout(reg32) acc[88],
            d89 = inout(reg32) acc[89],
            d90 = inout(reg32) acc[90],
            d91 = inout(reg32) acc[91],
            d92 = inout(reg32) acc[92],
            d93 = inout(reg32) acc[93],
            d94 = inout(reg32) acc[94],
            d95 = inout(reg32) acc[95],
            d96 = inout(reg32) acc[96],
            d97 = inout(reg32) acc[97],
            d98 = inout(reg32) acc[98],
            d99 = inout(reg32) acc[99],
            d100 = inout(reg32) acc[100],
            d101 = inout(reg32) acc[101],
            d102 = inout(reg32) acc[102],
            d103 = inout(reg32) acc[103],
            d104 = inout(reg32) acc[104],
            d105 = inout(reg32) acc[105],
            d106 = inout(reg32) acc[106],
            d107 = inout(reg32) acc[107],
            d108 = inout(reg32) acc[108],
            d109 = inout(reg32) acc[109],
            d110 = inout(reg32) acc[110],
            d111 = inout(reg32) acc[111],
            d112 = inout(reg32) acc[112],
            d113 = inout(reg32) acc[113],
            d114 = inout(reg32) acc[114],
            d115 = inout(reg32) acc[115],
            d116 = inout(reg32) acc[116],
            d117 = inout(reg32) acc[117],
            d118 = inout(reg32) acc[118],
            d119 = inout(reg32) acc[119],
            d120 = inout(reg32) acc[120],
            d121 = inout(reg32) acc[121],
            d122 = inout(reg32) acc[122],
            d123 = inout(reg32) acc[123],
            d124 = inout(reg32) acc[124],
            d125 = inout(reg32) acc[125],
            d126 = inout(reg32) acc[126],
            d127 = inout(reg32) acc[127],
            a = in(reg64) a,
            b = in(reg64) b,
            scale_d = in(reg32) scale_d,
            options(nostack, preserves_flags)
        );
    }
}

/// Host implementation of [`mma_m64n256k16_bf16`]: this thread's results, each an `f64` sum of exact products
/// read through the descriptors (with the swizzle), rounded once to `f32`.
///
/// # Safety
/// As the GPU version; the host build checks that every operand byte lies in the block's shared memory.
#[cfg(not(target_arch = "nvptx64"))]
pub unsafe fn mma_m64n256k16_bf16(acc: &mut [f32; 128], a: u64, b: u64, accumulate: bool) {
    host_impl::mma(acc, a, b, accumulate, host_impl::HALF, host_impl::bf16)
}

/// `wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16`: `acc += A·B` (`acc = A·B` when
/// `!accumulate`) on a 64×256×16 tile; see [`mma_m64n128k16_bf16`].
///
/// # Safety
/// As [`mma_m64n128k16_bf16`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn mma_m64n256k16_f16(acc: &mut [f32; 128], a: u64, b: u64, accumulate: bool) {
    let scale_d = accumulate as u32;
    // SAFETY: register and descriptor operands; the shared memory the descriptors name is read
    // asynchronously (the caller's contract orders it). Not `pure`: a warpgroup-collective.
    unsafe {
        core::arch::asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {scale_d}, 0;",
            "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{{d0}, {d1}, {d2}, {d3}, {d4}, {d5}, {d6}, {d7}, {d8}, {d9}, {d10}, {d11}, {d12}, {d13}, {d14}, {d15}, {d16}, {d17}, {d18}, {d19}, {d20}, {d21}, {d22}, {d23}, {d24}, {d25}, {d26}, {d27}, {d28}, {d29}, {d30}, {d31}, {d32}, {d33}, {d34}, {d35}, {d36}, {d37}, {d38}, {d39}, {d40}, {d41}, {d42}, {d43}, {d44}, {d45}, {d46}, {d47}, {d48}, {d49}, {d50}, {d51}, {d52}, {d53}, {d54}, {d55}, {d56}, {d57}, {d58}, {d59}, {d60}, {d61}, {d62}, {d63}, {d64}, {d65}, {d66}, {d67}, {d68}, {d69}, {d70}, {d71}, {d72}, {d73}, {d74}, {d75}, {d76}, {d77}, {d78}, {d79}, {d80}, {d81}, {d82}, {d83}, {d84}, {d85}, {d86}, {d87}, {d88}, {d89}, {d90}, {d91}, {d92}, {d93}, {d94}, {d95}, {d96}, {d97}, {d98}, {d99}, {d100}, {d101}, {d102}, {d103}, {d104}, {d105}, {d106}, {d107}, {d108}, {d109}, {d110}, {d111}, {d112}, {d113}, {d114}, {d115}, {d116}, {d117}, {d118}, {d119}, {d120}, {d121}, {d122}, {d123}, {d124}, {d125}, {d126}, {d127}}}, {a}, {b}, p, 1, 1, 0, 1; }}",
            d0 = inout(reg32) acc[0],
            d1 = inout(reg32) acc[1],
            d2 = inout(reg32) acc[2],
            d3 = inout(reg32) acc[3],
            d4 = inout(reg32) acc[4],
            d5 = inout(reg32) acc[5],
            d6 = inout(reg32) acc[6],
            d7 = inout(reg32) acc[7],
            d8 = inout(reg32) acc[8],
            d9 = inout(reg32) acc[9],
            d10 = inout(reg32) acc[10],
            d11 = inout(reg32) acc[11],
            d12 = inout(reg32) acc[12],
            d13 = inout(reg32) acc[13],
            d14 = inout(reg32) acc[14],
            d15 = inout(reg32) acc[15],
            d16 = inout(reg32) acc[16],
            d17 = inout(reg32) acc[17],
            d18 = inout(reg32) acc[18],
            d19 = inout(reg32) acc[19],
            d20 = inout(reg32) acc[20],
            d21 = inout(reg32) acc[21],
            d22 = inout(reg32) acc[22],
            d23 = inout(reg32) acc[23],
            d24 = inout(reg32) acc[24],
            d25 = inout(reg32) acc[25],
            d26 = inout(reg32) acc[26],
            d27 = inout(reg32) acc[27],
            d28 = inout(reg32) acc[28],
            d29 = inout(reg32) acc[29],
            d30 = inout(reg32) acc[30],
            d31 = inout(reg32) acc[31],
            d32 = inout(reg32) acc[32],
            d33 = inout(reg32) acc[33],
            d34 = inout(reg32) acc[34],
            d35 = inout(reg32) acc[35],
            d36 = inout(reg32) acc[36],
            d37 = inout(reg32) acc[37],
            d38 = inout(reg32) acc[38],
            d39 = inout(reg32) acc[39],
            d40 = inout(reg32) acc[40],
            d41 = inout(reg32) acc[41],
            d42 = inout(reg32) acc[42],
            d43 = inout(reg32) acc[43],
            d44 = inout(reg32) acc[44],
            d45 = inout(reg32) acc[45],
            d46 = inout(reg32) acc[46],
            d47 = inout(reg32) acc[47],
            d48 = inout(reg32) acc[48],
            d49 = inout(reg32) acc[49],
            d50 = inout(reg32) acc[50],
            d51 = inout(reg32) acc[51],
            d52 = inout(reg32) acc[52],
            d53 = inout(reg32) acc[53],
            d54 = inout(reg32) acc[54],
            d55 = inout(reg32) acc[55],
            d56 = inout(reg32) acc[56],
            d57 = inout(reg32) acc[57],
            d58 = inout(reg32) acc[58],
            d59 = inout(reg32) acc[59],
            d60 = inout(reg32) acc[60],
            d61 = inout(reg32) acc[61],
            d62 = inout(reg32) acc[62],
            d63 = inout(reg32) acc[63],
            d64 = inout(reg32) acc[64],
            d65 = inout(reg32) acc[65],
            d66 = inout(reg32) acc[66],
            d67 = inout(reg32) acc[67],
            d68 = inout(reg32) acc[68],
            d69 = inout(reg32) acc[69],
            d70 = inout(reg32) acc[70],
            d71 = inout(reg32) acc[71],
            d72 = inout(reg32) acc[72],
            d73 = inout(reg32) acc[73],
            d74 = inout(reg32) acc[74],
            d75 = inout(reg32) acc[75],
            d76 = inout(reg32) acc[76],
            d77 = inout(reg32) acc[77],
            d78 = inout(reg32) acc[78],
            d79 = inout(reg32) acc[79],
            d80 = inout(reg32) acc[80],
            d81 = inout(reg32) acc[81],
            d82 = inout(reg32) acc[82],
            d83 = inout(reg32) acc[83],
            d84 = inout(reg32) acc[84],
            d85 = inout(reg32) acc[85],
            d86 = inout(reg32) acc[86],
            d87 = inout(reg32) acc[87],
            d88 = inout(reg32) acc[88],
            d89 = inout(reg32) acc[89],
            d90 = inout(reg32) acc[90],
            d91 = inout(reg32) acc[91],
            d92 = inout(reg32) acc[92],
            d93 = inout(reg32) acc[93],
            d94 = inout(reg32) acc[94],
            d95 = inout(reg32) acc[95],
            d96 = inout(reg32) acc[96],
            d97 = inout(reg32) acc[97],
            d98 = inout(reg32) acc[98],
            d99 = inout(reg32) acc[99],
            d100 = inout(reg32) acc[100],
            d101 = inout(reg32) acc[101],
            d102 = inout(reg32) acc[102],
            d103 = inout(reg32) acc[103],
            d104 = inout(reg32) acc[104],
            d105 = inout(reg32) acc[105],
            d106 = inout(reg32) acc[106],
            d107 = inout(reg32) acc[107],
            d108 = inout(reg32) acc[108],
            d109 = inout(reg32) acc[109],
            d110 = inout(reg32) acc[110],
            d111 = inout(reg32) acc[111],
            d112 = inout(reg32) acc[112],
            d113 = inout(reg32) acc[113],
            d114 = inout(reg32) acc[114],
            d115 = inout(reg32) acc[115],
            d116 = inout(reg32) acc[116],
            d117 = inout(reg32) acc[117],
            d118 = inout(reg32) acc[118],
            d119 = inout(reg32) acc[119],
            d120 = inout(reg32) acc[120],
            d121 = inout(reg32) acc[121],
            d122 = inout(reg32) acc[122],
            d123 = inout(reg32) acc[123],
            d124 = inout(reg32) acc[124],
            d125 = inout(reg32) acc[125],
            d126 = inout(reg32) acc[126],
            d127 = inout(reg32) acc[127],
            a = in(reg64) a,
            b = in(reg64) b,
            scale_d = in(reg32) scale_d,
            options(nostack, preserves_flags)
        );
    }
}

/// Host implementation of [`mma_m64n256k16_f16`]: this thread's results, each an `f64` sum of exact products
/// read through the descriptors (with the swizzle), rounded once to `f32`.
///
/// # Safety
/// As the GPU version; the host build checks that every operand byte lies in the block's shared memory.
#[cfg(not(target_arch = "nvptx64"))]
pub unsafe fn mma_m64n256k16_f16(acc: &mut [f32; 128], a: u64, b: u64, accumulate: bool) {
    host_impl::mma(acc, a, b, accumulate, host_impl::HALF, |bits| super::mma::f16_bits_to_f64(bits as u16))
}

/// `wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32`: `acc += A·B` (`acc = A·B` when
/// `!accumulate`) on a 64×256×8 tile of TF32 operands (the top 19 bits of each `f32` word), A and B
/// both K-major (B given as `Bᵀ`, 256 rows of K: TF32 has no transposed form).
///
/// # Safety
/// As [`mma_m64n128k16_bf16`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn mma_m64n256k8_tf32(acc: &mut [f32; 128], a: u64, b: u64, accumulate: bool) {
    let scale_d = accumulate as u32;
    // SAFETY: register and descriptor operands; the shared memory the descriptors name is read
    // asynchronously (the caller's contract orders it). Not `pure`: a warpgroup-collective.
    unsafe {
        core::arch::asm!(
            "{{ .reg .pred p; setp.ne.b32 p, {scale_d}, 0;",
            "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {{{d0}, {d1}, {d2}, {d3}, {d4}, {d5}, {d6}, {d7}, {d8}, {d9}, {d10}, {d11}, {d12}, {d13}, {d14}, {d15}, {d16}, {d17}, {d18}, {d19}, {d20}, {d21}, {d22}, {d23}, {d24}, {d25}, {d26}, {d27}, {d28}, {d29}, {d30}, {d31}, {d32}, {d33}, {d34}, {d35}, {d36}, {d37}, {d38}, {d39}, {d40}, {d41}, {d42}, {d43}, {d44}, {d45}, {d46}, {d47}, {d48}, {d49}, {d50}, {d51}, {d52}, {d53}, {d54}, {d55}, {d56}, {d57}, {d58}, {d59}, {d60}, {d61}, {d62}, {d63}, {d64}, {d65}, {d66}, {d67}, {d68}, {d69}, {d70}, {d71}, {d72}, {d73}, {d74}, {d75}, {d76}, {d77}, {d78}, {d79}, {d80}, {d81}, {d82}, {d83}, {d84}, {d85}, {d86}, {d87}, {d88}, {d89}, {d90}, {d91}, {d92}, {d93}, {d94}, {d95}, {d96}, {d97}, {d98}, {d99}, {d100}, {d101}, {d102}, {d103}, {d104}, {d105}, {d106}, {d107}, {d108}, {d109}, {d110}, {d111}, {d112}, {d113}, {d114}, {d115}, {d116}, {d117}, {d118}, {d119}, {d120}, {d121}, {d122}, {d123}, {d124}, {d125}, {d126}, {d127}}}, {a}, {b}, p, 1, 1; }}",
            d0 = inout(reg32) acc[0],
            d1 = inout(reg32) acc[1],
            d2 = inout(reg32) acc[2],
            d3 = inout(reg32) acc[3],
            d4 = inout(reg32) acc[4],
            d5 = inout(reg32) acc[5],
            d6 = inout(reg32) acc[6],
            d7 = inout(reg32) acc[7],
            d8 = inout(reg32) acc[8],
            d9 = inout(reg32) acc[9],
            d10 = inout(reg32) acc[10],
            d11 = inout(reg32) acc[11],
            d12 = inout(reg32) acc[12],
            d13 = inout(reg32) acc[13],
            d14 = inout(reg32) acc[14],
            d15 = inout(reg32) acc[15],
            d16 = inout(reg32) acc[16],
            d17 = inout(reg32) acc[17],
            d18 = inout(reg32) acc[18],
            d19 = inout(reg32) acc[19],
            d20 = inout(reg32) acc[20],
            d21 = inout(reg32) acc[21],
            d22 = inout(reg32) acc[22],
            d23 = inout(reg32) acc[23],
            d24 = inout(reg32) acc[24],
            d25 = inout(reg32) acc[25],
            d26 = inout(reg32) acc[26],
            d27 = inout(reg32) acc[27],
            d28 = inout(reg32) acc[28],
            d29 = inout(reg32) acc[29],
            d30 = inout(reg32) acc[30],
            d31 = inout(reg32) acc[31],
            d32 = inout(reg32) acc[32],
            d33 = inout(reg32) acc[33],
            d34 = inout(reg32) acc[34],
            d35 = inout(reg32) acc[35],
            d36 = inout(reg32) acc[36],
            d37 = inout(reg32) acc[37],
            d38 = inout(reg32) acc[38],
            d39 = inout(reg32) acc[39],
            d40 = inout(reg32) acc[40],
            d41 = inout(reg32) acc[41],
            d42 = inout(reg32) acc[42],
            d43 = inout(reg32) acc[43],
            d44 = inout(reg32) acc[44],
            d45 = inout(reg32) acc[45],
            d46 = inout(reg32) acc[46],
            d47 = inout(reg32) acc[47],
            d48 = inout(reg32) acc[48],
            d49 = inout(reg32) acc[49],
            d50 = inout(reg32) acc[50],
            d51 = inout(reg32) acc[51],
            d52 = inout(reg32) acc[52],
            d53 = inout(reg32) acc[53],
            d54 = inout(reg32) acc[54],
            d55 = inout(reg32) acc[55],
            d56 = inout(reg32) acc[56],
            d57 = inout(reg32) acc[57],
            d58 = inout(reg32) acc[58],
            d59 = inout(reg32) acc[59],
            d60 = inout(reg32) acc[60],
            d61 = inout(reg32) acc[61],
            d62 = inout(reg32) acc[62],
            d63 = inout(reg32) acc[63],
            d64 = inout(reg32) acc[64],
            d65 = inout(reg32) acc[65],
            d66 = inout(reg32) acc[66],
            d67 = inout(reg32) acc[67],
            d68 = inout(reg32) acc[68],
            d69 = inout(reg32) acc[69],
            d70 = inout(reg32) acc[70],
            d71 = inout(reg32) acc[71],
            d72 = inout(reg32) acc[72],
            d73 = inout(reg32) acc[73],
            d74 = inout(reg32) acc[74],
            d75 = inout(reg32) acc[75],
            d76 = inout(reg32) acc[76],
            d77 = inout(reg32) acc[77],
            d78 = inout(reg32) acc[78],
            d79 = inout(reg32) acc[79],
            d80 = inout(reg32) acc[80],
            d81 = inout(reg32) acc[81],
            d82 = inout(reg32) acc[82],
            d83 = inout(reg32) acc[83],
            d84 = inout(reg32) acc[84],
            d85 = inout(reg32) acc[85],
            d86 = inout(reg32) acc[86],
            d87 = inout(reg32) acc[87],
            d88 = inout(reg32) acc[88],
            d89 = inout(reg32) acc[89],
            d90 = inout(reg32) acc[90],
            d91 = inout(reg32) acc[91],
            d92 = inout(reg32) acc[92],
            d93 = inout(reg32) acc[93],
            d94 = inout(reg32) acc[94],
            d95 = inout(reg32) acc[95],
            d96 = inout(reg32) acc[96],
            d97 = inout(reg32) acc[97],
            d98 = inout(reg32) acc[98],
            d99 = inout(reg32) acc[99],
            d100 = inout(reg32) acc[100],
            d101 = inout(reg32) acc[101],
            d102 = inout(reg32) acc[102],
            d103 = inout(reg32) acc[103],
            d104 = inout(reg32) acc[104],
            d105 = inout(reg32) acc[105],
            d106 = inout(reg32) acc[106],
            d107 = inout(reg32) acc[107],
            d108 = inout(reg32) acc[108],
            d109 = inout(reg32) acc[109],
            d110 = inout(reg32) acc[110],
            d111 = inout(reg32) acc[111],
            d112 = inout(reg32) acc[112],
            d113 = inout(reg32) acc[113],
            d114 = inout(reg32) acc[114],
            d115 = inout(reg32) acc[115],
            d116 = inout(reg32) acc[116],
            d117 = inout(reg32) acc[117],
            d118 = inout(reg32) acc[118],
            d119 = inout(reg32) acc[119],
            d120 = inout(reg32) acc[120],
            d121 = inout(reg32) acc[121],
            d122 = inout(reg32) acc[122],
            d123 = inout(reg32) acc[123],
            d124 = inout(reg32) acc[124],
            d125 = inout(reg32) acc[125],
            d126 = inout(reg32) acc[126],
            d127 = inout(reg32) acc[127],
            a = in(reg64) a,
            b = in(reg64) b,
            scale_d = in(reg32) scale_d,
            options(nostack, preserves_flags)
        );
    }
}

/// Host implementation of [`mma_m64n256k8_tf32`]: as [`mma_m64n128k16_bf16`]'s, on the top 19 bits
/// of each operand word, B K-major.
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
pub unsafe fn mma_m64n256k8_tf32(acc: &mut [f32; 128], a: u64, b: u64, accumulate: bool) {
    host_impl::mma(acc, a, b, accumulate, host_impl::TF32, |bits| f32::from_bits(bits & 0xFFFF_E000) as f64)
}

/// The host side: descriptor decoding and the swizzled addressing of the module documentation.
#[cfg(not(target_arch = "nvptx64"))]
mod host_impl {
    use super::super::{shared, thread};
    use super::{acc_position, swizzle_sw128};

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

    /// The `bytes`-byte element (2 or 4) at the unswizzled shared address `addr`, as raw bits.
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
            if bytes == 2 {
                p.cast::<u16>().read() as u32
            } else {
                p.cast::<u32>().read()
            }
        }
    }

    /// A bf16 bit pattern's value.
    pub(super) fn bf16(bits: u32) -> f64 {
        f32::from_bits(bits << 16) as f64
    }

    /// The operand format of an instruction: element bytes, K per instruction, B K-major or not.
    pub(super) struct Format {
        bytes: u32,
        k: u32,
        b_k_major: bool,
    }

    /// BF16/FP16: 2-byte elements, K = 16, B N-major (the transpose flag the kernels set).
    pub(super) const HALF: Format = Format { bytes: 2, k: 16, b_k_major: false };
    /// TF32: 4-byte elements, K = 8, B K-major.
    pub(super) const TF32: Format = Format { bytes: 4, k: 8, b_k_major: true };

    /// One thread's part of a `wgmma`: its accumulators from the operands the descriptors name.
    pub(super) fn mma(acc: &mut [f32], a: u64, b: u64, accumulate: bool, f: Format, value: impl Fn(u32) -> f64) {
        let ((a0, _, a_sbo), (b0, b_lbo, b_sbo)) = (decode(a), decode(b));
        // Host shared addresses are offsets from the block's shared base (see `SharedPtr`). A is
        // K-major: row m at (m / 8)·SBO + (m % 8)·128. B K-major likewise by its row n; N-major: K-row
        // k at (k / 8)·SBO + (k % 8)·128 within 128-byte blocks of N, LBO apart.
        let a_at = |m: u32, k: u32| value(element(a0 + (m / 8) * a_sbo + (m % 8) * 128 + f.bytes * k, f.bytes));
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
