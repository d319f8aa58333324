//! The example's kernels through tessera's launcher on a GPU: parity on odd shapes within the
//! tolerances of `src/check.rs`, and the typed errors of the host wrappers. Without a GPU the suite
//! prints `skipped: no CUDA device` and reports each test as ignored, never as passed (the emulator
//! tests cover the kernels there).
use libtest_mimic::{Arguments, Failed, Trial};
use tessera::{DeviceBuffer, DeviceMatrix, Error, Gpu};
use tessera_own_kernel::check::{check_silu_mul, check_softmax, inputs};
use tessera_own_kernel::OwnKernels;

type Res = Result<(), Box<dyn std::error::Error>>;

fn main() {
    let gpu = Gpu::new(0);
    if let Err(e) = &gpu {
        println!("skipped: no CUDA device ({e}) — the GPU tests are reported as ignored");
    }
    let gpu = std::sync::Arc::new(gpu.ok());
    let trial = |name: &str, body: fn(&Gpu) -> Res| {
        let gpu = gpu.clone();
        let absent = gpu.is_none();
        Trial::test(name, move || match gpu.as_ref() {
            Some(g) => body(g).map_err(|e| Failed::from(e.to_string())),
            None => Err(Failed::from("no GPU")),
        })
        .with_ignored_flag(absent)
    };
    let trials = vec![
        trial("softmax_and_silu_mul_match_the_reference_on_the_gpu", softmax_and_silu_mul_match_the_reference_on_the_gpu),
        trial("bad_shapes_are_typed_errors", bad_shapes_are_typed_errors),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}

fn softmax_and_silu_mul_match_the_reference_on_the_gpu(gpu: &Gpu) -> Res {
    let k = OwnKernels::load(gpu)?;
    for (rows, cols) in [(1, 1), (5, 255), (4, 257), (3, 4099), (33, 8192)] {
        let x = inputs(rows * cols, (rows * cols) as u64, 30.0);
        let dx = DeviceMatrix::from_slice(gpu, rows, cols, &x)?;
        let mut dy = DeviceMatrix::from_slice(gpu, rows, cols, &vec![f32::NAN; rows * cols])?;
        k.softmax_rows(gpu, &dx, &mut dy)?;
        check_softmax(&x, &dy.to_host(gpu)?.data, cols).map_err(|e| format!("{rows}×{cols}: {e}"))?;
    }
    let n = 70_001;
    let (x, y) = (inputs(n, 1, 12.0), inputs(n, 2, 3.0));
    let mut out = DeviceBuffer::<f32>::zeros(gpu, n)?;
    k.silu_mul(gpu, &DeviceBuffer::from_host(gpu, &x)?, &DeviceBuffer::from_host(gpu, &y)?, &mut out)?;
    check_silu_mul(&x, &y, &out.to_host(gpu)?)?;
    Ok(())
}

fn bad_shapes_are_typed_errors(gpu: &Gpu) -> Res {
    let k = OwnKernels::load(gpu)?;
    let x = DeviceMatrix::<f32>::zeros(gpu, 4, 8)?;
    let mut wrong = DeviceMatrix::<f32>::zeros(gpu, 4, 9)?;
    assert!(matches!(k.softmax_rows(gpu, &x, &mut wrong), Err(Error::ShapeMismatch { .. })));
    let wide = DeviceMatrix::<f32>::zeros(gpu, 1, own_kernels::SOFTMAX_MAX_COLS as usize + 1)?;
    let mut wide_out = DeviceMatrix::<f32>::zeros(gpu, 1, own_kernels::SOFTMAX_MAX_COLS as usize + 1)?;
    assert!(matches!(k.softmax_rows(gpu, &wide, &mut wide_out), Err(Error::TooLarge { .. })));
    let (a, b) = (DeviceBuffer::<f32>::zeros(gpu, 3)?, DeviceBuffer::<f32>::zeros(gpu, 4)?);
    let mut o = DeviceBuffer::<f32>::zeros(gpu, 3)?;
    assert!(matches!(k.silu_mul(gpu, &a, &b, &mut o), Err(Error::ShapeMismatch { .. })));
    Ok(())
}
