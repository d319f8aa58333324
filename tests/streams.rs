//! The copy/compute pipeline (`tessera::pipeline`): pipelined output equals the sequential path bit
//! for bit, whether or not the chunks divide the length; bad arguments are typed errors. The plan
//! checks run without a GPU (CI); the rest need one and are reported ignored without.
use libtest_mimic::{Failed, Trial};
use tessera::pipeline::{MapKernel, Pipeline, PipelinePlan};
use tessera::{Error, Gpu, PinnedBuffer};
use tessera_tests::{gpu_trial, run, seed};

const KERNEL: MapKernel = MapKernel::IteratedFma { iters: 50, a: 0.999, b: 0.001 };

fn s(e: Error) -> String {
    e.to_string()
}

/// A pinned buffer of `len` random values in [-1, 1), and a NaN-filled output of the same length.
fn buffers(g: &Gpu, len: usize, salt: u64) -> Result<(PinnedBuffer<f32>, PinnedBuffer<f32>), String> {
    let mut input = PinnedBuffer::zeros(g, len).map_err(s)?;
    input.as_mut_slice().map_err(s)?.copy_from_slice(&tessera::catalogue::testkit::random::operands(len, seed(salt)));
    let mut output = PinnedBuffer::zeros(g, len).map_err(s)?;
    output.as_mut_slice().map_err(s)?.fill(f32::NAN);
    Ok((input, output))
}

/// Runs the map sequentially (one chunk, one stream) and pipelined (`chunk` elements, `streams`
/// streams), and checks both against each other and against the CPU reference, bit for bit.
fn pipelined_equals_sequential(g: &Gpu, len: usize, chunk: usize, streams: usize) -> Result<(), String> {
    let (input, mut seq) = buffers(g, len, (len ^ chunk ^ streams) as u64)?;
    let mut piped = PinnedBuffer::zeros(g, len).map_err(s)?;
    piped.as_mut_slice().map_err(s)?.fill(f32::NAN);
    Pipeline::new(g, 1, len).map_err(s)?.map(KERNEL, &input, &mut seq).map_err(s)?;
    let mut pipe = Pipeline::new(g, streams, chunk).map_err(s)?;
    pipe.map(KERNEL, &input, &mut piped).map_err(s)?;
    let (x, a, b) = (input.as_slice().map_err(s)?, seq.as_slice().map_err(s)?, piped.as_slice().map_err(s)?);
    for i in 0..len {
        if a[i].to_bits() != b[i].to_bits() {
            return Err(format!(
                "element {i}: sequential {} ≠ pipelined {} ({len} elements, chunk {chunk}, {streams} streams)",
                a[i], b[i]
            ));
        }
        let want = KERNEL.reference(x[i]);
        if a[i].to_bits() != want.to_bits() {
            return Err(format!("element {i}: GPU {} ≠ CPU reference {want}", a[i]));
        }
    }
    // A second map through the same pipeline reuses its buffers and must give the same output.
    piped.as_mut_slice().map_err(s)?.fill(f32::NAN);
    pipe.map(KERNEL, &input, &mut piped).map_err(s)?;
    if piped.as_slice().map_err(s)? != seq.as_slice().map_err(s)? {
        return Err("a second map through the same pipeline differs".into());
    }
    Ok(())
}

fn expect(result: Result<impl std::fmt::Debug, Error>, want: fn(&Error) -> bool, what: &str) -> Result<(), String> {
    match result {
        Err(e) if want(&e) => Ok(()),
        other => Err(format!("{what}: expected a typed error, got {other:?}")),
    }
}

fn invalid(e: &Error) -> bool {
    matches!(e, Error::InvalidArgument { .. })
}

fn main() {
    let mut trials = vec![
        // No GPU needed: the plan is pure arithmetic.
        Trial::test("plan_chunks_tile_the_length", || {
            for (len, chunk, streams) in [(1 << 20, 1 << 16, 4), (1_000_003, 100_000, 3), (5, 100, 2), (0, 7, 1)] {
                let plan = PipelinePlan::new(len, chunk, streams).map_err(|e| Failed::from(e.to_string()))?;
                let mut next = 0;
                for c in plan.chunks() {
                    if c.range.start != next || c.range.is_empty() || c.range.len() > chunk || c.stream != c.index % streams {
                        return Err(format!("bad chunk {c:?} in plan({len}, {chunk}, {streams})").into());
                    }
                    next = c.range.end;
                }
                if next != len {
                    return Err(format!("plan({len}, {chunk}, {streams}) covers 0..{next}").into());
                }
            }
            Ok(())
        }),
        Trial::test("plan_zero_streams_or_chunk_is_invalid_argument", || {
            expect(PipelinePlan::new(10, 4, 0), invalid, "0 streams")?;
            expect(PipelinePlan::new(10, 0, 2), invalid, "0-element chunks")?;
            expect(PipelinePlan::with_chunks(10, 0, 2), invalid, "0 chunks")?;
            Ok(())
        }),
    ];
    for (len, chunk, streams) in [
        (1 << 20, 1 << 16, 4),   // 16 chunks of 65,536: divides, 4 chunks per stream
        (1 << 22, 1 << 18, 16),  // divides, one chunk per stream
        (1_000_003, 100_000, 3), // does not divide: last chunk 3 elements
        (999_999, 333_334, 8),   // does not divide; more streams than chunks
        (1000, 4096, 2),         // one chunk larger than the data
        (257, 1, 5),             // one element per chunk
    ] {
        trials.push(gpu_trial(format!("pipelined_equals_sequential_{len}_chunk{chunk}_streams{streams}"), move |g| {
            pipelined_equals_sequential(g, len, chunk, streams)
        }));
    }
    trials.extend([
        gpu_trial("trace_has_every_chunk_in_stage_order", |g| {
            let (input, mut output) = buffers(g, 1 << 20, 9)?;
            let trace = Pipeline::new(g, 4, 100_000).map_err(s)?.map_traced(KERNEL, &input, &mut output).map_err(s)?;
            if trace.chunks.len() != 11 {
                return Err(format!("{} chunks traced, 11 expected", trace.chunks.len()));
            }
            for c in &trace.chunks {
                let t = [c.h2d.0, c.h2d.1, c.kernel.0, c.kernel.1, c.d2h.0, c.d2h.1];
                if t.windows(2).any(|w| w[0] > w[1]) || t[0] < 0.0 || t[5] > trace.total_ms + 1e-3 {
                    return Err(format!("chunk {c:?} out of order (total {} ms)", trace.total_ms));
                }
            }
            Ok(())
        }),
        gpu_trial("pipeline_zero_streams_is_invalid_argument", |g| expect(Pipeline::new(g, 0, 1024).map(|_| ()), invalid, "0 streams")),
        gpu_trial("pipeline_zero_chunk_is_invalid_argument", |g| expect(Pipeline::new(g, 4, 0).map(|_| ()), invalid, "0-element chunks")),
        gpu_trial("pipeline_length_mismatch_is_shape_mismatch", |g| {
            let input = PinnedBuffer::<f32>::zeros(g, 1000).map_err(s)?;
            let mut output = PinnedBuffer::<f32>::zeros(g, 999).map_err(s)?;
            let mut pipe = Pipeline::new(g, 2, 256).map_err(s)?;
            expect(pipe.map(KERNEL, &input, &mut output), |e| matches!(e, Error::ShapeMismatch { .. }), "1000 → 999")?;
            // The pipeline still works after the rejected call.
            let mut output = PinnedBuffer::<f32>::zeros(g, 1000).map_err(s)?;
            pipe.map(KERNEL, &input, &mut output).map_err(s)?;
            let want = KERNEL.reference(0.0);
            if output.as_slice().map_err(s)?.iter().all(|v| v.to_bits() == want.to_bits()) {
                Ok(())
            } else {
                Err("wrong output after a rejected call".into())
            }
        }),
    ]);
    run(trials)
}
