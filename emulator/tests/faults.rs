//! The executor's semantics and fault reports, with small test kernels written against the kernels
//! crate's device API (host-only: they are plain functions, no PTX).
use std::panic;

use tessera_emulator::{launch, Dim3, EmuError, Launch, SyncPtr, MAX_SHARED_BYTES};
use tessera_kernels::device::{mem::View, shared, shared::SharedTiles, thread};

/// Thread `t` of a 32-thread block: `sync_threads` only for `t < 8`, as a barrier inside a branch.
unsafe fn barrier_in_branch(out: *mut f32) {
    // SAFETY: the caller passes 32 floats.
    let out = unsafe { View::new(out, 32) };
    let t = thread::thread_idx_x();
    if t < 8 {
        // SAFETY: a test of the executor's barrier (divergent calls are the point where they occur).
        unsafe { thread::sync_threads() };
    }
    // SAFETY: t < 32 = block size.
    unsafe { out.set(t as usize, 1.0) }
}

#[test]
fn barrier_in_divergent_branch_is_reported() {
    let mut out = vec![0.0f32; 32];
    let p = SyncPtr::new(out.as_mut_ptr());
    // SAFETY: out holds 32 floats.
    let err = launch("barrier_in_branch", Launch::new((1, 1, 1), (32, 1, 1), 0), || unsafe { barrier_in_branch(p.get()) }).unwrap_err();
    let text = err.to_string();
    match err {
        EmuError::DivergentBarrier { kernel, block, thread, detail } => {
            assert_eq!(kernel, "barrier_in_branch");
            assert_eq!(block, Dim3::new(0, 0, 0));
            // Whichever order the threads ran in, the thread named is one that reached the barrier.
            assert!(thread.x < 8 && thread.y == 0 && thread.z == 0, "{text}");
            assert!(detail.contains("returned from the kernel") && detail.contains("branch"), "{text}");
        }
        other => panic!("expected DivergentBarrier, got {other}"),
    }
    assert!(text.starts_with("kernel `barrier_in_branch`, block (0, 0, 0), thread ("), "{text}");
}

/// Thread 0 calls `sync_threads` twice, every other thread once.
unsafe fn uneven_barrier_count() {
    // SAFETY: a test of the executor's barrier (divergent calls are the point where they occur).
    unsafe { thread::sync_threads() };
    if thread::thread_idx_x() == 0 {
        // SAFETY: a test of the executor's barrier (divergent calls are the point where they occur).
        unsafe { thread::sync_threads() };
    }
}

#[test]
fn unequal_barrier_counts_are_reported() {
    // SAFETY: the kernel touches no memory.
    let err = launch("uneven", Launch::new((2, 1, 1), (64, 1, 1), 0), || unsafe { uneven_barrier_count() }).unwrap_err();
    match &err {
        EmuError::DivergentBarrier { kernel: "uneven", block, thread, detail } => {
            assert_eq!((*block, *thread), (Dim3::new(0, 0, 0), Dim3::new(0, 0, 0)), "{err}");
            assert!(detail.contains("call #2"), "{err}");
        }
        other => panic!("expected DivergentBarrier, got {other}"),
    }
}

/// `out[index_1d()] = 1` with no range check: threads past `n` write past the view's end.
unsafe fn write_past_end(out: *mut f32, n: usize) {
    // SAFETY: the caller passes n floats.
    let out = unsafe { View::new(out, n) };
    // SAFETY: deliberately violated: the grid has more threads than n.
    unsafe { out.set(thread::index_1d(), 1.0) }
}

#[test]
fn index_past_a_view_is_reported_with_kernel_and_thread() {
    let n = 63; // two blocks of 32 threads: only thread 31 of block 1 is out of range
    let mut out = vec![0.0f32; n];
    let p = SyncPtr::new(out.as_mut_ptr());
    // SAFETY: out holds n floats; the out-of-range write is caught before it happens.
    let err = launch("write_past_end", Launch::new((2, 1, 1), (32, 1, 1), 0), || unsafe { write_past_end(p.get(), n) }).unwrap_err();
    let text = err.to_string();
    match err {
        EmuError::OutOfBounds { kernel, block, thread, message } => {
            assert_eq!((kernel, block, thread), ("write_past_end", Dim3::new(1, 0, 0), Dim3::new(31, 0, 0)));
            assert!(message.contains("index 63 out of bounds for a view of 63 elements"), "{text}");
            assert!(message.contains("faults.rs"), "the message names the kernel's source line: {text}");
        }
        other => panic!("expected OutOfBounds, got {other}"),
    }
    assert!(text.contains("`write_past_end`") && text.contains("thread (31, 0, 0)"), "{text}");
}

/// Thread 31 faults before the barrier the other 31 threads wait at.
unsafe fn fault_before_barrier(out: *mut f32) {
    // SAFETY: the caller passes 32 floats.
    let out = unsafe { View::new(out, 32) };
    // SAFETY: deliberately violated for thread 31 (index 32).
    unsafe { out.set(thread::thread_idx_x() as usize + 1, 1.0) }
    // SAFETY: a test of the executor's barrier (divergent calls are the point where they occur).
    unsafe { thread::sync_threads() };
}

#[test]
fn a_fault_releases_the_threads_waiting_at_a_barrier() {
    let mut out = vec![0.0f32; 32];
    let p = SyncPtr::new(out.as_mut_ptr());
    // SAFETY: out holds 32 floats; the out-of-range write is caught.
    let err =
        launch("fault_before_barrier", Launch::new((1, 1, 1), (32, 1, 1), 0), || unsafe { fault_before_barrier(p.get()) }).unwrap_err();
    assert!(matches!(err, EmuError::OutOfBounds { thread: Dim3 { x: 31, .. }, .. }), "{err}");
}

#[test]
fn other_panics_are_reported_as_panics() {
    let err = launch("boom", Launch::new((1, 1, 1), (8, 1, 1), 0), || {
        if thread::thread_idx_x() == 5 {
            panic!("boom at five");
        }
    })
    .unwrap_err();
    assert!(matches!(&err, EmuError::Panic { thread: Dim3 { x: 5, .. }, message, .. } if message == "boom at five"), "{err}");
}

/// Each block: check its shared memory starts zeroed, write `block·100 + t` to slot `t`, barrier,
/// read the neighbour's slot. Exercises per-block zeroing, sharing between threads, and the barrier.
unsafe fn rotate_through_shared(out: *mut f32, n: usize) {
    let t = thread::thread_idx_x() as usize;
    let size = thread::block_dim_x() as usize;
    // SAFETY: the launch passes `size` floats of dynamic shared memory; the caller n floats of out.
    let (tile, out) = unsafe { (SharedTiles::<f32>::new().tile(size), View::new(out, n)) };
    // SAFETY: t < size, index_1d < n (the grid covers n exactly); both barriers are reached by every
    // thread of the block.
    unsafe {
        let stale = tile.get(t);
        thread::sync_threads(); // nobody writes before everyone has read the initial value
        tile.set(t, thread::block_idx_x() as f32 * 100.0 + t as f32 + stale * 1e6);
        thread::sync_threads();
        out.set(thread::index_1d(), tile.get((t + 1) % size));
    }
}

#[test]
fn shared_memory_is_per_block_zeroed_and_shared_by_the_block() {
    let (blocks, size) = (3u32, 64usize);
    let n = blocks as usize * size;
    let mut out = vec![f32::NAN; n];
    let p = SyncPtr::new(out.as_mut_ptr());
    let cfg = Launch::new((blocks, 1, 1), (size as u32, 1, 1), size * 4);
    // SAFETY: out holds n floats, and the launch gives `size` floats of shared memory.
    launch("rotate", cfg, || unsafe { rotate_through_shared(p.get(), n) }).unwrap();
    for b in 0..blocks as usize {
        for t in 0..size {
            assert_eq!(out[b * size + t], (b * 100 + (t + 1) % size) as f32, "block {b}, thread {t}");
        }
    }
}

/// Each thread writes its slot of shared memory, then reads both neighbours' slots; the barrier
/// between is optional, to show what leaving it out does.
unsafe fn neighbours_through_shared(out: *mut f32, with_barrier: bool) {
    let t = thread::thread_idx_x() as usize;
    let size = thread::block_dim_x() as usize;
    // SAFETY: the launch passes `size` floats of shared memory and 2·size floats of out per block.
    let (tile, out) = unsafe { (SharedTiles::<f32>::new().tile(size), View::new(out, 2 * size * thread::grid_dim_x() as usize)) };
    let base = 2 * size * thread::block_idx_x() as usize;
    // SAFETY: t < size; base + 2t + 1 < 2·size·gridDim.x; every thread reaches the barrier or none does.
    unsafe {
        tile.set(t, t as f32 + 1.0);
        if with_barrier {
            thread::sync_threads();
        }
        out.set(base + 2 * t, tile.get((t + 1) % size));
        out.set(base + 2 * t + 1, tile.get((t + size - 1) % size));
    }
}

#[test]
fn a_missing_barrier_shows_as_unwritten_shared_memory() {
    let size = 64usize;
    let run = |with_barrier: bool| {
        let mut out = vec![f32::NAN; 2 * 2 * size];
        let p = SyncPtr::new(out.as_mut_ptr());
        // SAFETY: out holds 2·size floats per block for 2 blocks; size floats of shared memory.
        launch("neighbours", Launch::new((2, 1, 1), (size as u32, 1, 1), size * 4), || unsafe {
            neighbours_through_shared(p.get(), with_barrier)
        })
        .unwrap();
        out
    };
    let expected: Vec<f32> =
        (0..2).flat_map(|_| (0..size).flat_map(|t| [((t + 1) % size) as f32 + 1.0, ((t + size - 1) % size) as f32 + 1.0])).collect();
    assert_eq!(run(true), expected);
    // Without the barrier, a thread reads a neighbour's slot before the neighbour has written it:
    // the right neighbour's in one block and the left one's in the other (the two run their
    // threads in opposite orders), so both directions of the race show.
    let racy = run(false);
    let unwritten = |block: usize, side: usize| (0..size).filter(|t| racy[block * 2 * size + 2 * t + side] == 0.0).count();
    assert!(
        unwritten(0, 0) > 0 && unwritten(1, 1) > 0,
        "reads of unwritten slots: {:?}",
        [unwritten(0, 0), unwritten(0, 1), unwritten(1, 0), unwritten(1, 1)]
    );
}

#[test]
fn a_tile_beyond_the_dynamic_shared_memory_is_out_of_bounds() {
    // The tiled matmul's two 16×16 tiles with only one tile's worth of shared memory.
    let err = launch("short_shared", Launch::new((1, 1, 1), (4, 1, 1), 16 * 16 * 4), || {
        let mut tiles = SharedTiles::<f32>::new();
        // SAFETY: deliberately violated by the second tile; the host build checks it.
        let _ = unsafe { (tiles.tile(256), tiles.tile(256)) };
    })
    .unwrap_err();
    match &err {
        EmuError::OutOfBounds { message, .. } => assert!(message.contains("past the launch's 1024 bytes"), "{err}"),
        other => panic!("expected OutOfBounds, got {other}"),
    }
}

#[test]
fn coordinates_are_exact_in_three_dimensions() {
    let (grid, block) = ((3u32, 2u32, 2u32), (4u32, 3u32, 2u32));
    let total = (grid.0 * grid.1 * grid.2 * block.0 * block.1 * block.2) as usize;
    let mut seen = vec![0u32; total];
    let p = SyncPtr::new(seen.as_mut_ptr());
    launch("coords", Launch::new(grid, block, 0), || {
        use thread::*;
        assert_eq!((grid_dim_x(), grid_dim_y(), grid_dim_z()), grid);
        assert_eq!((block_dim_x(), block_dim_y(), block_dim_z()), block);
        assert_eq!(grid_size_1d(), (grid.0 * block.0) as usize);
        let block_linear = (block_idx_z() * grid.1 + block_idx_y()) * grid.0 + block_idx_x();
        let thread_linear = (thread_idx_z() * block.1 + thread_idx_y()) * block.0 + thread_idx_x();
        let id = block_linear * (block.0 * block.1 * block.2) + thread_linear;
        // SAFETY: id < total, and every thread writes its own element.
        unsafe { *p.get().add(id as usize) += 1 }
    })
    .unwrap();
    assert!(seen.iter().all(|&count| count == 1), "every (block, thread) pair runs exactly once");
}

#[test]
fn launch_limits_are_typed_errors() {
    let run = |cfg: Launch| launch("limits", cfg, || {}).unwrap_err();
    assert!(matches!(run(Launch::new((1, 1, 1), (33, 32, 1), 0)), EmuError::TooManyThreads { threads: 1056, .. }));
    assert!(matches!(run(Launch::new((1, 1, 1), (1, 1, 65), 0)), EmuError::TooManyThreads { .. }));
    assert!(matches!(
        run(Launch::new((1, 1, 1), (1, 1, 1), MAX_SHARED_BYTES + 1)),
        EmuError::SharedMemoryTooLarge { requested, limit: MAX_SHARED_BYTES, .. } if requested == MAX_SHARED_BYTES + 1
    ));
    assert!(matches!(run(Launch::new((0, 1, 1), (1, 1, 1), 0)), EmuError::InvalidLaunch { .. }));
    assert!(matches!(run(Launch::new((1, 65_536, 1), (1, 1, 1), 0)), EmuError::InvalidLaunch { .. }));
    // The limits themselves are accepted: 1024 threads and 227 KiB.
    launch("limits", Launch::new((1, 1, 1), (32, 32, 1), MAX_SHARED_BYTES), || {
        // SAFETY: every thread of the block calls it once.
        unsafe { thread::sync_threads() }
    })
    .unwrap();
}

#[test]
fn device_functions_outside_a_launch_panic_clearly() {
    let payload = panic::catch_unwind(shared::dynamic::<f32>).unwrap_err();
    let message = payload.downcast_ref::<String>().cloned().or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()));
    assert!(message.unwrap_or_default().contains("outside a kernel launch"));
}

#[test]
fn a_kernel_of_another_precision_is_refused_before_launch() {
    use tessera_catalogue::{Algo, HostMatrix, Precision};
    let (a, b) = (HostMatrix::from_fn(4, 5, |_, _| 1.0), HostMatrix::from_fn(5, 7, |_, _| 1.0));
    for (precision, algo) in [(Precision::Fp32, Algo::MmaPipeTf32), (Precision::Bf16, Algo::Tiled), (Precision::Fp16, Algo::MmaNaiveBf16)] {
        match tessera_emulator::ops::matmul_in(precision, algo, &a, &b) {
            Err(EmuError::InvalidLaunch { detail, .. }) => assert!(detail.contains("was asked for"), "{detail}"),
            other => panic!("{precision:?} with {}: expected InvalidLaunch, got {other:?}", algo.label()),
        }
    }
}
