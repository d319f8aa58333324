//! The example's host side: its kernels' PTX (built by `build.rs` with tessera-builder), loaded and
//! launched through tessera ([`OwnKernels`]), and the checks both the emulator tests and the GPU run
//! use ([`check`]).
pub mod check;

pub use own_kernels::*;
use tessera::{bf16, DeviceBuffer, DeviceMatrix, Error, Gpu, Result, UserKernel};

/// The kernel crate's PTX module, as `build.rs` left it.
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/own_kernels.ptx"));

/// The example's kernels, loaded into one GPU.
pub struct OwnKernels {
    softmax_f32: UserKernel,
    softmax_bf16: UserKernel,
    silu_mul: UserKernel,
}

impl OwnKernels {
    /// Loads the module and resolves its three kernels.
    pub fn load(gpu: &Gpu) -> Result<Self> {
        Self::load_ptx(gpu, PTX)
    }

    /// As [`OwnKernels::load`] from another build of the kernel crate (another architecture, other
    /// launch bounds): the PTX text.
    pub fn load_ptx(gpu: &Gpu, ptx: &str) -> Result<Self> {
        let module = gpu.load_module(ptx)?;
        Ok(Self {
            softmax_f32: module.kernel("softmax_rows_f32")?,
            softmax_bf16: module.kernel("softmax_rows_bf16")?,
            silu_mul: module.kernel("silu_mul_f32")?,
        })
    }

    /// `y = softmax(x)` along each row (queued on the GPU's stream).
    ///
    /// Errors: [`Error::ShapeMismatch`] when `y`'s shape is not `x`'s, [`Error::TooLarge`] past
    /// [`SOFTMAX_MAX_COLS`] columns or 2³¹ rows, [`Error::InvalidArgument`] for an empty matrix.
    pub fn softmax_rows(&self, gpu: &Gpu, x: &DeviceMatrix<f32>, y: &mut DeviceMatrix<f32>) -> Result<()> {
        let (rows, cols) = softmax_shape("softmax_rows", x.shape(), y.shape())?;
        let dims = softmax_launch(rows, cols).ok_or_else(|| too_large("softmax_rows", cols))?;
        // SAFETY: x and y are rows × cols matrices (checked), the launch is softmax_launch's: the
        // kernel's contract.
        unsafe { self.softmax_f32.launch(gpu, dims, (x, y, rows, cols)) }
    }

    /// As [`OwnKernels::softmax_rows`] on BF16 input, `f32` output.
    pub fn softmax_rows_bf16(&self, gpu: &Gpu, x: &DeviceMatrix<bf16>, y: &mut DeviceMatrix<f32>) -> Result<()> {
        let (rows, cols) = softmax_shape("softmax_rows_bf16", x.shape(), y.shape())?;
        let dims = softmax_launch(rows, cols).ok_or_else(|| too_large("softmax_rows_bf16", cols))?;
        // SAFETY: as softmax_rows.
        unsafe { self.softmax_bf16.launch(gpu, dims, (x, y, rows, cols)) }
    }

    /// `out = SiLU(x)·y`, element by element.
    ///
    /// Errors: [`Error::ShapeMismatch`] unless the three buffers are equally long,
    /// [`Error::InvalidArgument`] when they are empty, [`Error::TooLarge`] past 2³² elements.
    pub fn silu_mul(&self, gpu: &Gpu, x: &DeviceBuffer<f32>, y: &DeviceBuffer<f32>, out: &mut DeviceBuffer<f32>) -> Result<()> {
        let op = "silu_mul";
        if x.len() != y.len() || x.len() != out.len() {
            return Err(Error::ShapeMismatch { op, detail: format!("lengths {}, {} and {}", x.len(), y.len(), out.len()) });
        }
        let n = u32::try_from(x.len()).map_err(|_| Error::TooLarge { op, detail: format!("{} elements", x.len()) })?;
        let dims = silu_mul_launch(n).ok_or(Error::InvalidArgument { op, detail: "empty buffers".into() })?;
        // SAFETY: three buffers of n floats (checked), silu_mul_launch's launch.
        unsafe { self.silu_mul.launch(gpu, dims, (x, y, out, n)) }
    }
}

fn softmax_shape(op: &'static str, x: (usize, usize), y: (usize, usize)) -> Result<(u32, u32)> {
    if x != y {
        return Err(Error::ShapeMismatch { op, detail: format!("x is {}×{}, y is {}×{}", x.0, x.1, y.0, y.1) });
    }
    if x.0 == 0 || x.1 == 0 {
        return Err(Error::InvalidArgument { op, detail: format!("an empty {}×{} matrix", x.0, x.1) });
    }
    let rows = u32::try_from(x.0).ok().filter(|&r| r <= i32::MAX as u32).ok_or(Error::TooLarge { op, detail: format!("{} rows", x.0) })?;
    let cols = u32::try_from(x.1).map_err(|_| too_large(op, u32::MAX))?;
    Ok((rows, cols))
}

fn too_large(op: &'static str, cols: u32) -> Error {
    Error::TooLarge { op, detail: format!("{cols} columns; at most {SOFTMAX_MAX_COLS} (the row is staged in shared memory)") }
}
