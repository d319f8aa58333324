//! Thread-block clusters (sm_90): blocks launched together on one GPC that read and signal each
//! other's shared memory. A kernel states its cluster at compile time (`.reqnctapercluster`, from its
//! `TileConfig::cluster`); the grid is then tiled by clusters (blocks `c·n .. c·n + n` of `x` form
//! cluster `c` for a cluster of `n × 1 × 1`).
//!
//! A block names its peers' shared memory through shared::cluster addresses ([`map_shared`]): an
//! `mbarrier` arrival on a peer's barrier ([`super::mbarrier::arrive_cluster`]) or a TMA copy that
//! lands in several blocks at once ([`super::tma::load_2d_multicast`]). A block's own shared::cta
//! addresses are valid shared::cluster addresses of itself.
//!
//! The host build runs the blocks of a cluster together (the executor interleaves their threads), a
//! shared::cluster address of a peer as `(rank + 1) << 24 | offset`
//! ([`super::host::CLUSTER_RANK_SHIFT`]).

/// `%cluster_ctarank`: the calling block's rank in its cluster (0 without a cluster).
#[inline(always)]
pub fn rank() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        // SAFETY: reads a special register.
        unsafe { core::arch::asm!("mov.u32 {r}, %cluster_ctarank;", r = out(reg32) r, options(nomem, nostack, preserves_flags)) };
        r
    }
    #[cfg(not(target_arch = "nvptx64"))]
    super::host::with(|ctx| ctx.cluster.rank)
}

/// `mapa.shared::cluster.u32`: the shared::cluster address of byte `addr` (a shared::cta address of
/// the calling block) in the block of rank `rank` of the cluster — the same offset in the peer.
///
/// # Safety
/// `rank` is below the cluster's size; the result is used only while that block runs (a block must
/// not exit while its peers may still access its shared memory).
#[inline(always)]
pub unsafe fn map_shared(addr: u32, rank: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let mapped: u32;
        // SAFETY: register operands only; the caller's contract covers the use of the address.
        unsafe {
            core::arch::asm!(
                "mapa.shared::cluster.u32 {d}, {a}, {r};",
                d = out(reg32) mapped,
                a = in(reg32) addr,
                r = in(reg32) rank,
                options(nomem, nostack, preserves_flags)
            )
        };
        mapped
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let size = super::host::with(|ctx| ctx.cluster.regions.len() as u32);
        if rank >= size || addr >> super::host::CLUSTER_RANK_SHIFT != 0 {
            super::host::out_of_bounds(format_args!("mapa of shared byte {addr:#x} to rank {rank} of a cluster of {size}"));
        }
        (rank + 1) << super::host::CLUSTER_RANK_SHIFT | addr
    }
}

/// `fence.mbarrier_init.release.cluster`: orders this thread's `mbarrier.init`s before its later
/// cluster-scope releases (the [`sync`] that publishes the barriers to the peers' arrivals and
/// multicast copies).
#[inline(always)]
pub fn fence_mbarrier_init() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a fence; a memory clobber.
    unsafe {
        core::arch::asm!("fence.mbarrier_init.release.cluster;", options(nostack, preserves_flags))
    }
}

#[cfg(target_arch = "nvptx64")]
#[allow(improper_ctypes)]
unsafe extern "C" {
    /// `barrier.cluster.arrive.aligned` (release semantics, the default).
    #[link_name = "llvm.nvvm.barrier.cluster.arrive.aligned"]
    fn cluster_arrive_aligned();
    /// `barrier.cluster.wait.aligned` (acquire semantics, the default).
    #[link_name = "llvm.nvvm.barrier.cluster.wait.aligned"]
    fn cluster_wait_aligned();
}

/// `barrier.cluster.arrive.aligned` then `barrier.cluster.wait.aligned` (release, then acquire): waits until
/// every thread of every block of the cluster has arrived; this thread's earlier shared-memory writes
/// (and barrier initialisations, after [`fence_mbarrier_init`]) are visible to the whole cluster
/// after it.
///
/// # Safety
/// Every thread of every block of the cluster reaches it equally often, warps converged (`.aligned`);
/// without a cluster it is a block barrier.
///
/// Through LLVM's intrinsics, not inline assembly: they are `convergent`, so no pass may copy the
/// barrier into paths that only some threads take. An `asm!` block is not: LLVM's jump threading
/// once copied it into a thread-0 branch (an `if thread == 0` on each side of the barrier), and
/// the divergent `.aligned` barrier hung the GPU (`docs/results/2026-12-07-s58`).
#[inline(always)]
pub unsafe fn sync() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: uniform control flow across the cluster is the caller's contract; the intrinsics
    // order memory as the instructions do (release, then acquire).
    unsafe {
        cluster_arrive_aligned();
        cluster_wait_aligned();
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        // Clone the handle first: the barrier suspends this thread.
        let barrier = super::host::with(|ctx| std::sync::Arc::clone(&ctx.barrier));
        barrier.cluster_sync();
    }
}
