//! The example's kernels on the CPU: tessera's emulator runs each launch with CUDA's block, barrier
//! and shared-memory semantics (every index checked) and the results are held to an `f64` reference.
//!
//! Tolerances, written once: a softmax output is `e_i / Σe` with `e_i = 2^((x_i − max)·log₂e)`. The
//! subtraction and the product each round the exponent by half an ulp, an absolute error of about
//! `|x_i − max|·ε` that `exp` turns into that much relative error (its condition number is its
//! argument): `2·|x_i − max|·ε` for both. On the host `exp2` is `f32::exp2` (within an ulp), and the
//! GPU's `ex2.approx` is within 2⁻²² = 4ε. The sum of `cols` terms in `f32` adds at most `cols·ε`
//! relative in the worst order, and the division one more ulp (ε = 2⁻²⁴ throughout). So
//! `|y − ref| ≤ (8 + cols + 4·|x_i − max|)·ε·ref + 1e-30`. `SiLU(x)·y` is a handful of roundings:
//! `16·ε·|ref|` (`ex2.approx`'s 2⁻²² is 4ε) plus an absolute `1e-30` for results near zero.
use own_kernels::{silu_mul_f32, silu_mul_launch, softmax_launch, softmax_rows_bf16, softmax_rows_f32, LaunchDims};
use tessera_emulator::{launch, Launch, SyncPtr};

const EPS: f64 = f32::EPSILON as f64 / 2.0; // 2⁻²⁴, the unit roundoff

/// Deterministic inputs in [−range, range] (a 64-bit LCG: no dependency, the same on every machine).
fn inputs(n: usize, seed: u64, range: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * range
        })
        .collect()
}

fn emulated(d: LaunchDims) -> Launch {
    Launch::new(d.grid, d.block, d.shared_bytes as usize)
}

/// The `f64` softmax of each row of `x`.
fn softmax_reference(x: &[f32], rows: usize, cols: usize) -> Vec<f64> {
    let mut out = vec![0.0; rows * cols];
    for r in 0..rows {
        let row = &x[r * cols..(r + 1) * cols];
        let max = row.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(f64::from(v)));
        let sum: f64 = row.iter().map(|&v| (f64::from(v) - max).exp()).sum();
        for (c, &v) in row.iter().enumerate() {
            out[r * cols + c] = (f64::from(v) - max).exp() / sum;
        }
    }
    out
}

fn check_softmax(x: &[f32], y: &[f32], reference: &[f64], cols: usize) -> Result<(), String> {
    for (i, (&got, &want)) in y.iter().zip(reference).enumerate() {
        let row = &x[i / cols * cols..(i / cols + 1) * cols];
        let max = row.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
        let bound = (8.0 + cols as f64 + 4.0 * f64::from(max - x[i]).abs()) * EPS;
        if (f64::from(got) - want).abs() > bound * want + 1e-30 {
            return Err(format!("element {i} (row {}, column {}): {got} against {want}", i / cols, i % cols));
        }
    }
    Ok(())
}

/// Runs the f32 softmax on the emulator.
fn softmax_f32(x: &[f32], rows: u32, cols: u32) -> Result<Vec<f32>, String> {
    let dims = softmax_launch(rows, cols).ok_or("no launch for this shape")?;
    let mut y = vec![f32::NAN; (rows * cols) as usize];
    let (px, py) = (SyncPtr::from_const(x.as_ptr()), SyncPtr::new(y.as_mut_ptr()));
    // SAFETY: x and y hold rows·cols floats and outlive the launch, which is softmax_launch's.
    launch("softmax_rows_f32", emulated(dims), || unsafe { softmax_rows_f32(px.get(), py.get(), rows, cols) })
        .map_err(|e| e.to_string())?;
    Ok(y)
}

#[test]
fn softmax_f32_matches_the_reference_on_odd_shapes() -> Result<(), String> {
    for (rows, cols, seed) in [(1, 1, 1), (3, 7, 2), (5, 255, 3), (4, 257, 4), (2, 1000, 5), (3, 4099, 6)] {
        let x = inputs((rows * cols) as usize, seed, 30.0);
        let y = softmax_f32(&x, rows, cols)?;
        check_softmax(&x, &y, &softmax_reference(&x, rows as usize, cols as usize), cols as usize)
            .map_err(|e| format!("{rows}×{cols}: {e}"))?;
    }
    Ok(())
}

#[test]
fn softmax_rows_sum_to_one_and_survive_large_inputs() -> Result<(), String> {
    // Values near f32's largest: the maximum is subtracted before exp, so nothing overflows.
    let (rows, cols) = (2u32, 300u32);
    let mut x = inputs((rows * cols) as usize, 9, 1.0);
    for v in &mut x {
        *v = 3.0e38 * v.signum() - *v;
    }
    let y = softmax_f32(&x, rows, cols)?;
    for r in 0..rows as usize {
        let sum: f64 = y[r * cols as usize..(r + 1) * cols as usize].iter().map(|&v| f64::from(v)).sum();
        if (sum - 1.0).abs() > (8.0 + f64::from(cols)) * EPS * 2.0 || y.iter().any(|v| !v.is_finite()) {
            return Err(format!("row {r} sums to {sum}"));
        }
    }
    Ok(())
}

#[test]
fn softmax_bf16_matches_the_reference_on_its_widened_inputs() -> Result<(), String> {
    let (rows, cols) = (3u32, 777u32);
    let bits: Vec<u16> = inputs((rows * cols) as usize, 11, 20.0).iter().map(|&v| half::bf16::from_f32(v).to_bits()).collect();
    let widened: Vec<f32> = bits.iter().map(|&b| half::bf16::from_bits(b).to_f32()).collect();
    let dims = softmax_launch(rows, cols).ok_or("no launch")?;
    let mut y = vec![f32::NAN; (rows * cols) as usize];
    let (px, py) = (SyncPtr::from_const(bits.as_ptr()), SyncPtr::new(y.as_mut_ptr()));
    // SAFETY: as softmax_f32.
    launch("softmax_rows_bf16", emulated(dims), || unsafe { softmax_rows_bf16(px.get(), py.get(), rows, cols) })
        .map_err(|e| e.to_string())?;
    check_softmax(&widened, &y, &softmax_reference(&widened, rows as usize, cols as usize), cols as usize)
}

#[test]
fn softmax_launch_refuses_what_it_cannot_run() {
    assert_eq!(softmax_launch(0, 10), None);
    assert_eq!(softmax_launch(10, 0), None);
    assert_eq!(softmax_launch(1, own_kernels::SOFTMAX_MAX_COLS + 1), None);
    assert!(softmax_launch(1, own_kernels::SOFTMAX_MAX_COLS).is_some_and(|d| d.shared_bytes <= 227 * 1024));
}

#[test]
fn silu_mul_matches_the_reference() -> Result<(), String> {
    for (n, seed) in [(1u32, 1u64), (255, 2), (1000, 3), (70_001, 4)] {
        let (x, y) = (inputs(n as usize, seed, 12.0), inputs(n as usize, seed + 100, 3.0));
        let dims = silu_mul_launch(n).ok_or("no launch")?;
        let mut out = vec![f32::NAN; n as usize];
        let (px, py, po) = (SyncPtr::from_const(x.as_ptr()), SyncPtr::from_const(y.as_ptr()), SyncPtr::new(out.as_mut_ptr()));
        // SAFETY: x, y and out hold n floats and outlive the launch.
        launch("silu_mul_f32", emulated(dims), || unsafe { silu_mul_f32(px.get(), py.get(), po.get(), n) }).map_err(|e| e.to_string())?;
        for i in 0..n as usize {
            let (a, b) = (f64::from(x[i]), f64::from(y[i]));
            let want = a * b / (1.0 + (-a).exp());
            if (f64::from(out[i]) - want).abs() > 16.0 * EPS * want.abs() + 1e-30 {
                return Err(format!("n = {n}, element {i}: {} against {want}", out[i]));
            }
        }
    }
    Ok(())
}
