//! `C = α·op(A)·op(B) + β·C` on the CPU executor: the catalogue's GEMM plan (packs, one matmul kernel,
//! the epilogue) run with the same kernels and launches as `tessera::Gpu::gemm`.
use tessera_catalogue::algo::HostKernel;
use tessera_catalogue::gemm::{GemmArgs, GemmParams, GemmPlan, Operand, OperandPlan, Output, Pack, ProductPlan, RowMajorView};
use tessera_catalogue::launch::tiles;
use tessera_catalogue::precision::Element;
use tessera_catalogue::{HostMatrix, MatmulKernel, MatrixDesc};
use tessera_kernels::{epilogue, pack};

use crate::{launch, EmuError, Launch, SyncPtr};

/// An error about the arguments, in the executor's terms (no kernel ran).
fn invalid(detail: impl std::fmt::Display) -> EmuError {
    EmuError::InvalidLaunch { kernel: "gemm", detail: detail.to_string() }
}

/// `C = α·op(A)·op(B) + β·C` on the CPU executor, with `A`, `B`, `C` the matrices `a_desc`, `b_desc`,
/// `c_desc` lay over the slices (any layout, leading dimension and offset). The kernels, their
/// launches and the plan are the GPU's. Elements of `c` outside the view are never touched.
///
/// Errors ([`EmuError::InvalidLaunch`], before any kernel runs) for arguments the GPU would refuse: a
/// precision the inputs cannot take, a kernel of another precision, a view that does not fit its
/// slice, shapes that do not agree.
pub fn gemm<T: Element>(
    params: &GemmParams,
    a: &[T],
    a_desc: MatrixDesc,
    b: &[T],
    b_desc: MatrixDesc,
    c: &mut [f32],
    c_desc: MatrixDesc,
) -> Result<(), EmuError> {
    let precision = params
        .resolve_precision(T::PRECISION)
        .ok_or_else(|| invalid(format!("{:?} requested on {:?} inputs", params.precision, T::PRECISION)))?;
    let args = GemmArgs {
        alpha: params.alpha,
        beta: params.beta,
        a: a_desc,
        a_len: a.len(),
        trans_a: params.trans_a,
        b: b_desc,
        b_len: b.len(),
        trans_b: params.trans_b,
        c: c_desc,
        c_len: c.len(),
        elem_bytes: std::mem::size_of::<T>(),
    };
    let plan = args.plan().map_err(invalid)?;
    if let GemmPlan::Product(p) = &plan {
        let kernel = params.algo.resolve_for(p.shape, precision).kernel().ok_or_else(|| invalid("Auto resolved to no kernel"))?;
        if kernel.precision != precision {
            return Err(invalid(format!("{} computes in {:?}, {precision:?} was asked for", kernel.entry, kernel.precision)));
        }
    } else if let Some(kernel) = params.algo.kernel() {
        // No product to compute, but a kernel of another precision is still a wrong argument.
        if kernel.precision != precision {
            return Err(invalid(format!("{} computes in {:?}, {precision:?} was asked for", kernel.entry, kernel.precision)));
        }
    }
    match plan {
        GemmPlan::Nothing => Ok(()),
        GemmPlan::Scale { c: view, beta } => scale(c, view, beta),
        GemmPlan::Product(p) => product(params, precision, &p, a, b, c),
    }
}

/// Runs a [`ProductPlan`]: packs, the matmul kernel, then the epilogue or the `α` scaling.
fn product<T: Element>(
    params: &GemmParams,
    precision: tessera_catalogue::Precision,
    p: &ProductPlan,
    a: &[T],
    b: &[T],
    c: &mut [f32],
) -> Result<(), EmuError> {
    let source = |o: Operand| if o == Operand::A { a } else { b };
    // Each matmul operand: a sub-slice of its source, or a packed copy.
    let operand = |o: &OperandPlan| -> Result<Vec<T>, EmuError> {
        match o {
            OperandPlan::Direct { source: s, offset } => Ok(source(*s)[*offset..].to_vec()),
            OperandPlan::Pack(pk) => pack_into(pk, &source(pk.source)[pk.offset..]),
        }
    };
    let (x, y) = (operand(&p.x)?, operand(&p.y)?);
    let algo = params.algo.resolve_for(p.shape, precision);
    let kernel = algo.kernel().ok_or_else(|| invalid("Auto resolved to no kernel"))?;
    let (m, n) = (p.shape.m as usize, p.shape.n as usize);
    // Split-K and stream-K add into their output, which the host zeroes; every other kernel must write each element
    // (NaN shows any it misses).
    let fill = if algo.accumulates_into_c(p.shape) { 0.0 } else { f32::NAN };
    match p.output {
        Output::Direct => {
            let out = &mut c[p.c.offset..p.c.offset + m * n];
            out.fill(fill);
            matmul(kernel, Launch::from(algo.launch(p.shape)), p, &x, &y, out)?;
            if p.alpha != 1.0 {
                scale(c, p.c, p.alpha)?;
            }
        }
        Output::Scratch { transposed } => {
            let mut t = vec![fill; m * n];
            matmul(kernel, Launch::from(algo.launch(p.shape)), p, &x, &y, &mut t)?;
            epilogue(&t, transposed, c, p.c, p.alpha, p.beta)?;
        }
    }
    Ok(())
}

/// The matmul kernel on dense `x` (m×k) and `y` (k×n) into `out` (m·n floats).
fn matmul<T: Element>(kernel: &MatmulKernel, cfg: Launch, p: &ProductPlan, x: &[T], y: &[T], out: &mut [f32]) -> Result<(), EmuError> {
    let (m, n, k) = (p.shape.m, p.shape.n, p.shape.k);
    let needs = |len: usize, want: usize, what: &str| if len < want { Err(invalid(format!("{what}: {len} < {want}"))) } else { Ok(()) };
    needs(x.len(), m as usize * k as usize, "X")?;
    needs(y.len(), k as usize * n as usize, "Y")?;
    needs(out.len(), m as usize * n as usize, "T")?;
    let pc = SyncPtr::new(out.as_mut_ptr());
    // The kernel's by-rows twin where N % 4 != 0, as on the GPU (MatmulKernel::launched).
    let (entry, host_build) = kernel.launched(n);
    match host_build {
        HostKernel::F32(host) if std::mem::size_of::<T>() == 4 && kernel.config.tf32_operands => {
            // As the GPU: the preparation kernels round A and round-and-transpose B first.
            let dense = |v: &[T], rows: u32, cols: u32| {
                let data = v[..rows as usize * cols as usize].iter().map(|x| x.to_f32()).collect();
                HostMatrix::new(rows as usize, cols as usize, data).map_err(invalid)
            };
            let (a_prep, bt_prep) = crate::ops::prepare_tf32_for(kernel, &dense(x, m, k)?, &dense(y, k, n)?)?;
            let (px, py) = (SyncPtr::from_const(a_prep.as_ptr()), SyncPtr::from_const(bt_prep.as_ptr()));
            launch(entry, cfg, || {
                // SAFETY: A' holds m·k floats, Bᵀ' n·k, out m·n; the launch is the kernel's own.
                unsafe { host(px.get(), py.get(), pc.get(), m, n, k) }
            })
        }
        HostKernel::F32(host) if std::mem::size_of::<T>() == 4 => {
            let (px, py) = (SyncPtr::from_const(x.as_ptr().cast::<f32>()), SyncPtr::from_const(y.as_ptr().cast::<f32>()));
            launch(entry, cfg, || {
                // SAFETY: T is f32 here (the kernel's precision is the one asked for, whose input type
                // is T; 4-byte T is only f32); x, y, out hold m·k, k·n, m·n elements (checked above) and
                // outlive the launch, which is the kernel's own.
                unsafe { host(px.get(), py.get(), pc.get(), m, n, k) }
            })
        }
        HostKernel::Half(host) if std::mem::size_of::<T>() == 2 => {
            let (px, py) = (SyncPtr::from_const(x.as_ptr().cast::<u16>()), SyncPtr::from_const(y.as_ptr().cast::<u16>()));
            launch(entry, cfg, || {
                // SAFETY: T is bf16 or f16 (2-byte inputs), whose bits are the u16 the kernel reads; the
                // lengths as above.
                unsafe { host(px.get(), py.get(), pc.get(), m, n, k) }
            })
        }
        HostKernel::Tma(host) if std::mem::size_of::<T>() == 4 && kernel.config.tf32_operands => {
            let dense = |v: &[T], rows: u32, cols: u32| {
                let data = v[..rows as usize * cols as usize].iter().map(|x| x.to_f32()).collect();
                HostMatrix::new(rows as usize, cols as usize, data).map_err(invalid)
            };
            let (a_prep, bt_prep) = crate::ops::prepare_tf32_for(kernel, &dense(x, m, k)?, &dense(y, k, n)?)?;
            crate::ops::launch_tma(kernel, host, cfg, p.shape, a_prep.as_ptr().cast(), bt_prep.as_ptr().cast(), pc)
        }
        HostKernel::Tma(host) if std::mem::size_of::<T>() == 2 => {
            // T is bf16 or f16, whose bits the maps' 2-byte elements are; lengths checked above.
            crate::ops::launch_tma(kernel, host, cfg, p.shape, x.as_ptr().cast(), y.as_ptr().cast(), pc)
        }
        _ => Err(invalid(format!("{} does not take {}-byte inputs", kernel.entry, std::mem::size_of::<T>()))),
    }
}

/// A pack pass: `src` starts at the pack's offset.
fn pack_into<T: Element>(pk: &Pack, src: &[T]) -> Result<Vec<T>, EmuError> {
    let len = pk.rows * pk.cols;
    let mut dst = vec![T::default(); len];
    if len == 0 {
        return Ok(dst);
    }
    if src.len() < pk.source_span() {
        return Err(invalid(format!("pack source holds {} elements, {} needed", src.len(), pk.source_span())));
    }
    let (rows, cols, transposed) = (pk.rows as u32, pk.cols as u32, u32::from(pk.transposed));
    let ld = pk.ld;
    let (ps, pd) = (SyncPtr::from_const(src.as_ptr()), SyncPtr::new(dst.as_mut_ptr()));
    let src_len = src.len();
    match std::mem::size_of::<T>() {
        4 => {
            let cfg = Launch::from(tiles(pk.rows, pk.cols, pack::shared_bytes(4)));
            launch("pack_b32", cfg, || {
                // SAFETY: src holds src_len ≥ the span the pack reads (checked), dst rows·cols elements;
                // 4-byte elements are moved as their bits; the launch is the kernel's.
                unsafe { pack::pack_b32(ps.get().cast::<u32>(), src_len, ld, rows, cols, transposed, pd.get().cast::<u32>()) }
            })?
        }
        2 => {
            let cfg = Launch::from(tiles(pk.rows, pk.cols, pack::shared_bytes(2)));
            launch("pack_b16", cfg, || {
                // SAFETY: as above, 2-byte elements.
                unsafe { pack::pack_b16(ps.get().cast::<u16>(), src_len, ld, rows, cols, transposed, pd.get().cast::<u16>()) }
            })?
        }
        other => return Err(invalid(format!("no pack kernel for {other}-byte elements"))),
    }
    Ok(dst)
}

/// `C = β·C` over the row-major view (`C = 0` when `β = 0`, without reading it).
fn scale(c: &mut [f32], view: RowMajorView, beta: f32) -> Result<(), EmuError> {
    let c = &mut c[view.offset..];
    let (c_len, pc) = (c.len(), SyncPtr::new(c.as_mut_ptr()));
    let (m, n, ld) = (view.rows as u32, view.cols as u32, view.ld);
    launch("gemm_scale", Launch::from(tiles(view.rows, view.cols, 0)), || {
        // SAFETY: c holds c_len ≥ view.span() elements from the offset (the plan checked the view).
        unsafe { epilogue::gemm_scale(pc.get(), c_len, m, n, ld, beta) }
    })
}

/// `C = α·T + β·C` (T read transposed when `transposed`).
fn epilogue(t: &[f32], transposed: bool, c: &mut [f32], view: RowMajorView, alpha: f32, beta: f32) -> Result<(), EmuError> {
    let c = &mut c[view.offset..];
    let (c_len, pc, pt) = (c.len(), SyncPtr::new(c.as_mut_ptr()), SyncPtr::from_const(t.as_ptr()));
    let (m, n, ld) = (view.rows as u32, view.cols as u32, view.ld);
    launch("gemm_epilogue", Launch::from(tiles(view.rows, view.cols, epilogue::SHARED_BYTES)), || {
        // SAFETY: t holds m·n floats (the product), c holds c_len ≥ view.span() from the offset.
        unsafe { epilogue::gemm_epilogue(pt.get(), pc.get(), c_len, m, n, ld, u32::from(transposed), alpha, beta) }
    })
}
