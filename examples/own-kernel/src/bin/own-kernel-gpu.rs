//! The example's kernels on a real GPU: parity on odd shapes against the `f64` reference (the
//! tolerances of `check`), then the softmax's and SiLU·mul's bandwidth beside a device-to-device copy
//! of the same bytes, timed with CUDA events around many launches after a warm-up. `--dump DIR`
//! leaves the large softmax's input and output for `scripts/torch_anchor.py` (torch in the same lease).
//! Without a GPU it prints `skipped: no CUDA device` and exits 0.
use std::io::Write;
use std::path::PathBuf;

use clap::Parser;
use tessera::{bf16, DeviceBuffer, DeviceMatrix, Gpu, GpuTimer};
use tessera_own_kernel::check::{check_silu_mul, check_softmax, inputs};
use tessera_own_kernel::OwnKernels;

#[derive(Parser)]
#[command(about = "Parity and bandwidth of examples/own-kernel's kernels on the GPU")]
struct Args {
    /// Rows of the timed softmax.
    #[arg(long, default_value_t = 8192)]
    rows: usize,
    /// Columns of the timed softmax.
    #[arg(long, default_value_t = 8192)]
    cols: usize,
    /// Timed launches per figure (after as many warm-up launches).
    #[arg(long, default_value_t = 50)]
    iters: usize,
    /// A PTX file to load instead of the embedded build (another build of kernels/).
    #[arg(long)]
    ptx: Option<PathBuf>,
    /// Folder for the timed softmax's input and output (`x.f32`, `y.f32`, raw little-endian) and `meta.json`.
    #[arg(long)]
    dump: Option<PathBuf>,
}

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> Res<()> {
    let args = Args::parse();
    let gpu = match Gpu::new(0) {
        Ok(g) => g,
        Err(e) => {
            println!("skipped: no CUDA device ({e})");
            return Ok(());
        }
    };
    let kernels = match &args.ptx {
        Some(path) => OwnKernels::load_ptx(&gpu, &std::fs::read_to_string(path)?)?,
        None => OwnKernels::load(&gpu)?,
    };
    let info = gpu.info()?;
    eprintln!("{} ({} SMs)", info.name, info.sm_count);
    parity(&gpu, &kernels)?;
    bandwidth(&gpu, &kernels, &args)
}

/// Every kernel on odd shapes (scalar and vector paths, one to many warps a row) against the reference.
fn parity(gpu: &Gpu, k: &OwnKernels) -> Res<()> {
    let mut cases = 0;
    for (i, &(rows, cols)) in
        [(1, 1), (3, 7), (5, 255), (4, 257), (2, 1000), (3, 4099), (37, 8192), (130, 4096), (3, 50_001)].iter().enumerate()
    {
        let x = inputs(rows * cols, 100 + i as u64, 30.0);
        let dx = DeviceMatrix::from_slice(gpu, rows, cols, &x)?;
        let mut dy = DeviceMatrix::from_slice(gpu, rows, cols, &vec![f32::NAN; rows * cols])?;
        k.softmax_rows(gpu, &dx, &mut dy)?;
        check_softmax(&x, &dy.to_host(gpu)?.data, cols).map_err(|e| format!("softmax f32 {rows}×{cols}: {e}"))?;
        let xb: Vec<bf16> = x.iter().map(|&v| bf16::from_f32(v)).collect();
        let widened: Vec<f32> = xb.iter().map(|v| v.to_f32()).collect();
        let dxb = DeviceMatrix::from_slice(gpu, rows, cols, &xb)?;
        k.softmax_rows_bf16(gpu, &dxb, &mut dy)?;
        check_softmax(&widened, &dy.to_host(gpu)?.data, cols).map_err(|e| format!("softmax bf16 {rows}×{cols}: {e}"))?;
        cases += 2;
    }
    for (i, &n) in [1usize, 255, 1000, 70_001, (1 << 22) + 3].iter().enumerate() {
        let (x, y) = (inputs(n, 200 + i as u64, 12.0), inputs(n, 300 + i as u64, 3.0));
        let (dx, dy) = (DeviceBuffer::from_host(gpu, &x)?, DeviceBuffer::from_host(gpu, &y)?);
        let mut out = DeviceBuffer::from_host(gpu, &vec![f32::NAN; n])?;
        k.silu_mul(gpu, &dx, &dy, &mut out)?;
        check_silu_mul(&x, &y, &out.to_host(gpu)?).map_err(|e| format!("silu_mul n = {n}: {e}"))?;
        cases += 1;
    }
    println!("parity: {cases} cases within the tolerances of check.rs");
    Ok(())
}

fn bandwidth(gpu: &Gpu, k: &OwnKernels, a: &Args) -> Res<()> {
    let (rows, cols, n) = (a.rows, a.cols, a.rows * a.cols);
    let x = inputs(n, 7, 8.0);
    let dx = DeviceMatrix::from_slice(gpu, rows, cols, &x)?;
    let mut dy = DeviceMatrix::<f32>::zeros(gpu, rows, cols)?;
    let timer = GpuTimer::new(gpu)?;
    let bytes = 2.0 * (n * 4) as f64; // read x once, write y once
    let softmax_ms = timer.time_ms(gpu, a.iters, a.iters, || k.softmax_rows(gpu, &dx, &mut dy))?;
    let copy_ms = timer.time_ms::<tessera::Error>(gpu, a.iters, a.iters, || {
        gpu.stream()
            .memcpy_dtod(dx.buffer().as_cuda_slice(), dy.buffer_mut().as_cuda_slice_mut())
            .map_err(|e| tessera::Error::Driver { during: "copying", source: e })
    })?;
    // The figure's output last, for the dump.
    k.softmax_rows(gpu, &dx, &mut dy)?;
    let y = dy.to_host(gpu)?.data;
    check_softmax(&x[..cols * 4], &y[..cols * 4], cols).map_err(|e| format!("timed softmax: {e}"))?;
    let xb: Vec<bf16> = x.iter().map(|&v| bf16::from_f32(v)).collect();
    let dxb = DeviceMatrix::from_slice(gpu, rows, cols, &xb)?;
    let bf16_ms = timer.time_ms(gpu, a.iters, a.iters, || k.softmax_rows_bf16(gpu, &dxb, &mut dy))?;
    let (sx, sy) = (DeviceBuffer::from_host(gpu, &x)?, DeviceBuffer::from_host(gpu, &x)?);
    let mut sout = DeviceBuffer::<f32>::zeros(gpu, n)?;
    let silu_ms = timer.time_ms(gpu, a.iters, a.iters, || k.silu_mul(gpu, &sx, &sy, &mut sout))?;
    let tbs = |bytes: f64, ms: f64| bytes / (ms * 1e-3) / 1e12;
    let (softmax, copy) = (tbs(bytes, softmax_ms), tbs(bytes, copy_ms));
    let summary = format!(
        "{{\"rows\": {rows}, \"cols\": {cols}, \"iters\": {}, \"softmax_f32_us\": {:.2}, \"softmax_f32_tb_s\": {softmax:.3}, \
         \"copy_us\": {:.2}, \"copy_tb_s\": {copy:.3}, \"softmax_f32_over_copy\": {:.3}, \
         \"softmax_bf16_us\": {:.2}, \"softmax_bf16_tb_s\": {:.3}, \"silu_mul_us\": {:.2}, \"silu_mul_tb_s\": {:.3}}}",
        a.iters,
        softmax_ms * 1e3,
        copy_ms * 1e3,
        softmax / copy,
        bf16_ms * 1e3,
        tbs((n * 2 + n * 4) as f64, bf16_ms),
        silu_ms * 1e3,
        tbs(3.0 * (n * 4) as f64, silu_ms),
    );
    println!("{summary}");
    if let Some(dir) = &a.dump {
        std::fs::create_dir_all(dir)?;
        let raw = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
        std::fs::write(dir.join("x.f32"), raw(&x))?;
        std::fs::write(dir.join("y.f32"), raw(&y))?;
        std::fs::File::create(dir.join("meta.json"))?.write_all(summary.as_bytes())?;
    }
    Ok(())
}
