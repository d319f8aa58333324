//! Typed errors through the public API. The no-driver checks run here (CI has no GPU); the rest need one.
use libtest_mimic::{Failed, Trial};
use tessera::{bf16, context::driver_present, f16, Algo, DeviceBuffer, DeviceMatrix, Error, Gpu, HostMatrix, Precision};
use tessera_tests::{gpu_trial, run};

fn expect(result: Result<impl std::fmt::Debug, Error>, want: fn(&Error) -> bool, what: &str) -> Result<(), String> {
    match result {
        Err(e) if want(&e) => Ok(()),
        other => Err(format!("{what}: expected a typed error, got {other:?}")),
    }
}

fn main() {
    let no_driver = !driver_present();
    let trials = vec![
        Trial::test("no_driver_is_a_typed_error", || match Gpu::new(0) {
            Err(Error::NoDriver) => Ok(()),
            Err(e) => Err(Failed::from(format!("expected NoDriver, got {e}"))),
            Ok(_) => Err(Failed::from("a GPU opened without a driver")),
        })
        .with_ignored_flag(!no_driver),
        gpu_trial("missing_device_ordinal_is_no_device", |_| {
            expect(Gpu::new(1 << 20).map(|_| ()), |e| matches!(e, Error::NoDevice { .. }), "Gpu::new(huge)")
        }),
        gpu_trial("matmul_inner_mismatch_is_typed", |g| {
            let (a, b) = (HostMatrix::from_fn(4, 5, |_, _| 1.0), HostMatrix::from_fn(6, 7, |_, _| 1.0));
            expect(g.matmul_host(Algo::Tiled, &a, &b), |e| matches!(e, Error::ShapeMismatch { .. }), "4×5 · 6×7")
        }),
        gpu_trial("matmul_wrong_output_shape_is_typed", |g| {
            let a = DeviceMatrix::<f32>::zeros(g, 4, 5).map_err(|e| e.to_string())?;
            let b = DeviceMatrix::<f32>::zeros(g, 5, 7).map_err(|e| e.to_string())?;
            let mut c = DeviceMatrix::<f32>::zeros(g, 7, 4).map_err(|e| e.to_string())?;
            expect(g.matmul(Algo::Naive, &a, &b, &mut c), |e| matches!(e, Error::ShapeMismatch { .. }), "C 7×4")
        }),
        gpu_trial("matmul_mixed_input_types_are_typed", |g| {
            let a = DeviceMatrix::<bf16>::zeros(g, 4, 5).map_err(|e| e.to_string())?;
            let b = DeviceMatrix::<f16>::zeros(g, 5, 7).map_err(|e| e.to_string())?;
            let mut c = DeviceMatrix::<f32>::from_host(g, &HostMatrix::from_fn(4, 7, |_, _| 7.0)).map_err(|e| e.to_string())?;
            expect(g.matmul(Algo::Auto, &a, &b, &mut c), |e| matches!(e, Error::MixedTypes { .. }), "bf16 · f16")?;
            let untouched = c.to_host(g).map_err(|e| e.to_string())?;
            if untouched.data.iter().all(|&x| x == 7.0) {
                Ok(())
            } else {
                Err("C changed after a refused launch".into())
            }
        }),
        gpu_trial("matmul_kernel_of_another_type_is_typed", |g| {
            let a = DeviceMatrix::<bf16>::zeros(g, 4, 5).map_err(|e| e.to_string())?;
            let b = DeviceMatrix::<bf16>::zeros(g, 5, 7).map_err(|e| e.to_string())?;
            let mut c = DeviceMatrix::<f32>::zeros(g, 4, 7).map_err(|e| e.to_string())?;
            // An FP32 kernel and an FP16 kernel cannot take bf16 inputs.
            for algo in [Algo::Tiled, Algo::MmaPipeF16x128] {
                expect(
                    g.matmul(algo, &a, &b, &mut c),
                    |e| matches!(e, Error::PrecisionMismatch { requested: Precision::Bf16, .. }),
                    algo.label(),
                )?;
            }
            Ok(())
        }),
        gpu_trial("tf32_kernel_without_asking_for_tf32_is_typed", |g| {
            let (a, b) = (HostMatrix::from_fn(4, 5, |_, _| 1.0), HostMatrix::from_fn(5, 7, |_, _| 1.0));
            // f32 data means FP32: a TF32 kernel through `matmul` is refused, through `matmul_tf32` it runs.
            expect(
                g.matmul_host(Algo::MmaPipeTf32, &a, &b),
                |e| matches!(e, Error::PrecisionMismatch { requested: Precision::Fp32, .. }),
                "TF32 kernel via matmul",
            )?;
            let c = g.matmul_host_in(Precision::Tf32, Algo::MmaPipeTf32, &a, &b).map_err(|e| e.to_string())?;
            if c.data.iter().all(|&x| x == 5.0) {
                Ok(())
            } else {
                Err(format!("TF32 result {:?}", c.data))
            }
        }),
        gpu_trial("gpu_is_usable_after_typed_errors", |g| {
            let (a, b) = (HostMatrix::from_fn(3, 2, |_, _| 1.0), HostMatrix::from_fn(2, 4, |_, _| 2.0));
            let _ = g.matmul_host(Algo::MmaPipeBf16x128, &a, &b);
            let c = g.matmul_host_in(Precision::Bf16, Algo::Auto, &a, &b).map_err(|e| e.to_string())?;
            if c.data.iter().all(|&x| x == 4.0) {
                Ok(())
            } else {
                Err(format!("{:?}", c.data))
            }
        }),
        gpu_trial("vec_add_length_mismatch_is_typed", |g| {
            expect(g.vec_add_host(&[1.0; 3], &[1.0; 4]), |e| matches!(e, Error::ShapeMismatch { .. }), "3 vs 4")
        }),
        gpu_trial("vec_add_empty_is_a_no_op", |g| match g.vec_add_host(&[], &[]) {
            Ok(v) if v.is_empty() => Ok(()),
            other => Err(format!("{other:?}")),
        }),
        Trial::test("overflowing_sizes_are_typed_before_any_gpu_call", || {
            // Pure checks: no driver needed, so they run in CI.
            let shape = tessera::MatmulShape::check((usize::MAX, 2), (2, 3), (usize::MAX, 3)).map_err(Error::from);
            if !matches!(shape, Err(Error::TooLarge { .. })) {
                return Err(format!("usize::MAX rows: {shape:?}").into());
            }
            match HostMatrix::new(3, 3, vec![0.0; 8]).map_err(Error::from) {
                Err(Error::ShapeMismatch { .. }) => Ok(()),
                other => Err(format!("3×3 with 8 elements: {other:?}").into()),
            }
        }),
        gpu_trial("allocation_byte_count_overflow_is_typed", |g| {
            expect(
                DeviceBuffer::<f32>::zeros(g, usize::MAX / 2).map(|_| ()),
                |e| matches!(e, Error::TooLarge { .. }),
                "usize::MAX/2 floats",
            )
        }),
        gpu_trial("zero_rows_is_a_no_op_with_an_empty_result", |g| {
            let (a, b) = (HostMatrix::new(0, 4, vec![]).unwrap(), HostMatrix::from_fn(4, 3, |_, _| 1.0));
            match g.matmul_host(Algo::Tiled, &a, &b) {
                Ok(c) if (c.rows, c.cols) == (0, 3) && c.data.is_empty() => Ok(()),
                other => Err(format!("{other:?}")),
            }
        }),
        gpu_trial("device_matrix_with_short_buffer_is_typed", |g| {
            let a = DeviceMatrix::<f32>::zeros(g, 4, 4).map_err(|e| e.to_string())?;
            // A hand-built matrix that claims 4×4 but holds 3 elements.
            let short = DeviceMatrix { rows: 4, cols: 4, buf: DeviceBuffer::<f32>::zeros(g, 3).map_err(|e| e.to_string())? };
            let mut c = DeviceMatrix::<f32>::zeros(g, 4, 4).map_err(|e| e.to_string())?;
            expect(g.matmul(Algo::Tiled, &a, &short, &mut c), |e| matches!(e, Error::BufferTooSmall { name: "B", .. }), "B of 3 elements")
        }),
        gpu_trial("buffer_from_another_context_is_typed", |g| {
            let other = Gpu::new_isolated(0).map_err(|e| e.to_string())?;
            let foreign = DeviceMatrix::<f32>::zeros(&other, 4, 4).map_err(|e| e.to_string())?;
            let a = DeviceMatrix::<f32>::zeros(g, 4, 4).map_err(|e| e.to_string())?;
            let mut c = DeviceMatrix::<f32>::zeros(g, 4, 4).map_err(|e| e.to_string())?;
            expect(g.matmul(Algo::Naive, &a, &foreign, &mut c), |e| matches!(e, Error::WrongContext { .. }), "B from an isolated context")?;
            let (x, y) = (
                DeviceBuffer::from_host(&other, &[1.0f32]).map_err(|e| e.to_string())?,
                DeviceBuffer::from_host(g, &[1.0f32]).map_err(|e| e.to_string())?,
            );
            let mut z = DeviceBuffer::<f32>::zeros(g, 1).map_err(|e| e.to_string())?;
            expect(g.vec_add(&x, &y, &mut z), |e| matches!(e, Error::WrongContext { .. }), "vec_add a from an isolated context")
        }),
        gpu_trial("huge_allocation_is_out_of_memory_and_gpu_still_works", |g| {
            expect(DeviceBuffer::<f32>::zeros(g, 1 << 42).map(|_| ()), |e| matches!(e, Error::OutOfMemory { .. }), "16 TiB")?;
            let sum = g.vec_add_host(&[1.0, 2.0], &[3.0, 4.0]).map_err(|e| e.to_string())?;
            if sum == [4.0, 6.0] {
                Ok(())
            } else {
                Err(format!("after OOM: {sum:?}"))
            }
        }),
    ];
    run(trials)
}
