//! The Tensor Memory Accelerator (TMA, sm_90): one thread asks the copy engine for a whole 2-D box of
//! a global tensor, which lands in shared memory (here in the 128-byte swizzle layout the `wgmma`
//! descriptors read, [`super::wgmma`]) and signals an [`super::mbarrier`] with its byte count. Elements
//! of the box outside the tensor are filled with zeros, so tiles at the matrix edges need no guards.
//!
//! The tensor is described by a [`TensorMap`] (CUDA's `CUtensorMap`, 128 opaque bytes): base address,
//! element size, the two dimensions (inner first), the outer dimension's stride in bytes, the box and
//! the swizzle — or three dimensions ([`load_3d`]: a stack of matrices, one box from one of them). The host encodes it (`cuTensorMapEncodeTiled`) into global memory before the launch;
//! the kernel passes its address to the instruction and never reads it.
//!
//! The host build (the CPU executor) performs each copy at once on the calling thread, from a map in
//! the model's own encoding ([`TensorMap::host_model`]): the box elements, zeros outside the tensor,
//! written through the same swizzle, then the barrier's transaction bytes completed.

/// A TMA tensor map (`CUtensorMap`): 128 bytes, 64-byte aligned. On the GPU the driver's encoding; in
/// a host build, the model's ([`TensorMap::host_model`]).
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// The 128 bytes, as the driver (or the host model) encodes them.
    pub words: [u64; 16],
}

/// `cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes`: copies the box
/// of `map` whose first element has coordinates `(c0, c1)` (inner, outer; may lie partly or wholly
/// outside the tensor: those elements read as zero) to shared byte address `dst`, and completes its
/// byte count on the barrier `bar` (announced beforehand with [`super::mbarrier::arrive_expect_tx`]).
///
/// # Safety
/// `map` points to a valid tensor map in global (or constant/param) memory, unchanged while copies
/// from it are in flight; `dst` is a shared address with room for the box (`box0 · box1 · elem`
/// bytes), aligned to 1024 bytes for the 128-byte swizzle (128 otherwise); `bar` is an initialised
/// barrier of this block; nothing reads `dst` before `bar`'s phase completes.
#[inline(always)]
pub unsafe fn load_2d(dst: u32, map: *const TensorMap, c0: i32, c1: i32, bar: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: register operands only; the caller's contract covers the addresses. A memory clobber.
    unsafe {
        core::arch::asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{dst}], [{map}, {{{c0}, {c1}}}], [{bar}];",
            dst = in(reg32) dst,
            map = in(reg64) map as u64,
            c0 = in(reg32) c0,
            c1 = in(reg32) c1,
            bar = in(reg32) bar,
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded contract.
    unsafe {
        host_impl::load(dst, map, [c0, c1, 0], 2, bar)
    }
}

/// `cp.async.bulk.tensor.3d…`: [`load_2d`] from matrix `c2` of a 3-D map (a stack of matrices, the
/// batch of a strided-batched product or the weights of a grouped one): the box covers
/// `(c0, c1)` as in [`load_2d`] and one layer; a layer outside the stack reads as zeros.
///
/// # Safety
/// As [`load_2d`], with `map` a 3-D map whose box is one layer deep.
#[inline(always)]
pub unsafe fn load_3d(dst: u32, map: *const TensorMap, c0: i32, c1: i32, c2: i32, bar: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: register operands only; the caller's contract covers the addresses. A memory clobber.
    unsafe {
        core::arch::asm!(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{dst}], [{map}, {{{c0}, {c1}, {c2}}}], [{bar}];",
            dst = in(reg32) dst,
            map = in(reg64) map as u64,
            c0 = in(reg32) c0,
            c1 = in(reg32) c1,
            c2 = in(reg32) c2,
            bar = in(reg32) bar,
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded contract.
    unsafe {
        host_impl::load(dst, map, [c0, c1, c2], 3, bar)
    }
}

/// [`load_2d`] with `.multicast::cluster`: the box lands at shared byte `dst` of every block of the
/// cluster whose rank's bit is set in `ranks`, and completes its byte count on the barrier at offset
/// `bar` of each of those blocks (the same offsets as in this block). Two blocks that need the same
/// operand tile read it from L2 once.
///
/// # Safety
/// As [`load_2d`] for every block in `ranks` (each a block of this cluster, its barrier at `bar`
/// initialised and published to the cluster, its stage at `dst` free); launched in a cluster.
#[inline(always)]
pub unsafe fn load_2d_multicast(dst: u32, map: *const TensorMap, c0: i32, c1: i32, bar: u32, ranks: u16) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: register operands only; the caller's contract covers the addresses. A memory clobber.
    unsafe {
        core::arch::asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{dst}], [{map}, {{{c0}, {c1}}}], [{bar}], {ranks};",
            dst = in(reg32) dst,
            map = in(reg64) map as u64,
            c0 = in(reg32) c0,
            c1 = in(reg32) c1,
            bar = in(reg32) bar,
            ranks = in(reg16) ranks,
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    for rank in (0..16u32).filter(|r| ranks >> r & 1 == 1) {
        // SAFETY: forwarded contract, for each block of `ranks` (`map_shared` checks the rank).
        unsafe {
            let (dst, bar) = (super::cluster::map_shared(dst, rank), super::cluster::map_shared(bar, rank));
            host_impl::load(dst, map, [c0, c1, 0], 2, bar)
        }
    }
}

/// `cp.async.bulk.tensor.2d.global.shared::cta.bulk_group`: copies the box at shared byte `src` (in
/// the map's swizzle) to the box of `map` whose first element has coordinates `(c0, c1)`; elements of
/// the box outside the tensor are not written, so tiles at the matrix edges need no guards. The copy
/// joins this thread's current bulk group ([`commit_stores`]); `src` may be rewritten only after
/// [`wait_stores_read`].
///
/// # Safety
/// `map` points to a valid tensor map over global memory nobody else touches where the box lands
/// during the copy; `src` is a shared address holding the box (`box0 · box1 · elem` bytes), 1024-byte
/// aligned for the 128-byte swizzle (128 otherwise), its writes made visible to the copy engine
/// first ([`fence_shared_to_async`], then a barrier among the writers).
#[inline(always)]
pub unsafe fn store_2d(map: *const TensorMap, c0: i32, c1: i32, src: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: register operands only; the caller's contract covers the addresses. A memory clobber.
    unsafe {
        core::arch::asm!(
            "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [{map}, {{{c0}, {c1}}}], [{src}];",
            map = in(reg64) map as u64,
            c0 = in(reg32) c0,
            c1 = in(reg32) c1,
            src = in(reg32) src,
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded contract.
    unsafe {
        host_impl::store_2d(map, c0, c1, src)
    }
}

/// `cp.async.bulk.commit_group`: closes this thread's current bulk group of [`store_2d`] copies.
///
/// # Safety
/// None beyond being called by the thread that issued the copies (an instruction without operands).
#[inline(always)]
pub unsafe fn commit_stores() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no operands.
    unsafe {
        core::arch::asm!("cp.async.bulk.commit_group;", options(nostack, preserves_flags))
    }
}

/// `cp.async.bulk.wait_group.read 0`: waits until every committed bulk group of this thread has read
/// its shared source, which may then be rewritten (the global writes may still be in flight).
///
/// # Safety
/// None beyond being called by the thread that issued the copies.
#[inline(always)]
pub unsafe fn wait_stores_read() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no register operands; a memory clobber orders later shared writes after the wait.
    unsafe {
        core::arch::asm!("cp.async.bulk.wait_group.read 0;", options(nostack, preserves_flags))
    }
}

/// `cp.async.bulk.wait_group 0`: waits until every committed bulk group of this thread has completed,
/// its global writes performed.
///
/// # Safety
/// None beyond being called by the thread that issued the copies.
#[inline(always)]
pub unsafe fn wait_stores() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no register operands; a memory clobber.
    unsafe {
        core::arch::asm!("cp.async.bulk.wait_group 0;", options(nostack, preserves_flags))
    }
}

/// `fence.proxy.async.shared::cta`: makes this thread's earlier writes to shared memory visible to the
/// copy engine (the async proxy), before a [`store_2d`] that reads them.
///
/// # Safety
/// None (a fence).
#[inline(always)]
pub unsafe fn fence_shared_to_async() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no operands; a memory clobber.
    unsafe {
        core::arch::asm!("fence.proxy.async.shared::cta;", options(nostack, preserves_flags))
    }
}

/// `prefetch.tensormap [map]`: brings the tensor map into the TMA unit's cache ahead of the first
/// copy (one thread, once per kernel).
///
/// # Safety
/// `map` points to a valid tensor map (as [`load_2d`]).
#[inline(always)]
pub unsafe fn prefetch(map: *const TensorMap) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: an address operand; a prefetch has no architectural effect on memory.
    unsafe {
        core::arch::asm!("prefetch.tensormap [{map}];", map = in(reg64) map as u64, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = map;
}

#[cfg(not(target_arch = "nvptx64"))]
const HOST_MODEL_TAG: u64 = 0x7465_7373_6572_614D; // "tesseraM"

#[cfg(not(target_arch = "nvptx64"))]
impl TensorMap {
    /// The host model's map of a 2-D tensor at `base`: `dims` elements of `elem_bytes` (inner
    /// dimension first), the outer dimension `row_stride` bytes apart, boxes of `boxdim` elements,
    /// written with the 128-byte swizzle when `swizzle_128` (then `boxdim[0] · elem_bytes` must be 128).
    /// Only the host build's [`load_2d`] reads it; the GPU takes the driver's encoding instead.
    pub fn host_model(base: *const u8, elem_bytes: u32, dims: [u64; 2], row_stride: u64, boxdim: [u32; 2], swizzle_128: bool) -> Self {
        Self::encode_host(2, base, elem_bytes, [dims[0], dims[1], 1], [row_stride, 0], boxdim, swizzle_128)
    }

    /// [`TensorMap::host_model`] of a 3-D tensor: `dims[2]` matrices `strides[1]` bytes apart, each as
    /// a 2-D map's (`strides[0]` between rows), boxes one matrix deep. Only [`load_3d`] reads it.
    pub fn host_model_3d(base: *const u8, elem_bytes: u32, dims: [u64; 3], strides: [u64; 2], boxdim: [u32; 2], swizzle_128: bool) -> Self {
        Self::encode_host(3, base, elem_bytes, dims, strides, boxdim, swizzle_128)
    }

    fn encode_host(rank: u64, base: *const u8, elem: u32, dims: [u64; 3], strides: [u64; 2], boxdim: [u32; 2], swizzle: bool) -> Self {
        let mut words = [0u64; 16];
        words[..12].copy_from_slice(&[
            HOST_MODEL_TAG,
            base as u64,
            elem as u64,
            dims[0],
            dims[1],
            strides[0],
            boxdim[0] as u64,
            boxdim[1] as u64,
            swizzle as u64,
            dims[2],
            strides[1],
            rank,
        ]);
        Self { words }
    }
}

#[cfg(not(target_arch = "nvptx64"))]
mod host_impl {
    use super::super::wgmma::swizzle_sw128;
    use super::super::{host, mbarrier};
    use super::{TensorMap, HOST_MODEL_TAG};

    /// A `rank`-D load (2 or 3) of the box at `c` (the third coordinate 0 for a 2-D map); `dst` and
    /// `bar` are shared::cluster addresses (this block's own bytes, or a peer's).
    ///
    /// # Safety
    /// `map` points to a `TensorMap` made by [`TensorMap::host_model`] or
    /// [`TensorMap::host_model_3d`] over memory that holds the tensor it describes.
    pub(super) unsafe fn load(dst: u32, map: *const TensorMap, c: [i32; 3], rank: u64, bar: u32) {
        // SAFETY: the caller's contract.
        let w = unsafe { (*map).words };
        if w[0] != HOST_MODEL_TAG {
            host::out_of_bounds(format_args!("TMA load from a tensor map the host model did not make"));
        }
        if w[11] != rank {
            host::out_of_bounds(format_args!("a {rank}-D TMA load from a {}-D tensor map", w[11]));
        }
        let (base, elem, dims, stride) = (w[1] as *const u8, w[2] as usize, [w[3] as i64, w[4] as i64, w[9] as i64], w[5] as usize);
        let (box0, box1, swizzle, layer_stride) = (w[6] as usize, w[7] as usize, w[8] != 0, w[10] as usize);
        let bytes = box0 * box1 * elem;
        let (region, dst) = host::cluster_region(dst);
        let shared_bytes = region.bytes;
        let align = if swizzle { 1024 } else { 128 };
        if !dst.is_multiple_of(align) || dst + bytes > shared_bytes || (swizzle && box0 * elem != 128) {
            host::out_of_bounds(format_args!(
                "TMA box of {box0}×{box1} × {elem} bytes to shared byte {dst}: outside the block's {shared_bytes} bytes, \
                 not {align}-byte aligned, or not 128-byte rows under the 128-byte swizzle"
            ));
        }
        let smem = region.base;
        let layer = c[2] as i64;
        for j in 0..box1 {
            for i in 0..box0 {
                let (g0, g1) = (c[0] as i64 + i as i64, c[1] as i64 + j as i64);
                let at = dst + (j * box0 + i) * elem;
                let phys = if swizzle { swizzle_sw128(at as u32) as usize } else { at };
                let inside = (0..dims[0]).contains(&g0) && (0..dims[1]).contains(&g1) && (0..dims[2]).contains(&layer);
                for b in 0..elem {
                    // SAFETY: an in-range element of the tensor (the map's contract) or nothing; `phys`
                    // lies inside the checked box (the swizzle permutes 16-byte chunks within 1024).
                    unsafe {
                        let v = if inside {
                            base.add(layer as usize * layer_stride + g1 as usize * stride + g0 as usize * elem + b).read()
                        } else {
                            0
                        };
                        smem.add(phys + b).write(v);
                    }
                }
            }
        }
        mbarrier::host_update(bar, -(bytes as i64), 0);
    }

    /// The host model's [`super::store_2d`], performed at once: the box's elements inside the tensor
    /// written from this block's shared memory at `src` (through the map's swizzle), the rest dropped.
    ///
    /// # Safety
    /// As [`load_2d`], with the tensor's memory writable.
    pub(super) unsafe fn store_2d(map: *const TensorMap, c0: i32, c1: i32, src: u32) {
        // SAFETY: the caller's contract.
        let w = unsafe { (*map).words };
        if w[0] != HOST_MODEL_TAG {
            host::out_of_bounds(format_args!("TMA store to a tensor map the host model did not make"));
        }
        if w[11] != 2 {
            host::out_of_bounds(format_args!("a 2-D TMA store to a {}-D tensor map", w[11]));
        }
        let (base, elem, dims, stride) = (w[1] as *mut u8, w[2] as usize, [w[3] as i64, w[4] as i64], w[5] as usize);
        let (box0, box1, swizzle) = (w[6] as usize, w[7] as usize, w[8] != 0);
        let bytes = box0 * box1 * elem;
        let (region, src) = host::cluster_region(src);
        let align = if swizzle { 1024 } else { 128 };
        if !src.is_multiple_of(align) || src + bytes > region.bytes || (swizzle && box0 * elem != 128) {
            host::out_of_bounds(format_args!(
                "TMA store of a {box0}×{box1} × {elem}-byte box from shared byte {src}: outside the block's {} bytes, \
                 not {align}-byte aligned, or not 128-byte rows under the 128-byte swizzle",
                region.bytes
            ));
        }
        for j in 0..box1 {
            for i in 0..box0 {
                let (g0, g1) = (c0 as i64 + i as i64, c1 as i64 + j as i64);
                if !((0..dims[0]).contains(&g0) && (0..dims[1]).contains(&g1)) {
                    continue;
                }
                let at = src + (j * box0 + i) * elem;
                let phys = if swizzle { swizzle_sw128(at as u32) as usize } else { at };
                for b in 0..elem {
                    // SAFETY: an in-range element of the tensor (the map's contract); `phys` lies
                    // inside the checked box.
                    unsafe { base.add(g1 as usize * stride + g0 as usize * elem + b).write(region.base.add(phys + b).read()) };
                }
            }
        }
    }
}
