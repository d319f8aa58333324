//! `C = α·op(A)·op(B) + β·C` on the CPU executor: the catalogue's GEMM plan (packs, the planned
//! product, the epilogue) run with the same kernels and launches as `tessera::Gpu::gemm` — and with
//! a bias, an activation and a 16-bit `C` ([`gemm_with`]) as `tessera::Gpu::gemm_with` runs them.
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::plan::gemm::{
    GemmArgs, GemmFinish, GemmParams, GemmPlan, Operand, OperandPlan, Output, Pack, ProductPlan, RowMajorView,
};
use tessera_catalogue::precision::Element;
use tessera_catalogue::registry::launch::tiles;
use tessera_catalogue::{BiasKind, HostMatrix, MatrixDesc, OutputFormat, Planner, Precision, Target};
use tessera_kernels::{epilogue, pack};

use crate::ops::HostEpilogue;
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
    gemm_with(params, &HostEpilogue::default(), a, a_desc, b, b_desc, c, c_desc)
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

/// `C = act(α·op(A)·op(B) + β·C + bias)` on the CPU executor, `C` of `O` (`f32`, BF16 or FP16, each
/// result rounded once): `tessera::Gpu::gemm_with`'s plan — one launch of a kernel that finishes its
/// sums where `C` is dense, `β = 0`, the operands need no pack and such a kernel runs the product
/// (on the H200), else the product into scratch and the finishing pass (`gemm_finish_*`). The bias
/// (`finishing.bias`: per column, `n` values, or per row, `m`) is `C`'s as the caller sees it, whatever
/// its layout. Elements of `c` outside the view are never touched.
///
/// Errors ([`EmuError::InvalidLaunch`], before any kernel runs): as [`gemm`]'s, and a bias of another
/// length than its kind needs.
#[allow(clippy::too_many_arguments)]
pub fn gemm_with<T: Element, O: Element>(
    params: &GemmParams,
    finishing: &HostEpilogue,
    a: &[T],
    a_desc: MatrixDesc,
    b: &[T],
    b_desc: MatrixDesc,
    c: &mut [O],
    c_desc: MatrixDesc,
) -> Result<(), EmuError> {
    let precision = params
        .resolve_precision(T::PRECISION)
        .ok_or_else(|| invalid(format!("{:?} requested on {:?} inputs", params.precision, T::PRECISION)))?;
    let format = match O::PRECISION {
        Precision::Fp32 => OutputFormat::F32,
        Precision::Bf16 => OutputFormat::Bf16,
        Precision::Fp16 => OutputFormat::F16,
        other => return Err(invalid(format!("no {other:?} C"))),
    };
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
    let finish = GemmFinish { out_bytes: std::mem::size_of::<O>(), epilogue: finishing.code() != 0 };
    let gemm = args.plan_finishing(finish).map_err(invalid)?;
    if let Some((kind, values)) = &finishing.bias {
        if values.len() != kind.len(c_desc.rows, c_desc.cols) {
            return Err(invalid(format!("a bias of {} values {kind:?} for a {}×{} C", values.len(), c_desc.rows, c_desc.cols)));
        }
    }
    let dims = match &gemm {
        GemmPlan::Product(p) => p.dims,
        _ => GemmDims { m: 0, n: 0, k: 0 },
    };
    let plan = Planner::new("gemm", params.algo, precision, Target::H200).with_k_slices(params.k_slices).product(dims).map_err(invalid)?;
    // The kernels work on C restated row-major: a column-major C's columns are their rows.
    let restate = |restated: bool| HostEpilogue {
        bias: finishing.bias.as_ref().map(|(kind, v)| {
            let kind = match (kind, restated) {
                (BiasKind::PerColumn, true) => BiasKind::PerRow,
                (BiasKind::PerRow, true) => BiasKind::PerColumn,
                (kind, _) => *kind,
            };
            (kind, v.clone())
        }),
        activation: finishing.activation,
    };
    match gemm {
        GemmPlan::Nothing => Ok(()),
        GemmPlan::Scale { c: view, beta, restated } => {
            if finish.finishes() {
                finish_pass(&vec![0.0; view.rows * view.cols], false, c, view, (0.0, beta), &restate(restated), format)
            } else {
                // Nothing to finish: C is f32.
                scale(as_f32(c)?, view, beta)
            }
        }
        GemmPlan::Product(p) => {
            let (x, y) = operands(&p, a, b)?;
            let GemmDims { m, n, .. } = p.dims;
            let e = restate(p.restated);
            // One launch that finishes its sums — unless the caller scheduled K slices, whose partial
            // sums add in f32 before the finishing pass (as the host does).
            if p.output == Output::Direct && p.finish && params.k_slices.is_none() {
                if let Ok(t) = crate::ops::matmul_finished(precision, params.algo, &x, &y, p.alpha, format, &e) {
                    let out = c.get_mut(p.c.offset..p.c.offset + m * n).ok_or_else(|| invalid("C is shorter than its view"))?;
                    out.iter_mut().zip(&t.data).for_each(|(o, &v)| *o = O::from_f32(v));
                    return Ok(());
                }
            }
            let t = crate::ops::run_plan(&plan, &x, &y)?;
            match p.output {
                Output::Direct if !p.finish => {
                    let c = as_f32(c)?;
                    let out = c.get_mut(p.c.offset..p.c.offset + m * n).ok_or_else(|| invalid("C is shorter than its view"))?;
                    out.copy_from_slice(&t.data);
                    if p.alpha != 1.0 {
                        scale(c, p.c, p.alpha)?;
                    }
                    Ok(())
                }
                output => {
                    let transposed = matches!(output, Output::Scratch { transposed: true });
                    if p.finish {
                        finish_pass(&t.data, transposed, c, p.c, (p.alpha, p.beta), &e, format)
                    } else {
                        epilogue(&t.data, transposed, as_f32(c)?, p.c, p.alpha, p.beta)
                    }
                }
            }
        }
    }
}

/// `c` as `f32`s: a GEMM with nothing to finish has an `f32` `C`.
fn as_f32<O: Element>(c: &mut [O]) -> Result<&mut [f32], EmuError> {
    if O::PRECISION != Precision::Fp32 {
        return Err(invalid("an f32 pass on a 16-bit C"));
    }
    // SAFETY: O is f32 (its precision says so: the only Element of FP32).
    Ok(unsafe { std::slice::from_raw_parts_mut(c.as_mut_ptr().cast::<f32>(), c.len()) })
}

/// The product's operands as dense matrices (each a sub-slice of its source, or a packed copy).
fn operands<T: Element>(p: &ProductPlan, a: &[T], b: &[T]) -> Result<(HostMatrix, HostMatrix), EmuError> {
    let source = |o: Operand| if o == Operand::A { a } else { b };
    let operand = |o: &OperandPlan| -> Result<Vec<T>, EmuError> {
        match o {
            OperandPlan::Direct { source: s, offset } => Ok(source(*s)[*offset..].to_vec()),
            OperandPlan::Pack(pk) => pack_into(pk, &source(pk.source)[pk.offset..]),
        }
    };
    let GemmDims { m, n, k } = p.dims;
    let dense = |v: Vec<T>, rows: usize, cols: usize| -> Result<HostMatrix, EmuError> {
        let data = v.get(..rows * cols).ok_or_else(|| invalid(format!("an operand of {} < {rows}×{cols}", v.len())))?;
        HostMatrix::new(rows, cols, data.iter().map(|x| x.to_f32()).collect()).map_err(invalid)
    };
    Ok((dense(operand(&p.x)?, m, k)?, dense(operand(&p.y)?, k, n)?))
}

/// `C = act(α·T + β·C + bias)` (`gemm_finish_*` of `format`), `T` read transposed when `transposed`.
fn finish_pass<O: Element>(
    t: &[f32],
    transposed: bool,
    c: &mut [O],
    view: RowMajorView,
    (alpha, beta): (f32, f32),
    e: &HostEpilogue,
    format: OutputFormat,
) -> Result<(), EmuError> {
    let c = &mut c[view.offset..];
    let (c_len, pt) = (c.len(), SyncPtr::from_const(t.as_ptr()));
    let bias: &[f32] = e.bias.as_ref().map_or(&[], |(_, v)| v.as_slice());
    let (pb, code) = (SyncPtr::from_const(if bias.is_empty() { std::ptr::null() } else { bias.as_ptr() }), e.code());
    let (m, n, ld, tr) = (view.rows as u32, view.cols as u32, view.ld, u32::from(transposed));
    let cfg = Launch::from(tiles(view.rows, view.cols, epilogue::SHARED_BYTES));
    // SAFETY (each arm): t holds m·n floats, c holds c_len ≥ view.span() elements of the format's type
    // from the offset (O is that type: f32, or BF16 / FP16 as their bits), the bias the code's values.
    match format {
        OutputFormat::F32 => {
            let pc = SyncPtr::new(c.as_mut_ptr().cast::<f32>());
            launch("gemm_finish_f32", cfg, || unsafe {
                epilogue::gemm_finish_f32(pt.get(), pc.get(), c_len, m, n, ld, tr, alpha, beta, pb.get(), code)
            })
        }
        OutputFormat::Bf16 => {
            let pc = SyncPtr::new(c.as_mut_ptr().cast::<u16>());
            launch("gemm_finish_bf16", cfg, || unsafe {
                epilogue::gemm_finish_bf16(pt.get(), pc.get(), c_len, m, n, ld, tr, alpha, beta, pb.get(), code)
            })
        }
        OutputFormat::F16 => {
            let pc = SyncPtr::new(c.as_mut_ptr().cast::<u16>());
            launch("gemm_finish_f16", cfg, || unsafe {
                epilogue::gemm_finish_f16(pt.get(), pc.get(), c_len, m, n, ld, tr, alpha, beta, pb.get(), code)
            })
        }
    }
}
