//! Tensor-core matrix multiply-accumulate (`mma.sync`, sm_80+) and the shared-memory loads that feed
//! it (`ldmatrix`, sm_75+), each PTX instruction one wrapper with inline `asm!` (core has no intrinsic
//! for them), plus the TF32 rounding `cvt.rna.tf32.f32`.
//!
//! # Warp-collective instructions
//! `mma.sync.aligned` and `ldmatrix.sync.aligned` are executed by the 32 lanes of a warp together:
//! each lane holds a *fragment* (a few elements) of every operand, and receives a fragment of the
//! result. **Every lane of the warp must call the same function at the same point with converged
//! control flow** (never inside a branch that only some lanes of a warp take, and never in a block
//! whose size is no multiple of 32); on the GPU a violation is undefined behaviour (a hang or wrong
//! values), on the host the CPU executor reports it as an error. Like `sync_threads` (see
//! [`super::thread::sync_threads`]), every one of them is therefore an `unsafe fn` with that
//! contract under `# Safety`; the `ldmatrix_*` ones also read memory at an address the caller
//! vouches for.
//!
//! A compiler caveat: rustc emits these `asm!` blocks as LLVM inline-asm calls *without* the
//! `convergent` attribute (seen in the LLVM IR of nightly-2026-05-20; the enclosing functions do carry
//! it), so LLVM does not know they are warp-collective. They are not `pure` (side-effecting), so LLVM
//! neither removes nor speculates them, but a transformation that duplicates code into divergent paths
//! (loop unswitching or jump threading on a lane-dependent condition) is not ruled out: keep the calls
//! in warp-uniform control flow, and check the PTX of a new kernel.
//!
//! The host build (CPU executor) implements each of them as a rendezvous of the warp's 32 lanes (see
//! [`super::host::WarpExchange`]): every lane deposits its fragments, waits for the others, then
//! computes its own output fragment from everyone's inputs — in `f64` from exactly the values the
//! hardware uses, rounded once to `f32`.
//!
//! # Element types
//! TF32 operands are `u32`s holding an `f32` bit pattern of which the tensor core uses the top 19 bits
//! (sign, 8-bit exponent, 10-bit mantissa); round with [`to_tf32`] first, or the low 13 bits are
//! simply ignored (truncation). BF16 and FP16 values stay raw `u16` bit patterns in kernels (no
//! arithmetic on them there): two of them are packed into one `u32`, **the element with the lower
//! column (or `k`) index in the low 16 bits** ([`pack_b16`]). Accumulators are `f32`.
//!
//! # Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k8 / mma.m16n8k16")
//! With `lane` = lane id, `g = lane / 4` (group id) and `t = lane % 4` (thread id in group):
//!
//! | operand | register | elements (row, col) |
//! |---|---|---|
//! | A 16×8 tf32 (`m16n8k8`, row-major) | `a[0]` `a[1]` `a[2]` `a[3]` | `(g, t)` `(g+8, t)` `(g, t+4)` `(g+8, t+4)` |
//! | B 8×8 tf32 (K×N, "col") | `b[0]` `b[1]` | `(k = t, n = g)` `(k = t+4, n = g)` |
//! | A 16×16 bf16/f16 (`m16n8k16`) | `a[0]` `a[1]` `a[2]` `a[3]` | `(g, 2t..2t+1)` `(g+8, 2t..2t+1)` `(g, 2t+8..2t+9)` `(g+8, 2t+8..2t+9)` |
//! | B 16×8 bf16/f16 (K×N, "col") | `b[0]` `b[1]` | `(k = 2t..2t+1, n = g)` `(k = 2t+8..2t+9, n = g)` |
//! | C, D 16×8 f32 (both shapes) | `c[0]` `c[1]` `c[2]` `c[3]` | `(g, 2t)` `(g, 2t+1)` `(g+8, 2t)` `(g+8, 2t+1)` |
//!
//! (For the 16-bit types, `2t..2t+1` is a packed pair: column `2t` in the low half.)
//!
//! `ldmatrix.m8n8.xN.b16` loads `N` (1, 2, 4) 8×8 matrices of 16-bit elements from shared memory:
//! lanes `8i .. 8i+8` each give the address of one 16-byte row (rows 0..8 in lane order) of matrix `i`
//! (the other lanes' addresses are not used for `N < 4`), and register `i` of lane `lane` receives
//! matrix `i`'s elements `(row g, cols 2t, 2t+1)`, packed with column `2t` low. With `.trans` it
//! receives the transposed matrix's elements instead: `(row 2t, col g)` low and `(row 2t+1, col g)` high.
//! That is exactly the A fragment of `m16n8k16` (x4: matrices = the four 8×8 quarters in the order
//! top-left, bottom-left, top-right, bottom-right), and, with `.trans` from a K×N row-major tile, the B
//! fragment (x2: the k = 0..8 and k = 8..16 halves).
use super::mem::View;

/// Packs two 16-bit values (bf16 or f16 bit patterns) into one `u32` operand register: `lo` is the
/// element with the lower column / `k` index. Plain integer code on both targets.
#[inline(always)]
pub fn pack_b16(lo: u16, hi: u16) -> u32 {
    lo as u32 | (hi as u32) << 16
}

/// Rounds an `f32` to TF32 (`cvt.rna.tf32.f32`: round to nearest, ties away from zero, to a 10-bit
/// mantissa). The result is the bit pattern of an `f32` whose low 13 bits are zero, as the `a` and `b`
/// operands of [`mma_m16n8k8_tf32`] take it. Thread-local (not a warp-collective).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn to_tf32(x: f32) -> u32 {
    let r: u32;
    // SAFETY: a register-to-register conversion; no memory, no preconditions.
    unsafe {
        core::arch::asm!("cvt.rna.tf32.f32 {r}, {x};", r = out(reg32) r, x = in(reg32) x, options(pure, nomem, nostack, preserves_flags));
    }
    r
}

/// Host implementation of [`to_tf32`]: the same rounding on the bit pattern (adding half an ulp of
/// TF32 to the magnitude rounds ties away from zero; a carry into the exponent gives the next binade
/// or infinity, as it should). NaN stays a NaN.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn to_tf32(x: f32) -> u32 {
    if x.is_nan() {
        return 0x7fff_ffff;
    }
    x.to_bits().wrapping_add(0x1000) & 0xffff_e000
}

/// `D = A·B + C` on a 16×8×8 tile in TF32 with `f32` accumulation
/// (`mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`): `2·16·8·8 = 2048` FLOPs per warp.
///
/// `a`: this lane's A fragment (16×8, TF32 bit patterns), `b`: its B fragment (8×8, K×N), `c`: its
/// accumulator fragment (16×8); returns its D fragment, in the same layout as `c`. Layouts: see the
/// module documentation. The tensor core reads only the top 19 bits of each `a`/`b` word.
///
/// Warp-collective: all 32 lanes of the warp must call it together (see the module documentation).
///
/// # Safety
/// All 32 lanes of the warp call it together, converged (see the module documentation): a
/// divergent or partial-warp `mma.sync` is undefined on the GPU.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn mma_m16n8k8_tf32(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    let d: [f32; 4];
    // SAFETY: register operands only, no memory. Not `pure`: a warp-collective must not be
    // speculated into or out of control flow by the optimiser; convergence is the caller's contract.
    unsafe {
        let (d0, d1, d2, d3): (f32, f32, f32, f32);
        core::arch::asm!(
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, {{{c0}, {c1}, {c2}, {c3}}};",
            d0 = out(reg32) d0, d1 = out(reg32) d1, d2 = out(reg32) d2, d3 = out(reg32) d3,
            a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
            b0 = in(reg32) b[0], b1 = in(reg32) b[1],
            c0 = in(reg32) c[0], c1 = in(reg32) c[1], c2 = in(reg32) c[2], c3 = in(reg32) c[3],
            options(nomem, nostack, preserves_flags)
        );
        d = [d0, d1, d2, d3];
    }
    d
}

/// `D = A·B + C` on a 16×8×16 tile in BF16 with `f32` accumulation
/// (`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`): `2·16·8·16 = 4096` FLOPs per warp.
///
/// `a`: this lane's A fragment (16×16, two bf16 per word), `b`: its B fragment (16×8, K×N, two bf16
/// per word), `c`: its accumulator fragment; returns its D fragment. Layouts: see the module
/// documentation. Warp-collective: all 32 lanes of the warp must call it together.
///
/// # Safety
/// All 32 lanes of the warp call it together, converged (see the module documentation): a
/// divergent or partial-warp `mma.sync` is undefined on the GPU.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn mma_m16n8k16_bf16(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    let d: [f32; 4];
    // SAFETY: as in `mma_m16n8k8_tf32`.
    unsafe {
        let (d0, d1, d2, d3): (f32, f32, f32, f32);
        core::arch::asm!(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, {{{c0}, {c1}, {c2}, {c3}}};",
            d0 = out(reg32) d0, d1 = out(reg32) d1, d2 = out(reg32) d2, d3 = out(reg32) d3,
            a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
            b0 = in(reg32) b[0], b1 = in(reg32) b[1],
            c0 = in(reg32) c[0], c1 = in(reg32) c[1], c2 = in(reg32) c[2], c3 = in(reg32) c[3],
            options(nomem, nostack, preserves_flags)
        );
        d = [d0, d1, d2, d3];
    }
    d
}

/// `D = A·B + C` on a 16×8×16 tile in FP16 with `f32` accumulation
/// (`mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`): `2·16·8·16 = 4096` FLOPs per warp.
///
/// As [`mma_m16n8k16_bf16`], with IEEE half-precision operands.
///
/// # Safety
/// All 32 lanes of the warp call it together, converged (see the module documentation): a
/// divergent or partial-warp `mma.sync` is undefined on the GPU.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn mma_m16n8k16_f16(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    let d: [f32; 4];
    // SAFETY: as in `mma_m16n8k8_tf32`.
    unsafe {
        let (d0, d1, d2, d3): (f32, f32, f32, f32);
        core::arch::asm!(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, {{{c0}, {c1}, {c2}, {c3}}};",
            d0 = out(reg32) d0, d1 = out(reg32) d1, d2 = out(reg32) d2, d3 = out(reg32) d3,
            a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
            b0 = in(reg32) b[0], b1 = in(reg32) b[1],
            c0 = in(reg32) c[0], c1 = in(reg32) c[1], c2 = in(reg32) c[2], c3 = in(reg32) c[3],
            options(nomem, nostack, preserves_flags)
        );
        d = [d0, d1, d2, d3];
    }
    d
}

/// The 32-bit `.shared` address of a generic pointer into shared memory (`cvta.to.shared.u64` and a
/// truncation: shared-window offsets fit in 32 bits), what `ldmatrix` takes.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn shared_address<T>(p: *const T) -> u32 {
    let a: u32;
    // SAFETY: an address conversion in registers; no memory is accessed. The caller's contract (a
    // pointer into this block's shared memory) makes the result meaningful.
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 sa; cvta.to.shared.u64 sa, {p}; cvt.u32.u64 {a}, sa; }}",
            p = in(reg64) p as u64,
            a = out(reg32) a,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    a
}

/// Declares one `ldmatrix` wrapper: its GPU implementation (the instruction with `$n` result
/// registers) and its host implementation (the warp exchange and the ISA's distribution).
macro_rules! ldmatrix {
    ($(#[$doc:meta])* $name:ident, $n:literal, $op:literal, $ptx:literal, $trans:literal, [$($r:ident),+]) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `tile` is a view of this block's shared memory and, in every lane, `row + 8 <= tile.len()`
        /// (the address is computed in every lane). For the lanes whose address the instruction uses
        /// (lanes `0 .. 8·N`), the row also starts 16-byte aligned (shared tiles start 16-byte
        /// aligned: `row % 8 == 0` then suffices), and no thread writes those elements between the
        /// last barrier and this load. On sm_80 and later the other lanes' rows are not read (on
        /// sm_75 they must be valid too, e.g. repeat lanes `0 .. 8·N`'s). Warp-collective: all 32
        /// lanes of the warp must call it together.
        #[cfg(target_arch = "nvptx64")]
        #[inline(always)]
        pub unsafe fn $name(tile: View<u16>, row: usize) -> [u32; $n] {
            // SAFETY: the view is non-empty and in range by the caller's contract (unchecked on the GPU); the
            // base address is loop-invariant (hoisted), the row offset a 32-bit add.
            let addr = shared_address(unsafe { tile.ptr(0) }) + 2 * row as u32;
            $(let $r: u32;)+
            // SAFETY: reads 16 bytes of shared memory per used lane, at addresses the caller vouches
            // for; `readonly` without `pure`: it must stay after the writes and the barrier that
            // precede it, and a warp-collective must not be speculated.
            unsafe {
                core::arch::asm!(
                    $ptx,
                    $($r = out(reg32) $r,)+
                    addr = in(reg32) addr,
                    options(readonly, nostack, preserves_flags)
                );
            }
            [$($r),+]
        }

        $(#[$doc])*
        ///
        /// Host implementation: each used lane reads its row (checked: in the view, inside the
        /// block's shared memory, 16-byte aligned), the other lanes check only that their row is in
        /// the view, then the warp exchanges the rows.
        ///
        /// # Safety
        /// As the GPU version.
        #[cfg(not(target_arch = "nvptx64"))]
        #[track_caller]
        pub unsafe fn $name(tile: View<u16>, row: usize) -> [u32; $n] {
            let words = if (super::thread::lane_id() as usize) < 8 * $n {
                // SAFETY: the view is valid by the caller's contract; the read is checked.
                unsafe { host_impl::read_row(tile, row) }
            } else {
                // SAFETY: only the range check of `sub`; nothing is read.
                let _ = unsafe { tile.sub(row, 8) };
                [0; super::host::LANE_WORDS]
            };
            let (lane, rows) = super::host::warp_exchange($op, words);
            core::array::from_fn(|i| host_impl::ldmatrix_reg(&rows, lane, i, $trans))
        }
    };
}

ldmatrix!(
    /// `ldmatrix.sync.aligned.m8n8.x4.shared.b16`: loads four 8×8 matrices of 16-bit elements from
    /// shared memory; lane `l`'s `row` is the element offset (in `tile`) of row `l % 8` of matrix
    /// `l / 8`, and register `i` of the result is this lane's fragment of matrix `i` (module docs).
    ldmatrix_x4, 4, "ldmatrix.x4", "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{r0}, {r1}, {r2}, {r3}}}, [{addr}];", false, [r0, r1, r2, r3]
);
ldmatrix!(
    /// `ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16`: as [`ldmatrix_x4`], each matrix transposed
    /// on the way (lane `l` receives `(row 2t, col g)` low and `(row 2t+1, col g)` high).
    ldmatrix_x4_trans, 4, "ldmatrix.x4.trans", "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{{r0}, {r1}, {r2}, {r3}}}, [{addr}];", true, [r0, r1, r2, r3]
);
ldmatrix!(
    /// `ldmatrix.sync.aligned.m8n8.x2.shared.b16`: loads two 8×8 matrices of 16-bit elements; lanes
    /// 0–15 give the row addresses (lane `l`: row `l % 8` of matrix `l / 8`), lanes 16–31's are unused.
    ldmatrix_x2, 2, "ldmatrix.x2", "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {{{r0}, {r1}}}, [{addr}];", false, [r0, r1]
);
ldmatrix!(
    /// `ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16`: as [`ldmatrix_x2`], each matrix transposed
    /// (the B fragment of `m16n8k16` from a K×N row-major tile: matrix 0 = k 0..8, matrix 1 = k 8..16).
    ldmatrix_x2_trans, 2, "ldmatrix.x2.trans", "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{{r0}, {r1}}}, [{addr}];", true, [r0, r1]
);

/// Host implementation of [`mma_m16n8k8_tf32`] (see the GPU version's documentation): the warp
/// exchanges its fragments, and each lane computes its four outputs in `f64` from the top 19 bits of
/// each operand, plus its own `c`, rounded once to `f32`.
///
/// # Safety
/// As the GPU version (the CPU executor reports a partial or divergent warp as an error).
#[cfg(not(target_arch = "nvptx64"))]
pub unsafe fn mma_m16n8k8_tf32(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    host_impl::mma("mma.m16n8k8.f32.tf32.tf32.f32", host_impl::Operands::Tf32, a, b, c)
}

/// Host implementation of [`mma_m16n8k16_bf16`] (see the GPU version's documentation): exact bf16
/// operands, `f64` sums, one rounding to `f32`.
///
/// # Safety
/// As the GPU version (the CPU executor reports a partial or divergent warp as an error).
#[cfg(not(target_arch = "nvptx64"))]
pub unsafe fn mma_m16n8k16_bf16(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    host_impl::mma("mma.m16n8k16.f32.bf16.bf16.f32", host_impl::Operands::Bf16, a, b, c)
}

/// Host implementation of [`mma_m16n8k16_f16`] (see the GPU version's documentation): exact f16
/// operands, `f64` sums, one rounding to `f32`.
///
/// # Safety
/// As the GPU version (the CPU executor reports a partial or divergent warp as an error).
#[cfg(not(target_arch = "nvptx64"))]
pub unsafe fn mma_m16n8k16_f16(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    host_impl::mma("mma.m16n8k16.f32.f16.f16.f32", host_impl::Operands::F16, a, b, c)
}

/// The exact value of an IEEE binary16 bit pattern (host builds: the emulated tensor cores' FP16 inputs).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn f16_bits_to_f64(h: u16) -> f64 {
    host_impl::f16_to_f64(h)
}

/// The host side of the warp-collectives: fragment layouts (the PTX ISA's, as in the module docs).
#[cfg(not(target_arch = "nvptx64"))]
mod host_impl {
    use super::super::host::{self, LaneWords, LANE_WORDS, WARP_SIZE};
    use super::super::mem::View;

    /// The operand type of an `mma`, which fixes K and the A/B fragment layout.
    #[derive(Clone, Copy)]
    pub(super) enum Operands {
        Tf32,
        Bf16,
        F16,
    }

    impl Operands {
        fn k(self) -> usize {
            match self {
                Operands::Tf32 => 8,
                Operands::Bf16 | Operands::F16 => 16,
            }
        }
    }

    /// Deposit layout of an mma lane: `a` in words 0..4, `b` in 4..6 (the lane's own `c` stays local).
    const B0: usize = 4;

    /// The value of the 32-bit (TF32) or 16-bit element `half` (0: low, 1: high) of `word`.
    fn value(ty: Operands, word: u32, half: usize) -> f64 {
        match ty {
            // The tensor core uses sign, exponent and the top 10 mantissa bits.
            Operands::Tf32 => f32::from_bits(word & 0xffff_e000) as f64,
            Operands::Bf16 => f32::from_bits((word >> (16 * half)) << 16) as f64,
            Operands::F16 => f16_to_f64((word >> (16 * half)) as u16),
        }
    }

    /// An IEEE binary16 bit pattern's exact value.
    pub(crate) fn f16_to_f64(h: u16) -> f64 {
        let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
        let (exp, man) = ((h >> 10) & 0x1f, (h & 0x3ff) as f64);
        match exp {
            0 => sign * man * 2f64.powi(-24),
            31 if man == 0.0 => sign * f64::INFINITY,
            31 => f64::NAN,
            e => sign * (1024.0 + man) * 2f64.powi(e as i32 - 25),
        }
    }

    /// Element A(row, k) from the warp's deposits.
    fn a_at(ty: Operands, all: &[LaneWords; WARP_SIZE], row: usize, k: usize) -> f64 {
        match ty {
            // (g, t) (g+8, t) (g, t+4) (g+8, t+4)
            Operands::Tf32 => value(ty, all[(row % 8) * 4 + k % 4][row / 8 + 2 * (k / 4)], 0),
            // (g, 2t..2t+1) (g+8, 2t..2t+1) (g, 2t+8..) (g+8, 2t+8..)
            Operands::Bf16 | Operands::F16 => value(ty, all[(row % 8) * 4 + (k % 8) / 2][row / 8 + 2 * (k / 8)], k % 2),
        }
    }

    /// Element B(k, n) from the warp's deposits.
    fn b_at(ty: Operands, all: &[LaneWords; WARP_SIZE], k: usize, n: usize) -> f64 {
        match ty {
            // (k = t, n = g) (k = t+4, n = g)
            Operands::Tf32 => value(ty, all[n * 4 + k % 4][B0 + k / 4], 0),
            // (k = 2t..2t+1, n = g) (k = 2t+8..2t+9, n = g)
            Operands::Bf16 | Operands::F16 => value(ty, all[n * 4 + (k % 8) / 2][B0 + k / 8], k % 2),
        }
    }

    /// One lane's part of an mma: exchange the A and B fragments, compute this lane's D fragment.
    pub(super) fn mma(op: &'static str, ty: Operands, a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        let mut words = [0u32; LANE_WORDS];
        words[..4].copy_from_slice(&a);
        words[B0..B0 + 2].copy_from_slice(&b);
        let (lane, all) = host::warp_exchange(op, words);
        let (g, t) = (lane / 4, lane % 4);
        core::array::from_fn(|i| {
            // C/D: (g, 2t) (g, 2t+1) (g+8, 2t) (g+8, 2t+1)
            let (row, col) = (g + 8 * (i / 2), 2 * t + i % 2);
            let sum = (0..ty.k()).fold(c[i] as f64, |acc, k| acc + a_at(ty, &all, row, k) * b_at(ty, &all, k, col));
            sum as f32
        })
    }

    /// Reads the 8 16-bit elements `row .. row + 8` of `tile` as one lane's `ldmatrix` row, packed two
    /// per word (lower column low), after checking that they are in the view, in this block's shared
    /// memory and 16-byte aligned (faults as an out-of-bounds access otherwise).
    ///
    /// # Safety
    /// `tile` is a valid view (its accesses are checked).
    #[track_caller]
    pub(super) unsafe fn read_row(tile: View<u16>, row: usize) -> LaneWords {
        // SAFETY: `sub` and `get` check the range on the host.
        let r = unsafe { tile.sub(row, 8) };
        // SAFETY: 0 < 8 = r.len(), checked by `ptr` too.
        let addr = unsafe { r.ptr(0) } as usize;
        let (base, bytes) = host::with(|ctx| (ctx.shared.base as usize, ctx.shared.bytes));
        if addr < base || addr + 16 > base + bytes {
            host::out_of_bounds(format_args!(
                "ldmatrix row at element {row} (address {addr:#x}) is not inside this block's {bytes} bytes of dynamic \
                 shared memory: ldmatrix reads shared memory only"
            ));
        }
        if !(addr - base).is_multiple_of(16) {
            host::out_of_bounds(format_args!(
                "ldmatrix row at element {row} is at shared byte offset {}, not 16-byte aligned",
                addr - base
            ));
        }
        let mut words = [0u32; LANE_WORDS];
        for (j, w) in words[..4].iter_mut().enumerate() {
            // SAFETY: 2j + 1 < 8 = r.len() (checked again by `get`).
            *w = unsafe { super::pack_b16(r.get(2 * j), r.get(2 * j + 1)) };
        }
        words
    }

    /// Element `col` (0..8) of the row a lane deposited.
    fn row_element(row: &LaneWords, col: usize) -> u16 {
        (row[col / 2] >> (16 * (col % 2))) as u16
    }

    /// Register `i` of `lane`'s `ldmatrix` result: matrix `i`'s (row g, cols 2t, 2t+1), or with
    /// `.trans` (row 2t, col g) and (row 2t+1, col g); matrix `i`'s row `r` came from lane `8i + r`.
    pub(super) fn ldmatrix_reg(rows: &[LaneWords; WARP_SIZE], lane: usize, i: usize, trans: bool) -> u32 {
        let (g, t) = (lane / 4, lane % 4);
        if trans {
            let lo = row_element(&rows[8 * i + 2 * t], g);
            let hi = row_element(&rows[8 * i + 2 * t + 1], g);
            super::pack_b16(lo, hi)
        } else {
            rows[8 * i + g][t]
        }
    }
}
