//! ndarray and faer matrices to and from the device (tessera's `ndarray` and `faer` features): every
//! memory order each offers — contiguous row-major, contiguous column-major (transposed on the
//! device), strided views (gathered) — round-trips exactly, in `f32` and `bf16`, and feeds `gemm`.
use faer::Mat;
use ndarray::{s, Array2, ShapeBuilder};
use tessera::catalogue::testkit::check::check_in;
use tessera::{bf16, f16, Algo, DeviceElement, DeviceMatrix, Gpu, HostMatrix, Precision};
use tessera_tests::{gpu_trial, run};

fn e(err: tessera::Error) -> String {
    err.to_string()
}

/// Uploads `view` and checks the device copy equals it element for element.
fn ndarray_round_trip<T: DeviceElement + PartialEq + std::fmt::Debug>(
    g: &Gpu,
    view: ndarray::ArrayView2<'_, T>,
    what: &str,
) -> Result<(), String> {
    let d = DeviceMatrix::from_ndarray(g, view).map_err(e)?;
    let back = d.to_ndarray(g).map_err(e)?;
    if back == view {
        Ok(())
    } else {
        Err(format!("{what}: {back:?} != {view:?}"))
    }
}

/// `data` uploaded as a `rows × cols` matrix comes back bit for bit; `fill` sets every element to
/// `value` (an odd element count: the 16-bit memset has no even tail to lean on).
fn slice_and_fill<T: DeviceElement + PartialEq + std::fmt::Debug>(g: &Gpu, data: &[T], rows: usize, value: T) -> Result<(), String> {
    let cols = data.len() / rows;
    let mut d = DeviceMatrix::from_slice(g, rows, cols, data).map_err(e)?;
    let back = d.to_vec(g).map_err(e)?;
    if d.shape() != (rows, cols) || back != data {
        return Err(format!("{rows}×{cols} {:?}: the upload did not come back as it was", T::PRECISION));
    }
    let widened = d.to_host(g).map_err(e)?;
    if widened.data != data.iter().map(|x| x.to_f32()).collect::<Vec<_>>() {
        return Err(format!("{:?}: to_host is not the exact widening", T::PRECISION));
    }
    d.fill(g, value).map_err(e)?;
    let filled = d.to_vec(g).map_err(e)?;
    match filled.iter().position(|x| *x != value) {
        Some(i) => Err(format!("{:?} fill with {value:?}: element {i} is {:?}", T::PRECISION, filled[i])),
        None => Ok(()),
    }
}

fn typed_slices(g: &Gpu) -> Result<(), String> {
    let (rows, cols) = (37, 53);
    let values: Vec<f32> = (0..rows * cols).map(|i| (i as f32 - 900.0) / 8.0).collect();
    slice_and_fill(g, &values, rows, -3.25f32)?;
    slice_and_fill(g, &values.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>(), rows, bf16::from_f32(0.1))?;
    slice_and_fill(g, &values.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>(), rows, f16::from_f32(-0.1))?;
    // Empty matrices: nothing to upload or fill.
    let mut empty = DeviceMatrix::<bf16>::from_slice(g, 0, 5, &[]).map_err(e)?;
    empty.fill(g, bf16::ONE).map_err(e)?;
    if !empty.to_vec(g).map_err(e)?.is_empty() {
        return Err("0×5: not empty".into());
    }
    // A filled matrix feeds a product: ones · ones = K everywhere.
    let k = 40;
    let mut a = DeviceMatrix::<bf16>::zeros(g, 9, k).map_err(e)?;
    let mut b = DeviceMatrix::<bf16>::zeros(g, k, 7).map_err(e)?;
    a.fill(g, bf16::ONE).map_err(e)?;
    b.fill(g, bf16::ONE).map_err(e)?;
    let mut c = DeviceMatrix::<f32>::zeros(g, 9, 7).map_err(e)?;
    g.matmul(Algo::Auto, &a, &b, &mut c).map_err(e)?;
    let got = c.to_vec(g).map_err(e)?;
    if got.iter().all(|&x| x == k as f32) {
        Ok(())
    } else {
        Err(format!("ones · ones over K = {k}: {got:?}"))
    }
}

fn ndarray_orders(g: &Gpu) -> Result<(), String> {
    let c = Array2::from_shape_fn((37, 53), |(r, c)| (r * 100 + c) as f32);
    let f = Array2::from_shape_fn((37, 53).f(), |(r, c)| (r * 100 + c) as f32);
    ndarray_round_trip(g, c.view(), "C order")?;
    ndarray_round_trip(g, f.view(), "Fortran order (device transpose)")?;
    ndarray_round_trip(g, c.slice(s![3..30;2, 1..50]), "strided slice")?;
    ndarray_round_trip(g, c.slice(s![..;-1, ..]), "reversed rows")?;
    ndarray_round_trip(g, c.t(), "transposed view")?;
    ndarray_round_trip(g, Array2::<f32>::zeros((0, 5)).view(), "empty")?;
    ndarray_round_trip(g, Array2::from_shape_fn((1, 9).f(), |(_, c)| c as f32).view(), "one row")?;
    let fb = f.mapv(bf16::from_f32);
    ndarray_round_trip(g, fb.view(), "bf16, Fortran order")
}

fn faer_orders(g: &Gpu) -> Result<(), String> {
    let m = Mat::<f32>::from_fn(37, 53, |r, c| (r * 100 + c) as f32);
    let check = |d: DeviceMatrix<f32>, want: faer::MatRef<'_, f32>, what: &str| -> Result<(), String> {
        let back = d.to_faer(g).map_err(e)?;
        let same = back.nrows() == want.nrows()
            && back.ncols() == want.ncols()
            && (0..want.nrows()).all(|i| (0..want.ncols()).all(|j| back[(i, j)] == want[(i, j)]));
        if same {
            Ok(())
        } else {
            Err(format!("{what}: differs"))
        }
    };
    check(DeviceMatrix::from_faer(g, m.as_ref()).map_err(e)?, m.as_ref(), "Mat")?;
    check(DeviceMatrix::from_faer(g, m.transpose()).map_err(e)?, m.transpose(), "transpose")?;
    check(DeviceMatrix::from_faer(g, m.submatrix(2, 3, 20, 30)).map_err(e)?, m.submatrix(2, 3, 20, 30), "sub-matrix")?;
    // A contiguous column-major view over a slice: read in place, transposed on the device.
    let data: Vec<f32> = (0..37 * 53).map(|x| x as f32).collect();
    let col = faer::MatRef::from_column_major_slice(&data, 37, 53);
    check(DeviceMatrix::from_faer(g, col).map_err(e)?, col, "column-major slice")
}

/// An ndarray Fortran-order product through the device matches the reference.
fn ndarray_product(g: &Gpu) -> Result<(), String> {
    let (m, n, k) = (70, 45, 33);
    let (ha, hb) = (HostMatrix::random(m, k, 5), HostMatrix::random(k, n, 6));
    let a = Array2::from_shape_fn((m, k).f(), |(r, c)| ha.get(r, c));
    let b = Array2::from_shape_fn((k, n), |(r, c)| hb.get(r, c));
    let (da, db) = (DeviceMatrix::from_ndarray(g, a.view()).map_err(e)?, DeviceMatrix::from_ndarray(g, b.view()).map_err(e)?);
    let mut dc = DeviceMatrix::<f32>::zeros(g, m, n).map_err(e)?;
    g.matmul(Algo::Auto, &da, &db, &mut dc).map_err(e)?;
    let c = dc.to_ndarray(g).map_err(e)?;
    let got = HostMatrix::new(m, n, c.iter().copied().collect()).map_err(|x| x.to_string())?;
    check_in(Precision::Fp32, &ha, &hb, &got).map_err(|x| x.to_string())?;
    Ok(())
}

fn main() {
    run(vec![
        gpu_trial("typed_slices_round_trip_and_fill", typed_slices),
        gpu_trial("interop_ndarray_every_memory_order_round_trips", ndarray_orders),
        gpu_trial("interop_faer_every_memory_order_round_trips", faer_orders),
        gpu_trial("interop_ndarray_fortran_order_product", ndarray_product),
    ])
}
