//! `C = α·op(A)·op(B) + β·C` on the CPU executor: the catalogue's GEMM plan (packs, the planned
//! product, the epilogue) run with the same kernels and launches as `tessera::Gpu::gemm`.
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::plan::gemm::{GemmArgs, GemmParams, GemmPlan, Operand, OperandPlan, Output, Pack, ProductPlan, RowMajorView};
use tessera_catalogue::precision::Element;
use tessera_catalogue::registry::launch::tiles;
use tessera_catalogue::{HostMatrix, MatrixDesc, Plan, Planner, Target};
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
    let gemm = args.plan().map_err(invalid)?;
    // The product's plan, as the host makes it (an empty one checks the kernel's precision alone).
    let dims = match &gemm {
        GemmPlan::Product(p) => p.dims,
        _ => GemmDims { m: 0, n: 0, k: 0 },
    };
    let plan = Planner::new("gemm", params.algo, precision, Target::H200).product(dims).map_err(invalid)?;
    match gemm {
        GemmPlan::Nothing => Ok(()),
        GemmPlan::Scale { c: view, beta } => scale(c, view, beta),
        GemmPlan::Product(p) => product(&plan, &p, a, b, c),
    }
}

/// Runs a [`ProductPlan`]: packs, the planned product ([`crate::ops::run_plan`]), then the epilogue or
/// the `α` scaling.
fn product<T: Element>(plan: &Plan, p: &ProductPlan, a: &[T], b: &[T], c: &mut [f32]) -> Result<(), EmuError> {
    let source = |o: Operand| if o == Operand::A { a } else { b };
    // Each matmul operand: a sub-slice of its source, or a packed copy.
    let operand = |o: &OperandPlan| -> Result<Vec<T>, EmuError> {
        match o {
            OperandPlan::Direct { source: s, offset } => Ok(source(*s)[*offset..].to_vec()),
            OperandPlan::Pack(pk) => pack_into(pk, &source(pk.source)[pk.offset..]),
        }
    };
    let GemmDims { m, n, k } = p.dims;
    // The kernels take the inputs' bits; as f32 the 16-bit values are exact, and the executor rounds
    // them back to the same bits.
    let dense = |v: Vec<T>, rows: usize, cols: usize| -> Result<HostMatrix, EmuError> {
        let data = v.get(..rows * cols).ok_or_else(|| invalid(format!("an operand of {} < {rows}×{cols}", v.len())))?;
        HostMatrix::new(rows, cols, data.iter().map(|x| x.to_f32()).collect()).map_err(invalid)
    };
    let (x, y) = (dense(operand(&p.x)?, m, k)?, dense(operand(&p.y)?, k, n)?);
    let t = crate::ops::run_plan(plan, &x, &y)?;
    match p.output {
        Output::Direct => {
            let out = c.get_mut(p.c.offset..p.c.offset + m * n).ok_or_else(|| invalid("C is shorter than its view"))?;
            out.copy_from_slice(&t.data);
            if p.alpha != 1.0 {
                scale(c, p.c, p.alpha)?;
            }
            Ok(())
        }
        Output::Scratch { transposed } => epilogue(&t.data, transposed, c, p.c, p.alpha, p.beta),
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
