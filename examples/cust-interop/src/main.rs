//! tessera's kernels driven by another CUDA library: cust 0.3 loads tessera's shipped PTX module
//! (`tessera::module::PTX`) and launches `vec_add` and the tiled matmul (ladder rung 2) with the
//! entry names and launch geometry of tessera's catalogue, nothing else. Each result is compared with
//! the same kernel run through tessera's own `Gpu` API (bit for bit: same PTX, same launch) and with
//! a CPU reference.
//!
//! cust and tessera (through cudarc) share the device's primary context (cust 0.3's `Context::new`
//! retains it, as cudarc's `CudaContext::new` does).
use std::error::Error;
use std::process::ExitCode;

use cust::prelude::*;
use tessera::catalogue::registry::entries::entries;
use tessera::catalogue::registry::launch::elementwise;
use tessera::catalogue::testkit::check::check_in;
use tessera::catalogue::testkit::random::operands;
use tessera::{Algo, DeviceBuffer as TesseraBuffer, Gpu, HostMatrix, MatmulShape, Precision};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// tessera's PTX loaded by cust, and a cust stream to launch on.
struct CustKernels {
    module: Module,
    stream: Stream,
}

impl CustKernels {
    /// Loads `tessera::module::PTX` (the driver JIT-compiles it for the device).
    fn load() -> Result<Self> {
        let module = Module::from_ptx(tessera::module::PTX, &[])?;
        let stream = Stream::new(StreamFlags::NON_BLOCKING, None)?;
        Ok(Self { module, stream })
    }

    /// `c = a + b` with tessera's `vec_add` entry: one thread per element, the block size the
    /// catalogue lists for the entry, `⌈n / block⌉` blocks (tessera's own rule, `launch::elementwise`).
    fn vec_add(&self, a: &[f32], b: &[f32]) -> Result<Vec<f32>> {
        const ENTRY: &str = "vec_add";
        let n = a.len();
        assert_eq!(b.len(), n, "vec_add: inputs of one length");
        let threads = entries().iter().find(|e| e.name == ENTRY).ok_or("vec_add is not in tessera's catalogue")?.threads;
        let dims = elementwise(ENTRY, n, threads)?;
        let (da, db) = (DeviceBuffer::from_slice(a)?, DeviceBuffer::from_slice(b)?);
        let dc = DeviceBuffer::<f32>::zeroed(n)?;
        let kernel = self.module.get_function(ENTRY)?;
        let stream = &self.stream;
        // SAFETY: vec_add(a, b, c, n: usize) reads a[0..n], b[0..n] and writes c[0..n] (its doc); the
        // three buffers hold exactly n floats, and threads past n do nothing, so any grid is correct.
        unsafe {
            launch!(kernel<<<dims.grid, dims.block, dims.shared_bytes, stream>>>(
                da.as_device_ptr(), db.as_device_ptr(), dc.as_device_ptr(), n
            ))?;
        }
        stream.synchronize()?;
        let mut c = vec![0.0f32; n];
        dc.copy_to(&mut c)?;
        Ok(c)
    }

    /// `C = A · B` (FP32) with the entry of `Algo::Tiled`, launched as its `TileConfig` states:
    /// its catalogue line's `launch` gives the grid, the 16×16 block and the dynamic shared memory.
    fn matmul_tiled(&self, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix> {
        let shape = MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols))?;
        let dims = tiled_launch(shape)?;
        let (da, db) = (DeviceBuffer::from_slice(&a.data)?, DeviceBuffer::from_slice(&b.data)?);
        let dc = DeviceBuffer::<f32>::zeroed(a.rows * b.cols)?;
        let kernel = self.module.get_function(Algo::Tiled.kernel_name())?;
        let stream = &self.stream;
        let (m, n, k) = (shape.m, shape.n, shape.k);
        // SAFETY: matmul_tiled(a, b, c, m, n, k) reads A[m·k], B[k·n], writes C[m·n] (its doc), the
        // sizes of these buffers; the launch is the kernel's own (16×16 threads, 2 KiB of dynamic shared
        // memory, ⌈n/16⌉ × ⌈m/16⌉ blocks), and MatmulShape::check keeps every index within 32 bits.
        unsafe {
            launch!(kernel<<<dims.grid, dims.block, dims.shared_bytes, stream>>>(
                da.as_device_ptr(), db.as_device_ptr(), dc.as_device_ptr(), m, n, k
            ))?;
        }
        stream.synchronize()?;
        let mut c = HostMatrix::from_fn(a.rows, b.cols, |_, _| 0.0);
        dc.copy_to(&mut c.data)?;
        Ok(c)
    }
}

/// The first index where two results differ bit for bit, with both values.
fn first_difference(x: &[f32], y: &[f32]) -> Option<(usize, f32, f32)> {
    x.iter().zip(y).enumerate().find(|(_, (p, q))| p.to_bits() != q.to_bits()).map(|(i, (&p, &q))| (i, p, q))
}

fn check_vec_add(cust: &CustKernels, gpu: &Gpu) -> Result<()> {
    // An odd length: the last block is partly idle.
    let n = (1 << 20) + 3;
    let (a, b) = (operands(n, 1), operands(n, 2));
    let from_cust = cust.vec_add(&a, &b)?;

    let (da, db) = (TesseraBuffer::from_host(gpu, &a)?, TesseraBuffer::from_host(gpu, &b)?);
    let mut dc = TesseraBuffer::zeros(gpu, n)?;
    gpu.vec_add_scalar(&da, &db, &mut dc)?;
    gpu.synchronize()?;
    let from_tessera = dc.to_host(gpu)?;
    let cpu: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();

    if let Some((i, p, q)) = first_difference(&from_cust, &from_tessera) {
        return Err(format!("vec_add: cust and tessera differ at [{i}]: {p} vs {q}").into());
    }
    if let Some((i, p, q)) = first_difference(&from_cust, &cpu) {
        return Err(format!("vec_add: cust and the CPU differ at [{i}]: {p} vs {q}").into());
    }
    println!("vec_add via cust: {n} elements, identical to tessera's Gpu::vec_add_scalar and to the CPU sum");
    Ok(())
}

fn check_matmul_tiled(cust: &CustKernels, gpu: &Gpu) -> Result<()> {
    // No dimension a multiple of the 16×16 tile: edge blocks on both axes and a partial last K step.
    let (m, n, k) = (300, 200, 129);
    let a = HostMatrix::new(m, k, operands(m * k, 3))?;
    let b = HostMatrix::new(k, n, operands(k * n, 4))?;
    let from_cust = cust.matmul_tiled(&a, &b)?;
    let from_tessera = gpu.matmul_host(Algo::Tiled, &a, &b)?;

    if let Some((i, p, q)) = first_difference(&from_cust.data, &from_tessera.data) {
        return Err(format!("matmul_tiled: cust and tessera differ at [{i}]: {p} vs {q}").into());
    }
    check_in(Precision::Fp32, &a, &b, &from_cust).map_err(|e| format!("matmul_tiled via cust vs the f64 reference: {e}"))?;
    let dims = tiled_launch(MatmulShape::check((m, k), (k, n), (m, n))?)?;
    println!(
        "{} via cust: {m}×{k} · {k}×{n}, grid {:?} × block {:?}, {} B shared: identical to tessera's \
         Gpu::matmul_host(Algo::Tiled), and within the FP32 tolerance of the f64 reference",
        Algo::Tiled.kernel_name(),
        dims.grid,
        dims.block,
        dims.shared_bytes
    );
    Ok(())
}

fn main() -> ExitCode {
    // A machine with a CUDA driver and no GPU answers cuInit with CUDA_ERROR_NO_DEVICE. Debug, not
    // Display: cust's Display asks the driver for the message, which a stub driver cannot give.
    let _context = match cust::quick_init() {
        Ok(context) => context,
        Err(e) => {
            println!("skipped: no CUDA device (cust::quick_init: {e:?}); nothing to run on this machine");
            return ExitCode::SUCCESS;
        }
    };
    let run = || -> Result<()> {
        let cust = CustKernels::load()?;
        let gpu = Gpu::new(0)?;
        let info = gpu.info()?;
        println!("device: {} (sm_{}{}), tessera's PTX loaded by cust 0.3", info.name, info.compute_capability.0, info.compute_capability.1);
        check_vec_add(&cust, &gpu)?;
        check_matmul_tiled(&cust, &gpu)
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cust-interop: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The launch of `Algo::Tiled` for `shape` on the H200 tessera's plans describe (the tiled kernel's
/// grid does not depend on the SM count).
fn tiled_launch(shape: MatmulShape) -> Result<tessera::catalogue::LaunchDims> {
    let kernel = Algo::Tiled.kernel().ok_or("Algo::Tiled is a kernel")?;
    Ok(kernel.launch(shape, tessera::Target::H200))
}
