//! Thread-block clusters (sm_90): the blocks of a cluster run together, reach each other's shared
//! memory (`mbarrier` arrivals, TMA multicast) and meet at `cluster::sync`; divergences and faults in
//! a cluster come back as errors, never as hangs. Small test kernels written against the device API.
use std::time::{Duration, Instant};

use tessera_emulator::{launch, Dim3, EmuError, Launch, SyncPtr};
use tessera_kernels::device::tma::{self, TensorMap};
use tessera_kernels::device::{cluster, mbarrier, mem::View, shared, thread};

/// The shared byte of each block's `mbarrier` in these kernels.
const BAR: u32 = 0;

/// Far below the executor's wait limit: a case that is detected at once must not wait it out.
const PROMPTLY: Duration = Duration::from_secs(5);

/// Thread 0 of each block of a cluster of `n` blocks arrives on the barrier of the next block
/// (rank `(rank + 1) % n`) and waits for the previous one's arrival on its own, then writes
/// `100 + rank` at the block's linear index in `out`.
unsafe fn ring(out: *mut u32, blocks: usize, n: u32) {
    // SAFETY: the caller passes one u32 per block.
    let out = unsafe { View::new(out, blocks) };
    let (rank, t) = (cluster::rank(), thread::thread_idx_x());
    // SAFETY: the barrier lies in the launch's shared memory, is initialised before the cluster
    // barrier that publishes it, and every block waits at the second cluster barrier until all
    // arrivals on it are done.
    unsafe {
        if t == 0 {
            mbarrier::init(BAR, 1);
            cluster::fence_mbarrier_init();
        }
        cluster::sync();
        if t == 0 {
            mbarrier::arrive_cluster(cluster::map_shared(BAR, (rank + 1) % n));
            mbarrier::wait_parity(BAR, 0);
            let block = thread::block_idx_x() + thread::block_idx_y() * thread::grid_dim_x();
            out.set(block as usize, 100 + rank);
        }
        cluster::sync();
    }
}

#[test]
fn blocks_of_a_cluster_signal_each_others_barriers() {
    let mut out = vec![0u32; 4];
    let p = SyncPtr::new(out.as_mut_ptr());
    let cfg = Launch::new((4, 1, 1), (64, 1, 1), 16).with_cluster((2, 1, 1));
    // SAFETY: out holds one u32 per block.
    launch("ring", cfg, || unsafe { ring(p.get(), 4, 2) }).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, [100, 101, 100, 101]);
}

#[test]
fn ranks_follow_cuda_in_a_2d_cluster() {
    // Grid 4 × 2 in clusters of 2 × 2: rank = bx % 2 + (by % 2) · 2, a ring of 4 per cluster.
    let mut out = vec![0u32; 8];
    let p = SyncPtr::new(out.as_mut_ptr());
    let cfg = Launch::new((4, 2, 1), (32, 1, 1), 16).with_cluster((2, 2, 1));
    // SAFETY: out holds one u32 per block.
    launch("ring_2d", cfg, || unsafe { ring(p.get(), 8, 4) }).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, [100, 101, 100, 101, 102, 103, 102, 103]);
}

/// Without a cluster a block is a cluster of one: rank 0, `cluster::sync` a barrier of the block,
/// `map_shared(_, 0)` the block itself.
#[test]
fn a_launch_without_clusters_is_clusters_of_one() {
    let mut out = vec![0u32; 3];
    let p = SyncPtr::new(out.as_mut_ptr());
    launch("single", Launch::new((3, 1, 1), (64, 1, 1), 16), || {
        // SAFETY: as `ring`, with the block's own barrier; out holds one u32 per block.
        unsafe {
            let out = View::new(p.get(), 3);
            if thread::thread_idx_x() == 0 {
                mbarrier::init(BAR, 64);
            }
            cluster::sync();
            mbarrier::arrive_cluster(cluster::map_shared(BAR, cluster::rank()));
            mbarrier::wait_parity(BAR, 0);
            if thread::thread_idx_x() == 63 {
                out.set(thread::block_idx_x() as usize, 7 + cluster::rank());
            }
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, [7, 7, 7]);
}

/// A TMA copy multicast by rank 0 lands in both blocks' shared memory and completes both barriers.
#[test]
fn tma_multicast_reaches_every_block_of_the_cluster() {
    let src: Vec<f32> = (0..32).map(|i| i as f32).collect();
    let map = TensorMap::host_model(src.as_ptr().cast(), 4, [32, 1], 128, [32, 1], false);
    let mut out = vec![0.0f32; 4 * 32];
    let (pm, po) = (SyncPtr::from_const(&map as *const TensorMap), SyncPtr::new(out.as_mut_ptr()));
    const STAGE: u32 = 128;
    let cfg = Launch::new((4, 1, 1), (32, 1, 1), 256).with_cluster((2, 1, 1));
    launch("multicast", cfg, || {
        // SAFETY: the barrier and the 128-byte stage lie in the 256 bytes of shared memory, are
        // initialised and published before any copy, and no block exits before the last cluster
        // barrier; out holds 32 floats per block, `map` a tensor of 32 floats that outlives the launch.
        unsafe {
            let out = View::new(po.get(), 4 * 32);
            let (rank, t) = (cluster::rank(), thread::thread_idx_x());
            if t == 0 {
                mbarrier::init(BAR, 1);
                cluster::fence_mbarrier_init();
            }
            cluster::sync();
            if t == 0 {
                mbarrier::arrive_expect_tx(BAR, 128);
                if rank == 0 {
                    tma::load_2d_multicast(STAGE, pm.get(), 0, 0, BAR, 0b11);
                }
            }
            mbarrier::wait_parity(BAR, 0);
            let stage = View::new(shared::dynamic::<f32>().add(STAGE as usize / 4), 32);
            let block = thread::block_idx_x() as usize;
            out.set(block * 32 + t as usize, stage.get(t as usize) + 1000.0 * rank as f32);
            cluster::sync();
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    for (block, row) in out.chunks(32).enumerate() {
        let rank = (block % 2) as f32;
        assert!(row.iter().enumerate().all(|(i, &x)| x == i as f32 + 1000.0 * rank), "block {block}: {row:?}");
    }
}

#[test]
fn a_block_that_skips_cluster_sync_is_a_divergent_barrier() {
    let start = Instant::now();
    let cfg = Launch::new((2, 1, 1), (32, 1, 1), 0).with_cluster((2, 1, 1));
    let err = launch("skip", cfg, || {
        if cluster::rank() == 0 {
            // SAFETY: a test of the executor's cluster barrier (rank 1 skips it: the point).
            unsafe { cluster::sync() };
        }
    })
    .unwrap_err();
    assert!(start.elapsed() < PROMPTLY, "took {:?}", start.elapsed());
    match &err {
        EmuError::DivergentBarrier { kernel: "skip", block, detail, .. } => {
            assert_eq!(*block, Dim3::new(0, 0, 0), "{err}");
            assert!(detail.contains("cluster::sync") && detail.contains("of block (1, 0, 0)"), "{err}");
        }
        other => panic!("expected DivergentBarrier, got {other}"),
    }
}

#[test]
fn a_thread_at_sync_threads_while_its_block_waits_at_cluster_sync_is_divergent() {
    let start = Instant::now();
    let cfg = Launch::new((2, 1, 1), (64, 1, 1), 0).with_cluster((2, 1, 1));
    let err = launch("mixed", cfg, || {
        // SAFETY: a test of the executor's barriers (mixing them is the point).
        unsafe {
            if thread::thread_idx_x() == 40 {
                thread::sync_threads();
            } else {
                cluster::sync();
            }
        }
    })
    .unwrap_err();
    assert!(start.elapsed() < PROMPTLY, "took {:?}", start.elapsed());
    match &err {
        EmuError::DivergentBarrier { kernel: "mixed", block, thread, detail } => {
            assert_eq!((*block, *thread), (Dim3::new(0, 0, 0), Dim3::new(40, 0, 0)), "{err}");
            assert!(detail.contains("sync_threads") && detail.contains("cluster::sync"), "{err}");
        }
        other => panic!("expected DivergentBarrier, got {other}"),
    }
}

#[test]
fn a_wait_for_a_peer_arrival_that_never_comes_is_reported() {
    let start = Instant::now();
    let cfg = Launch::new((2, 1, 1), (32, 1, 1), 16).with_cluster((2, 1, 1));
    let err = launch("no_arrival", cfg, || {
        // SAFETY: the barrier lies in the launch's shared memory and is published by the cluster
        // barrier; the missing arrival is the point.
        unsafe {
            if thread::thread_idx_x() == 0 {
                mbarrier::init(BAR, 1);
                cluster::fence_mbarrier_init();
            }
            cluster::sync();
            // Rank 1 should arrive on rank 0's barrier, but returns instead.
            if cluster::rank() == 0 && thread::thread_idx_x() == 0 {
                mbarrier::wait_parity(BAR, 0);
            }
        }
    })
    .unwrap_err();
    assert!(start.elapsed() < PROMPTLY, "took {:?}", start.elapsed());
    match &err {
        EmuError::DivergentBarrier { kernel: "no_arrival", block, thread, detail } => {
            assert_eq!((*block, *thread), (Dim3::new(0, 0, 0), Dim3::new(0, 0, 0)), "{err}");
            assert!(detail.contains("63 of the cluster's 63 other threads") && detail.contains("never completes"), "{err}");
        }
        other => panic!("expected DivergentBarrier, got {other}"),
    }
}

/// The other threads of the waiting block return at once, the peer arrives late: the wait must count
/// the whole cluster as able to complete the phase, not only its own block.
#[test]
fn a_wait_completed_by_a_peer_after_its_own_block_returned_succeeds() {
    let mut out = vec![0u32; 2];
    let p = SyncPtr::new(out.as_mut_ptr());
    let cfg = Launch::new((2, 1, 1), (32, 1, 1), 16).with_cluster((2, 1, 1));
    launch("late_peer", cfg, || {
        // SAFETY: as `ring`: block 0 reads no peer memory after the peer returns, block 1 arrives on
        // block 0's barrier while block 0's thread 0 still waits on it; out holds 2 u32s.
        unsafe {
            let out = View::new(p.get(), 2);
            let t = thread::thread_idx_x();
            if t == 0 {
                mbarrier::init(BAR, 1);
                cluster::fence_mbarrier_init();
            }
            cluster::sync();
            if cluster::rank() == 0 {
                if t == 0 {
                    mbarrier::wait_parity(BAR, 0);
                    out.set(0, 1);
                }
            } else {
                for _ in 0..4 {
                    thread::sync_threads();
                }
                if t == 0 {
                    mbarrier::arrive_cluster(cluster::map_shared(BAR, 0));
                    out.set(1, 1);
                }
            }
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, [1, 1]);
}

#[test]
fn invalid_clusters_are_refused() {
    let cases = [
        ((4, 1, 1), (0, 1, 1), "≥ 1"),
        ((4, 1, 1), (3, 1, 1), "does not divide"),
        ((4, 2, 1), (1, 4, 1), "does not divide"),
        ((4, 4, 1), (4, 4, 1), "at most 8"),
    ];
    for (grid, cluster, expected) in cases {
        let cfg = Launch::new(grid, (32, 1, 1), 0).with_cluster(cluster);
        match launch("invalid", cfg, || {}) {
            Err(EmuError::InvalidLaunch { kernel: "invalid", detail }) => assert!(detail.contains(expected), "{cluster:?}: {detail}"),
            other => panic!("cluster {cluster:?} of grid {grid:?}: expected InvalidLaunch, got {other:?}"),
        }
    }
    launch("largest", Launch::new((8, 2, 1), (32, 1, 1), 0).with_cluster((4, 2, 1)), || {}).unwrap();
}

#[test]
fn a_fault_in_one_block_ends_the_whole_cluster() {
    let start = Instant::now();
    let mut out = vec![0.0f32; 4];
    let p = SyncPtr::new(out.as_mut_ptr());
    // Clusters of 2 in a grid of 8: the fault is in block 3 (rank 1 of the second cluster) while
    // block 2 waits at the cluster barrier; the clusters after it do not run.
    let cfg = Launch::new((8, 1, 1), (32, 1, 1), 0).with_cluster((2, 1, 1));
    let err = launch("fault", cfg, || {
        // SAFETY: out holds 4 floats; the write past its end is caught before it happens.
        unsafe {
            let out = View::new(p.get(), 4);
            if thread::block_idx_x() == 3 && thread::thread_idx_x() == 5 {
                out.set(4, 1.0);
            }
            cluster::sync();
            if thread::thread_idx_x() == 0 {
                out.set(thread::block_idx_x() as usize, 1.0);
            }
        }
    })
    .unwrap_err();
    assert!(start.elapsed() < PROMPTLY, "took {:?}", start.elapsed());
    match &err {
        EmuError::OutOfBounds { kernel: "fault", block, thread, .. } => {
            assert_eq!((*block, *thread), (Dim3::new(3, 0, 0), Dim3::new(5, 0, 0)), "{err}");
        }
        other => panic!("expected OutOfBounds, got {other}"),
    }
    // The first cluster completed; the faulting one did not pass its barrier.
    assert_eq!(out, [1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn a_panic_in_one_block_releases_a_peer_spinning_on_its_barrier() {
    let start = Instant::now();
    let cfg = Launch::new((2, 1, 1), (32, 1, 1), 16).with_cluster((2, 1, 1));
    let err = launch("panic", cfg, || {
        // SAFETY: as in `a_wait_for_a_peer_arrival_that_never_comes_is_reported`.
        unsafe {
            if thread::thread_idx_x() == 0 {
                mbarrier::init(BAR, 1);
                cluster::fence_mbarrier_init();
            }
            cluster::sync();
            if cluster::rank() == 0 {
                mbarrier::wait_parity(BAR, 0);
            } else {
                thread::sync_threads();
                if thread::thread_idx_x() == 9 {
                    panic!("rank 1 gives up");
                }
                thread::sync_threads();
            }
        }
    })
    .unwrap_err();
    assert!(start.elapsed() < PROMPTLY, "took {:?}", start.elapsed());
    match &err {
        EmuError::Panic { kernel: "panic", block, thread, message } => {
            assert_eq!((*block, *thread), (Dim3::new(1, 0, 0), Dim3::new(9, 0, 0)), "{err}");
            assert_eq!(message, "rank 1 gives up");
        }
        other => panic!("expected Panic, got {other}"),
    }
}
