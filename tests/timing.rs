//! GPU timing: `QueuedTimer` (the batch queued behind a hold before the clock starts) against
//! `GpuTimer` (launches timed as the host queues them), on work that is launch-bound and work that is not.
use libtest_mimic::Trial;
use tessera::{Algo, DeviceBuffer, DeviceMatrix, Error, Gpu, GpuTimer, HostMatrix, QueuedTimer};
use tessera_tests::{gpu_trial, run};

fn s(e: Error) -> String {
    e.to_string()
}

/// `vec_add` on `len` floats: `(GpuTimer ms, QueuedTimer ms, held)` per launch over `iters` launches,
/// each the fastest of three batches.
fn both(g: &Gpu, len: usize, iters: usize) -> Result<(f64, f64, bool), String> {
    let a = DeviceBuffer::<f32>::from_host(g, &vec![1.0; len]).map_err(s)?;
    let b = DeviceBuffer::<f32>::from_host(g, &vec![2.0; len]).map_err(s)?;
    let mut c = DeviceBuffer::<f32>::zeros(g, len).map_err(s)?;
    let paced = GpuTimer::new(g).map_err(s)?;
    let mut queued = QueuedTimer::new(g).map_err(s)?;
    let (mut p, mut q, mut held) = (f64::INFINITY, f64::INFINITY, true);
    for _ in 0..3 {
        p = p.min(paced.time_ms(g, 2, iters, || g.vec_add(&a, &b, &mut c)).map_err(s)?);
        let t = queued.time_ms(g, 2, iters, || g.vec_add(&a, &b, &mut c)).map_err(s)?;
        q = q.min(t.ms);
        held &= t.held;
    }
    if c.to_host(g).map_err(s)?.iter().any(|&v| v != 3.0) {
        return Err("vec_add gave a wrong sum inside the timed batches".into());
    }
    Ok((p, q, held))
}

/// `Gpu::matmul` (`tiled`) on 16×16×16 ones: `(GpuTimer ms, QueuedTimer ms, held)` per call over
/// `iters` calls, each the fastest of three batches; the product is checked after the batches.
fn small_matmul(g: &Gpu, iters: usize) -> Result<(f64, f64, bool), String> {
    let ones = HostMatrix::new(16, 16, vec![1.0; 256]).map_err(|e| e.to_string())?;
    let a = DeviceMatrix::<f32>::from_host(g, &ones).map_err(s)?;
    let b = DeviceMatrix::<f32>::from_host(g, &ones).map_err(s)?;
    let mut c = DeviceMatrix::<f32>::zeros(g, 16, 16).map_err(s)?;
    let paced = GpuTimer::new(g).map_err(s)?;
    let mut queued = QueuedTimer::new(g).map_err(s)?;
    let (mut p, mut q, mut held) = (f64::INFINITY, f64::INFINITY, true);
    for _ in 0..3 {
        p = p.min(paced.time_ms(g, 2, iters, || g.matmul(Algo::Tiled, &a, &b, &mut c)).map_err(s)?);
        let t = queued.time_ms(g, 2, iters, || g.matmul(Algo::Tiled, &a, &b, &mut c)).map_err(s)?;
        q = q.min(t.ms);
        held &= t.held;
    }
    if c.to_host(g).map_err(s)?.data.iter().any(|&v| v != 16.0) {
        return Err("the 16×16×16 product of ones is not 16 everywhere".into());
    }
    Ok((p, q, held))
}

fn main() {
    let trials: Vec<Trial> = vec![
        gpu_trial("queued_timer_rejects_zero_iterations", |g| {
            let mut t = QueuedTimer::new(g).map_err(s)?;
            match t.time_ms(g, 1, 0, || Ok::<(), Error>(())) {
                Err(Error::InvalidArgument { .. }) => Ok(()),
                other => Err(format!("0 iterations gave {other:?}")),
            }
        }),
        // Launch-bound: the GPU runs each in ~2 µs, about as long as the host takes to queue it
        // (vec_add on 1024 floats) or less (a matmul call: checks, model, launch); paced, the events
        // then time the host; queued, the launches run back to back. Not slower either way.
        gpu_trial("queued_timer_holds_a_launch_bound_batch_and_is_not_slower", |g| {
            for (what, (paced, queued, held)) in [("vec_add 1024", both(g, 1024, 200)?), ("matmul 16×16×16 tiled", small_matmul(g, 200)?)]
            {
                println!("{what}: GpuTimer {:.2} µs, QueuedTimer {:.2} µs per call", paced * 1e3, queued * 1e3);
                if !held {
                    return Err(format!("{what}: a batch of 200 calls was not queued before its hold ended"));
                }
                if !(queued > 0.0 && queued <= paced * 1.05) {
                    return Err(format!("{what}: queued {queued} ms against paced {paced} ms per call"));
                }
            }
            Ok(())
        }),
        // 64 Mi floats: ~0.2 ms per launch, far longer than queueing it: both timers agree.
        gpu_trial("queued_and_paced_timers_agree_on_long_launches", |g| {
            let (paced, queued, held) = both(g, 1 << 26, 10)?;
            println!("vec_add 64 Mi: GpuTimer {:.1} µs, QueuedTimer {:.1} µs per launch", paced * 1e3, queued * 1e3);
            if !held || (queued / paced - 1.0).abs() > 0.05 {
                return Err(format!("queued {queued} ms (held: {held}) against paced {paced} ms per launch"));
            }
            Ok(())
        }),
    ];
    run(trials)
}
