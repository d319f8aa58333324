//! The example's kernels on the CPU: tessera's emulator runs each launch with CUDA's block, barrier
//! and shared-memory semantics (every index checked) and the results are held to the `f64`
//! reference within the tolerances written down in `src/check.rs` (the GPU run uses the same).
use own_kernels::{silu_mul_f32, silu_mul_launch, softmax_launch, softmax_rows_bf16, softmax_rows_f32, LaunchDims};
use tessera_emulator::{launch, Launch, SyncPtr};
use tessera_own_kernel::check::{check_silu_mul, check_softmax, inputs, EPS};

/// `n` floats starting at a 16-byte boundary plus `offset` floats: offset 0 takes the kernels'
/// 128-bit path (as CUDA allocations do), any other offset their element-by-element one.
struct Buffer {
    storage: Vec<u128>,
    offset: usize,
    len: usize,
}

impl Buffer {
    fn new(values: &[f32], offset: usize) -> Self {
        let mut b = Buffer { storage: vec![0; (values.len() + offset).div_ceil(4) + 1], offset, len: values.len() };
        b.as_mut().copy_from_slice(values);
        b
    }
    fn as_mut(&mut self) -> &mut [f32] {
        // SAFETY: the storage holds at least offset + len floats (4 per u128), aligned for f32.
        unsafe { std::slice::from_raw_parts_mut(self.storage.as_mut_ptr().cast::<f32>().add(self.offset), self.len) }
    }
}

fn emulated(d: LaunchDims) -> Launch {
    Launch::from(d)
}

/// Runs the f32 softmax on the emulator, input and output `offset` floats past 16-byte alignment.
fn softmax_f32(x: &[f32], rows: u32, cols: u32, offset: usize) -> Result<Vec<f32>, String> {
    let dims = softmax_launch(rows, cols).ok_or("no launch for this shape")?;
    let mut bx = Buffer::new(x, offset);
    let mut by = Buffer::new(&vec![f32::NAN; x.len()], offset);
    let (px, py) = (SyncPtr::new(bx.as_mut().as_mut_ptr()), SyncPtr::new(by.as_mut().as_mut_ptr()));
    // SAFETY: x and y hold rows·cols floats and outlive the launch, which is softmax_launch's.
    launch("softmax_rows_f32", emulated(dims), || unsafe { softmax_rows_f32(px.get(), py.get(), rows, cols) })
        .map_err(|e| e.to_string())?;
    Ok(by.as_mut().to_vec())
}

#[test]
fn softmax_f32_matches_the_reference_on_odd_shapes() -> Result<(), String> {
    for (rows, cols, seed) in [(1, 1, 1), (3, 7, 2), (5, 255, 3), (4, 257, 4), (2, 1000, 5), (3, 4099, 6), (2, 4100, 7)] {
        let x = inputs((rows * cols) as usize, seed, 30.0);
        for offset in [0, 1] {
            let y = softmax_f32(&x, rows, cols, offset)?;
            check_softmax(&x, &y, cols as usize).map_err(|e| format!("{rows}×{cols}, offset {offset}: {e}"))?;
        }
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
    let y = softmax_f32(&x, rows, cols, 0)?;
    for r in 0..rows as usize {
        let sum: f64 = y[r * cols as usize..(r + 1) * cols as usize].iter().map(|&v| f64::from(v)).sum();
        if (sum - 1.0).abs() > (10.0 + f64::from(cols)) * EPS * 2.0 || y.iter().any(|v| !v.is_finite()) {
            return Err(format!("row {r} sums to {sum}"));
        }
    }
    Ok(())
}

#[test]
fn softmax_bf16_matches_the_reference_on_its_widened_inputs() -> Result<(), String> {
    for (rows, cols) in [(3u32, 777u32), (2, 1024)] {
        let bits: Vec<u16> = inputs((rows * cols) as usize, 11, 20.0).iter().map(|&v| half::bf16::from_f32(v).to_bits()).collect();
        let widened: Vec<f32> = bits.iter().map(|&b| half::bf16::from_bits(b).to_f32()).collect();
        let dims = softmax_launch(rows, cols).ok_or("no launch")?;
        // 8-byte aligned 16-bit input (u64 storage), 16-byte aligned output: the vector path when cols % 4 == 0.
        let mut storage = vec![0u64; bits.len().div_ceil(4)];
        // SAFETY: the storage holds at least bits.len() 16-bit words.
        let xs = unsafe { std::slice::from_raw_parts_mut(storage.as_mut_ptr().cast::<u16>(), bits.len()) };
        xs.copy_from_slice(&bits);
        let mut by = Buffer::new(&vec![f32::NAN; bits.len()], 0);
        let (px, py) = (SyncPtr::new(xs.as_mut_ptr()), SyncPtr::new(by.as_mut().as_mut_ptr()));
        // SAFETY: as softmax_f32.
        launch("softmax_rows_bf16", emulated(dims), || unsafe { softmax_rows_bf16(px.get(), py.get(), rows, cols) })
            .map_err(|e| e.to_string())?;
        check_softmax(&widened, by.as_mut(), cols as usize).map_err(|e| format!("{rows}×{cols}: {e}"))?;
    }
    Ok(())
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
        check_silu_mul(&x, &y, &out).map_err(|e| format!("n = {n}: {e}"))?;
    }
    Ok(())
}
