//! Kernels 26, 28 and 30 on the CPU: a batch (strided or of pointers) or groups of products
//! ([`tessera_catalogue::plan::grouped`]), planned as the host plans them and launched with the host
//! model's 3-D tensor maps (kernel 26) or the operands' pointers and a table of addresses (kernels
//! 28 and 30).
use tessera_catalogue::plan::grouped::{plan, plan_finishing, BufferLens, Products, ProductsFinish, ProductsLaunch, ProductsPlan};
use tessera_catalogue::precision::Element;
use tessera_catalogue::registry::grouped::{GroupedAlgo, GroupedHost};
use tessera_catalogue::registry::tma::TmaOperand;
use tessera_catalogue::OutputFormat;
use tessera_catalogue::{Precision, Target};
use tessera_kernels::device::tma::TensorMap;

use crate::error::EmuError;
use crate::ops::HostEpilogue;
use crate::{launch, Launch, SyncPtr};

/// Runs `products` in `precision` (BF16 or FP16: `a` and `b` hold the inputs' bit patterns as `u16`;
/// FP32: `f32`; each buffer laid out as the products' stacks say) into `c` on the H200's plan with
/// `algo`, and returns the plan. As on the GPU: only the products' outputs are written (`K = 0`:
/// zeros); nothing is launched for no outputs; a plan error, or inputs of another size than the
/// precision's, is an [`EmuError::InvalidLaunch`].
pub fn matmul_products<T: Copy>(
    products: Products<'_>,
    precision: Precision,
    algo: GroupedAlgo,
    a: &[T],
    b: &[T],
    c: &mut [f32],
) -> Result<ProductsPlan, EmuError> {
    matmul_products_with(products, precision, algo, (1.0, &HostEpilogue::default()), a, b, c)
}

/// [`matmul_products`] with each sum finished in the store (kernel 26's finishing twins): `C =
/// act(α·A·B + bias)` in `O` (`f32`, BF16 or FP16, each sum rounded once); the bias per column (`n`
/// values) or per row (`m`: each matrix's rows of a batch, the grouped A's rows). Nothing to finish
/// (`α = 1`, no epilogue, `f32`) runs [`matmul_products`]' kernels.
pub fn matmul_products_with<T: Copy, O: Element>(
    products: Products<'_>,
    precision: Precision,
    algo: GroupedAlgo,
    (alpha, epilogue): (f32, &HostEpilogue),
    a: &[T],
    b: &[T],
    c: &mut [O],
) -> Result<ProductsPlan, EmuError> {
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: "matmul_grouped", detail };
    if std::mem::size_of::<T>() != precision.input_bytes() as usize {
        return Err(invalid(format!("{}-byte inputs for {precision:?}", std::mem::size_of::<T>())));
    }
    let out = match O::PRECISION {
        Precision::Fp32 => OutputFormat::F32,
        Precision::Bf16 => OutputFormat::Bf16,
        Precision::Fp16 => OutputFormat::F16,
        other => return Err(invalid(format!("no {other:?} C"))),
    };
    let finish = ProductsFinish { out, epilogue: epilogue.code() != 0 || alpha != 1.0 };
    let lens = BufferLens { a: a.len(), b: b.len(), c: c.len() };
    let planned = plan_finishing(products, lens, precision, algo, Target::H200, finish).map_err(|e| invalid(e.to_string()))?;
    if let (Some((kind, values)), ProductsPlan::Launch(l)) = (&epilogue.bias, &planned) {
        if values.len() < kind.len(l.m as usize, l.n as usize) {
            return Err(invalid(format!("a bias of {} values {kind:?} for products of {}×{}", values.len(), l.m, l.n)));
        }
    }
    match &planned {
        ProductsPlan::Nothing => {}
        ProductsPlan::Zero => zero_outputs(products, c),
        ProductsPlan::Launch(l) => run(l, products, a, b, c, (alpha, out, epilogue))?,
    }
    Ok(planned)
}

/// A batch of pointers: `c[i] = a[i]·b[i]` for every `i`, each matrix its own slice (row-major, `m ×
/// k`, `k × n`, `m × n`; inputs as for [`matmul_products`]), on the H200's plan with `algo`, through
/// a table of the matrices' addresses as the host builds it. Slices of other lengths than the shape
/// or counts that differ are an [`EmuError::InvalidLaunch`], as are plan errors.
pub fn matmul_pointer_products<T: Copy>(
    precision: Precision,
    algo: GroupedAlgo,
    (m, n, k): (usize, usize, usize),
    a: &[&[T]],
    b: &[&[T]],
    c: &mut [&mut [f32]],
) -> Result<ProductsPlan, EmuError> {
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: "matmul_batched_pointers", detail };
    if std::mem::size_of::<T>() != precision.input_bytes() as usize {
        return Err(invalid(format!("{}-byte inputs for {precision:?}", std::mem::size_of::<T>())));
    }
    if a.len() != c.len() || b.len() != c.len() {
        return Err(invalid(format!("{} A, {} B and {} C matrices", a.len(), b.len(), c.len())));
    }
    let lens = (m * k, k * n, m * n);
    if let Some(i) = (0..c.len()).find(|&i| (a[i].len(), b[i].len(), c[i].len()) != lens) {
        return Err(invalid(format!(
            "matrix {i}: {} / {} / {} elements for {m}×{k}, {k}×{n}, {m}×{n}",
            a[i].len(),
            b[i].len(),
            c[i].len()
        )));
    }
    let products = Products::Pointers { count: c.len(), m, n, k };
    let lens = BufferLens { a: 0, b: 0, c: 0 };
    let planned = plan(products, lens, precision, algo, Target::H200).map_err(|e| invalid(e.to_string()))?;
    match &planned {
        ProductsPlan::Nothing => {}
        ProductsPlan::Zero => c.iter_mut().for_each(|m| m.fill(0.0)),
        ProductsPlan::Launch(l) => {
            // Every A, then every B, then every C: the kernels' table.
            let table: Vec<u64> = a
                .iter()
                .map(|m| m.as_ptr() as u64)
                .chain(b.iter().map(|m| m.as_ptr() as u64))
                .chain(c.iter_mut().map(|m| m.as_mut_ptr() as u64))
                .collect();
            run_pointers(l, (std::ptr::null(), std::ptr::null(), std::ptr::null_mut()), table.as_ptr(), OutputFormat::F32)?
        }
    }
    Ok(planned)
}

/// `K = 0`: every product's output set to zero, as the host's memsets do.
fn zero_outputs<O: Element>(products: Products<'_>, c: &mut [O]) {
    match products {
        Products::Batched { c: s, .. } => {
            for i in 0..s.count {
                c[i * s.stride..i * s.stride + s.rows * s.cols].fill(O::default());
            }
        }
        Products::Grouped { b, offsets, .. } => {
            let (first, last) = (offsets.first().copied().unwrap_or(0) as usize, offsets.last().copied().unwrap_or(0) as usize);
            c[first * b.cols..last * b.cols].fill(O::default())
        }
        // Its outputs are not in `c` ([`matmul_pointer_products`] zeroes them).
        Products::Pointers { .. } => {}
    }
}

fn run<T, O>(
    l: &ProductsLaunch,
    products: Products<'_>,
    a: &[T],
    b: &[T],
    c: &mut [O],
    (alpha, out, epilogue): (f32, OutputFormat, &HostEpilogue),
) -> Result<(), EmuError> {
    let (host, finished) = match l.kernel.host {
        GroupedHost::Tma { host, finished } => (host, finished.1),
        GroupedHost::PointersF32 { .. } | GroupedHost::Pointers16(_) => {
            return run_pointers(l, (a.as_ptr().cast(), b.as_ptr().cast(), c.as_mut_ptr().cast()), std::ptr::null(), out)
        }
    };
    let Some(maps) = l.maps else {
        return Err(EmuError::InvalidLaunch { kernel: l.entry, detail: "a TMA kernel planned without its maps".into() });
    };
    let map = |op: &TmaOperand, base: *const u8| {
        let layers = op.layers.map_or((1, 0), |s| (s.count, s.stride));
        TensorMap::host_model_3d(base, op.elem_bytes, [op.dims[0], op.dims[1], layers.0], [op.row_stride, layers.1], op.boxdim, true)
    };
    let (map_a, map_b) = (map(&maps[0], a.as_ptr().cast()), map(&maps[1], b.as_ptr().cast()));
    let (pa, pb) = (SyncPtr::from_const(&map_a as *const TensorMap), SyncPtr::from_const(&map_b as *const TensorMap));
    let offsets: Vec<u32> = match products {
        Products::Grouped { offsets, .. } => offsets.to_vec(),
        Products::Batched { .. } | Products::Pointers { .. } => Vec::new(),
    };
    let po = SyncPtr::from_const(if offsets.is_empty() { std::ptr::null() } else { offsets.as_ptr() });
    let pc = SyncPtr::new(c.as_mut_ptr().cast::<f32>());
    let entry = l.entry;
    let (m, n, k, count, c_stride) = (l.m, l.n, l.k, l.count, l.c_stride);
    let (a_batched, b_batched) = (u32::from(l.a_batched), u32::from(l.b_batched));
    let bias: &[f32] = epilogue.bias.as_ref().map_or(&[], |(_, v)| v.as_slice());
    let (pbias, code, out) =
        (SyncPtr::from_const(if bias.is_empty() { std::ptr::null() } else { bias.as_ptr() }), epilogue.code(), out.code());
    // SAFETY (both): the plan checked the stacks against the buffers' lengths (C's in its own
    // elements, O's: the entry's output type) and the offsets (`count + 1` of them, non-decreasing, the
    // last within A's rows); the maps describe `a` and `b` as the plan's stacks, all alive until the
    // launch returns; the bias holds what the code needs (checked); the launch is the kernel's own.
    if l.finished {
        launch(entry, Launch::from(l.launch), || unsafe {
            finished(pa.get(), pb.get(), pc.get(), m, n, k, po.get(), count, a_batched, b_batched, c_stride, alpha, out, pbias.get(), code)
        })
    } else {
        launch(entry, Launch::from(l.launch), || unsafe {
            host(pa.get(), pb.get(), pc.get(), m, n, k, po.get(), count, a_batched, b_batched, c_stride)
        })
    }
}

/// Kernel 28 or 30 as `l` plans it: on A, B and `C` from `operands` a stride apart (`table` null),
/// or on the table's addresses; `C` in `out` (kernel 30's argument; the plan gives kernel 28 `f32`).
fn run_pointers(
    l: &ProductsLaunch,
    operands: (*const u8, *const u8, *mut f32),
    table: *const u64,
    out: OutputFormat,
) -> Result<(), EmuError> {
    let (pa, pb, pc, pt) =
        (SyncPtr::from_const(operands.0), SyncPtr::from_const(operands.1), SyncPtr::new(operands.2), SyncPtr::from_const(table));
    let (m, n, k) = (l.m, l.n, l.k);
    let strides = (l.strides.0, l.strides.1, l.c_stride);
    // SAFETY (both closures): the inputs are the precision's type (the size checked by the callers);
    // the plan checked every matrix of the stacks inside its buffer and C's apart, or the table holds
    // every matrix's address, each slice of its matrix's length, C's of `out`'s type; the launch is
    // the kernel's, z the batch.
    match l.kernel.host {
        GroupedHost::PointersF32 { host, by_rows } => {
            let host = if l.entry == by_rows.0 { by_rows.1 } else { host };
            launch(l.entry, Launch::from(l.launch), || unsafe {
                host(pa.get().cast(), pb.get().cast(), pc.get(), m, n, k, strides.0, strides.1, strides.2, pt.get())
            })
        }
        GroupedHost::Pointers16(host) => launch(l.entry, Launch::from(l.launch), || unsafe {
            host(pa.get().cast(), pb.get().cast(), pc.get(), m, n, k, strides.0, strides.1, strides.2, pt.get(), out.code())
        }),
        GroupedHost::Tma { .. } => Err(EmuError::InvalidLaunch { kernel: l.entry, detail: "a TMA kernel has no pointer launch".into() }),
    }
}
