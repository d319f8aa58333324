//! Typed errors through the public API. The no-driver checks run here (CI has no GPU); the rest need one.
use libtest_mimic::{Failed, Trial};
use tessera::{
    bf16, context::driver_present, f16, Algo, DeviceBuffer, DeviceMatrix, Error, GemmParams, Gpu, HostMatrix, MatrixDesc, MatrixMut,
    MatrixRef, Precision, Transpose,
};
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
        gpu_trial("fp8_products_refuse_what_they_cannot_run", |g| {
            use tessera::float8::{F8E4M3, F8E5M2};
            use tessera::{DeviceBuffer, Fp8Params, Fp8Rhs, Fp8Scales, GemmParams, MatrixMut, MatrixRef};
            let e = |e: Error| e.to_string();
            let values = [1.0f32, -2.5, 448.0, 1000.0];
            let a = DeviceMatrix::from_slice(g, 2, 2, &values.map(F8E4M3::from_f32)).map_err(e)?;
            let back: Vec<f32> = a.buffer().to_host(g).map_err(e)?.iter().map(|v| v.to_f32()).collect();
            if back != [1.0, -2.5, 448.0, 448.0] {
                return Err(format!("E4M3 round trip gave {back:?} (1000 saturates to 448)"));
            }
            // K = 2: not a multiple of 16.
            let b = DeviceMatrix::<F8E4M3>::zeros(g, 2, 3).map_err(e)?;
            let mut c = DeviceMatrix::<f32>::zeros(g, 2, 3).map_err(e)?;
            expect(g.matmul(Algo::Auto, &a, &b, &mut c), |e| matches!(e, Error::Unaligned { .. }), "E4M3 K = 2")?;
            // A kernel of the other format, and a 16-bit kernel.
            let (a16, b16) = (DeviceMatrix::<F8E4M3>::zeros(g, 4, 16).map_err(e)?, DeviceMatrix::<F8E4M3>::zeros(g, 16, 8).map_err(e)?);
            let mut c48 = DeviceMatrix::<f32>::zeros(g, 4, 8).map_err(e)?;
            for algo in [Algo::Fp8E5m2, Algo::TmaBf16] {
                expect(g.matmul(algo, &a16, &b16, &mut c48), |e| matches!(e, Error::PrecisionMismatch { .. }), algo.label())?;
            }
            // Bᵀ of the wrong shape, an empty scale, gemm's views.
            expect(
                g.matmul_fp8(&Fp8Params::new(), &a16, Fp8Rhs::Bt(&b16), &mut c48),
                |e| matches!(e, Error::ShapeMismatch { .. }),
                "Bᵀ 16×8 for K = 16, N = 8",
            )?;
            let (one, empty) = (DeviceBuffer::from_host(g, &[1.0f32]).map_err(e)?, DeviceBuffer::<f32>::zeros(g, 0).map_err(e)?);
            expect(
                g.matmul_fp8(&Fp8Params::new().scales(Fp8Scales::PerTensor { a: &one, b: &empty }), &a16, Fp8Rhs::B(&b16), &mut c48),
                |e| matches!(e, Error::BufferTooSmall { name: "scale_b", .. }),
                "an empty scale",
            )?;
            expect(
                g.matmul_fp8(&Fp8Params::new().bias(tessera::BiasKind::PerColumn, &one), &a16, Fp8Rhs::B(&b16), &mut c48),
                |e| matches!(e, Error::BufferTooSmall { name: "bias", .. }),
                "a bias of 1 value for 8 columns",
            )?;
            expect(
                g.matmul_fp8(
                    &Fp8Params::new().algo(Algo::Fp8E4m3Fast).activation(tessera::Activation::Relu),
                    &a16,
                    Fp8Rhs::B(&b16),
                    &mut c48,
                ),
                |e| matches!(e, Error::InvalidArgument { .. }),
                "an epilogue on an unpromoted kernel",
            )?;
            let e5 = DeviceMatrix::<F8E5M2>::zeros(g, 16, 16).map_err(e)?;
            let mut c16 = DeviceBuffer::<f32>::zeros(g, 256).map_err(e)?;
            expect(
                g.gemm(
                    &GemmParams::new(),
                    MatrixRef::row_major(e5.buffer(), 16, 16),
                    MatrixRef::row_major(e5.buffer(), 16, 16),
                    MatrixMut::row_major(&mut c16, 16, 16),
                ),
                |e| matches!(e, Error::NoKernel { .. }),
                "gemm on E5M2 views",
            )?;
            // Refused before the GPU: it still computes, FP8 included.
            let ok = g
                .matmul_host_in(
                    Precision::Fp8E4m3,
                    Algo::Auto,
                    &HostMatrix::from_fn(2, 16, |_, _| 1.0),
                    &HostMatrix::from_fn(16, 2, |_, _| 0.5),
                )
                .map_err(e)?;
            if ok.data == [8.0; 4] {
                Ok(())
            } else {
                Err(format!("after the refusals: {:?}", ok.data))
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
        gpu_trial("device_matrix_from_a_buffer_of_another_length_is_typed", |g| {
            let buf = |len| DeviceBuffer::<f32>::zeros(g, len).map_err(|e| e.to_string());
            // A matrix that would claim 4×4 over 3 elements is refused where it would be made.
            expect(
                DeviceMatrix::from_buffer(4, 4, buf(3)?),
                |e| matches!(e, Error::BufferTooSmall { op: "DeviceMatrix::from_buffer", len: 3, needed: 16, .. }),
                "4×4 over 3 elements",
            )?;
            expect(DeviceMatrix::from_buffer(4, 4, buf(17)?), |e| matches!(e, Error::ShapeMismatch { .. }), "4×4 over 17 elements")?;
            expect(DeviceMatrix::from_buffer(usize::MAX, 2, buf(1)?), |e| matches!(e, Error::TooLarge { .. }), "usize::MAX×2")?;
            let m = DeviceMatrix::from_buffer(4, 4, buf(16)?).map_err(|e| e.to_string())?;
            if m.shape() != (4, 4) || m.into_buffer().len() != 16 {
                return Err("4×4 over 16 elements: wrong shape or buffer".into());
            }
            Ok(())
        }),
        gpu_trial("device_matrix_from_a_slice_of_another_length_is_typed", |g| {
            let data = vec![bf16::ONE; 12];
            expect(
                DeviceMatrix::from_slice(g, 4, 4, &data),
                |e| matches!(e, Error::BufferTooSmall { op: "DeviceMatrix::from_slice", name: "data", len: 12, needed: 16 }),
                "4×4 from 12 elements",
            )?;
            expect(DeviceMatrix::from_slice(g, 2, 5, &data), |e| matches!(e, Error::ShapeMismatch { .. }), "2×5 from 12 elements")?;
            expect(DeviceMatrix::from_slice(g, usize::MAX, 2, &data), |e| matches!(e, Error::TooLarge { .. }), "usize::MAX×2")?;
            // HostMatrix's fields are public, so they may disagree: from_host checks too.
            let host = HostMatrix { rows: 3, cols: 3, data: vec![0.0; 8] };
            expect(
                DeviceMatrix::<f16>::from_host(g, &host),
                |e| matches!(e, Error::BufferTooSmall { name: "data", .. }),
                "3×3 host matrix of 8",
            )
        }),
        gpu_trial("device_matrix_whose_buffer_was_swapped_for_a_short_one_is_typed", |g| {
            // `buffer_mut` allows replacing the buffer; every launch still checks its length.
            let a = DeviceMatrix::<f32>::zeros(g, 4, 4).map_err(|e| e.to_string())?;
            let mut short = DeviceMatrix::<f32>::zeros(g, 4, 4).map_err(|e| e.to_string())?;
            *short.buffer_mut() = DeviceBuffer::<f32>::zeros(g, 3).map_err(|e| e.to_string())?;
            let mut c = DeviceMatrix::<f32>::zeros(g, 4, 4).map_err(|e| e.to_string())?;
            expect(g.matmul(Algo::Tiled, &a, &short, &mut c), |e| matches!(e, Error::BufferTooSmall { name: "B", .. }), "B of 3 elements")?;
            expect(short.to_host(g), |e| matches!(e, Error::BufferTooSmall { name: "buffer", .. }), "download of 3 elements")?;
            expect(short.fill(g, 1.0), |e| matches!(e, Error::BufferTooSmall { name: "buffer", .. }), "fill of 3 elements")
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
            expect(g.vec_add(&x, &y, &mut z), |e| matches!(e, Error::WrongContext { .. }), "vec_add a from an isolated context")?;
            let mut foreign = foreign;
            expect(foreign.fill(g, 1.0), |e| matches!(e, Error::WrongContext { op: "DeviceMatrix::fill" }), "fill from an isolated context")
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
        gpu_trial("gemm_bad_arguments_are_typed_and_leave_c_untouched", gemm_bad_arguments),
        Trial::test("gemm_view_errors_are_typed_before_any_gpu_call", || {
            // The checks behind Gpu::gemm need no driver: they run in CI.
            use tessera::catalogue::plan::gemm::GemmArgs;
            let ok = GemmArgs {
                alpha: 1.0,
                beta: 0.0,
                a: MatrixDesc::row_major(4, 5),
                a_len: 20,
                trans_a: Transpose::No,
                b: MatrixDesc::col_major(5, 3),
                b_len: 15,
                trans_b: Transpose::No,
                c: MatrixDesc::row_major(4, 3),
                c_len: 12,
                elem_bytes: 4,
            };
            type Want = fn(&Error) -> bool;
            let cases: [(GemmArgs, Want); 4] = [
                (GemmArgs { b: MatrixDesc::col_major(5, 3).with_ld(4), ..ok }, |e| {
                    matches!(e, Error::LeadingDimension { name: "B", ld: 4, min: 5, .. })
                }),
                (GemmArgs { c_len: 11, ..ok }, |e| matches!(e, Error::BufferTooSmall { name: "C", len: 11, needed: 12, .. })),
                (GemmArgs { trans_b: Transpose::Yes, ..ok }, |e| matches!(e, Error::ShapeMismatch { .. })),
                (
                    GemmArgs {
                        a: MatrixDesc::row_major(1 << 20, 1 << 12),
                        a_len: usize::MAX,
                        c: MatrixDesc::row_major(1 << 20, 3),
                        c_len: usize::MAX,
                        b: MatrixDesc::col_major(1 << 12, 3),
                        b_len: usize::MAX,
                        ..ok
                    },
                    |e| matches!(e, Error::TooLarge { .. }),
                ),
            ];
            for (i, (args, want)) in cases.into_iter().enumerate() {
                match args.plan().map_err(Error::from) {
                    Err(e) if want(&e) => {}
                    other => return Err(format!("case {i}: {other:?}").into()),
                }
            }
            Ok(())
        }),
    ];
    run(trials)
}

/// Every inconsistent GEMM argument is a typed error before any GPU work: `C` keeps its values and the
/// `Gpu` stays usable.
fn gemm_bad_arguments(g: &Gpu) -> Result<(), String> {
    let e = |e: Error| e.to_string();
    let (a, b) = (DeviceBuffer::from_host(g, &[1.0f32; 20]).map_err(e)?, DeviceBuffer::from_host(g, &[1.0f32; 15]).map_err(e)?);
    let mut c = DeviceBuffer::from_host(g, &[7.0f32; 12]).map_err(e)?;
    let a16 = DeviceBuffer::<bf16>::zeros(g, 20).map_err(e)?;
    let b_bf16 = DeviceBuffer::<bf16>::zeros(g, 15).map_err(e)?;
    let p = GemmParams::new();
    let (ra, rb) = (MatrixRef::row_major(&a, 4, 5), MatrixRef::row_major(&b, 5, 3));
    expect(
        g.gemm(&p, ra.ld(4), rb, MatrixMut::row_major(&mut c, 4, 3)),
        |e| matches!(e, Error::LeadingDimension { name: "A", ld: 4, min: 5, .. }),
        "A's ld 4 < 5",
    )?;
    expect(
        g.gemm(&p, ra, rb, MatrixMut::col_major(&mut c, 4, 3).ld(3)),
        |e| matches!(e, Error::LeadingDimension { name: "C", ld: 3, min: 4, .. }),
        "column-major C's ld 3 < 4",
    )?;
    expect(
        g.gemm(&p, ra, rb.offset(1), MatrixMut::row_major(&mut c, 4, 3)),
        |e| matches!(e, Error::BufferTooSmall { name: "B", len: 15, needed: 16, .. }),
        "B past its buffer",
    )?;
    expect(
        g.gemm(&p, ra, rb.ld(4), MatrixMut::row_major(&mut c, 4, 3)),
        |e| matches!(e, Error::BufferTooSmall { name: "B", .. }),
        "B's ld 4 past its buffer",
    )?;
    expect(
        g.gemm(&p.trans_a(Transpose::Yes), ra, rb, MatrixMut::row_major(&mut c, 4, 3)),
        |e| matches!(e, Error::ShapeMismatch { .. }),
        "op(A) 5×4 · B 5×3",
    )?;
    expect(g.gemm(&p, ra, rb, MatrixMut::row_major(&mut c, 3, 4)), |e| matches!(e, Error::ShapeMismatch { .. }), "C 3×4")?;
    expect(
        g.gemm(&p.precision(Precision::Bf16), ra, rb, MatrixMut::row_major(&mut c, 4, 3)),
        |e| matches!(e, Error::UnsupportedPrecision { requested: Precision::Bf16, input: Precision::Fp32, .. }),
        "BF16 on f32",
    )?;
    expect(
        g.gemm(
            &p.precision(Precision::Tf32),
            MatrixRef::row_major(&a16, 4, 5),
            MatrixRef::row_major(&b_bf16, 5, 3),
            MatrixMut::row_major(&mut c, 4, 3),
        ),
        |e| matches!(e, Error::UnsupportedPrecision { requested: Precision::Tf32, .. }),
        "TF32 on bf16",
    )?;
    expect(
        g.gemm(&p.algo(Algo::MmaPipeTf32), ra, rb, MatrixMut::row_major(&mut c, 4, 3)),
        |e| matches!(e, Error::PrecisionMismatch { requested: Precision::Fp32, .. }),
        "TF32 kernel on FP32",
    )?;
    // Even with nothing to multiply (α = 0), a kernel of the wrong precision is refused.
    expect(
        g.gemm(&p.alpha(0.0).algo(Algo::MmaPipeBf16x128), ra, rb, MatrixMut::row_major(&mut c, 4, 3)),
        |e| matches!(e, Error::PrecisionMismatch { .. }),
        "BF16 kernel on FP32, α = 0",
    )?;
    let other = Gpu::new_isolated(0).map_err(e)?;
    let foreign = DeviceBuffer::from_host(&other, &[1.0f32; 15]).map_err(e)?;
    expect(
        g.gemm(&p, ra, MatrixRef::row_major(&foreign, 5, 3), MatrixMut::row_major(&mut c, 4, 3)),
        |e| matches!(e, Error::WrongContext { .. }),
        "B from another context",
    )?;
    let untouched = c.to_host(g).map_err(e)?;
    if untouched.iter().any(|&x| x != 7.0) {
        return Err(format!("C changed by refused GEMMs: {untouched:?}"));
    }
    // Still usable: C = 2·A·B + C = 2·5 + 7.
    g.gemm(&p.alpha(2.0).beta(1.0), ra, rb, MatrixMut::row_major(&mut c, 4, 3)).map_err(e)?;
    let after = c.to_host(g).map_err(e)?;
    if after.iter().all(|&x| x == 17.0) {
        Ok(())
    } else {
        Err(format!("after the errors: {after:?}"))
    }
}
