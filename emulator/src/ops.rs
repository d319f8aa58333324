//! tessera's operations on the CPU executor: the catalogue's kernels with the catalogue's launch
//! dimensions — what `tessera::Gpu::matmul` launches — for tests without a GPU and for teaching
//! (`scorecard --device cpu`).
use tessera_catalogue::algo::{HostKernel, TmaMatmulFn};
use tessera_catalogue::tma::Layout;
use tessera_catalogue::{Algo, HostMatrix, MatmulKernel, MatmulShape, Precision};
use tessera_kernels::device::tma::TensorMap;
use tessera_kernels::pack::pad_b16;

use crate::{launch, EmuError, Launch, SyncPtr};

/// `a · b` computed by `algo`'s kernel on the CPU executor in FP32 (see [`matmul_in`]).
pub fn matmul(algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    matmul_in(Precision::Fp32, algo, a, b)
}

/// `a · b` computed by `algo`'s kernel on the CPU executor in `precision` (inputs rounded to its
/// type: `bf16` / `f16` bit patterns for the 16-bit kernels), with the GPU launch configuration.
/// `C` starts as NaN (zeros for split-K and stream-K, as on the GPU), so an element no thread writes shows up in
/// any check. `Auto` picks the kernel the GPU would; a kernel of another precision is an error.
pub fn matmul_in(precision: Precision, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    let name = algo.kernel_name();
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: name, detail };
    let shape = MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols)).map_err(|e| invalid(e.to_string()))?;
    if a.data.len() != a.rows * a.cols || b.data.len() != b.rows * b.cols {
        return Err(invalid("matrix data length differs from rows·cols".into()));
    }
    if algo == Algo::Auto && precision == Precision::Fp32 {
        if let Some(plan) = tessera_catalogue::fp32_padding::plan_on(shape, tessera_catalogue::tuning::SMS) {
            return matmul_padded(plan, a, b);
        }
    }
    let algo = algo.resolve_for(shape, precision);
    let kernel = algo.kernel().ok_or_else(|| invalid("Auto resolved to no kernel".into()))?;
    if kernel.precision != precision {
        return Err(invalid(format!("{} computes in {:?}, {precision:?} was asked for", kernel.entry, kernel.precision)));
    }
    if shape.m == 0 || shape.n == 0 || shape.k == 0 {
        return Ok(HostMatrix::from_fn(a.rows, b.cols, |_, _| 0.0));
    }
    // Split-K and stream-K add into C, which the host zeroes first; every other kernel must write
    // each element.
    let mut c = vec![if algo.accumulates_into_c(shape) { 0.0 } else { f32::NAN }; a.rows * b.cols];
    let pc = SyncPtr::new(c.as_mut_ptr());
    let (m, n, k, cfg) = (shape.m, shape.n, shape.k, Launch::from(algo.launch(shape)));
    // The kernel's by-rows twin where N % 4 != 0, as on the GPU (MatmulKernel::launched).
    let (entry, host_build) = kernel.launched(n);
    match host_build {
        HostKernel::F32(host) if kernel.config.tf32_operands => {
            // As the host: A rounded, B rounded and transposed, by the preparation kernels.
            let (a_prep, bt_prep) = prepare_tf32_for(kernel, a, b)?;
            let (pa, pb) = (SyncPtr::from_const(a_prep.as_ptr()), SyncPtr::from_const(bt_prep.as_ptr()));
            launch(entry, cfg, || {
                // SAFETY: A' holds m·k floats, Bᵀ' n·k, C m·n; the launch is the kernel's own.
                unsafe { host(pa.get(), pb.get(), pc.get(), m, n, k) }
            })?;
        }
        HostKernel::F32(host) => {
            let (pa, pb) = (SyncPtr::from_const(a.data.as_ptr()), SyncPtr::from_const(b.data.as_ptr()));
            launch(entry, cfg, || {
                // SAFETY: a, b, c hold m·k, k·n and m·n floats (checked above) and outlive the
                // launch; the launch is the kernel's own (its TileConfig through the catalogue), and
                // MatmulShape::check guarantees the sizes fit the kernels' 32-bit indexing.
                unsafe { host(pa.get(), pb.get(), pc.get(), m, n, k) }
            })?;
        }
        HostKernel::Tma(host) if kernel.config.tf32_operands => {
            let (a_prep, bt_prep) = prepare_tf32_for(kernel, a, b)?;
            launch_tma(kernel, host, cfg, shape, a_prep.as_ptr().cast(), bt_prep.as_ptr().cast(), pc)?;
        }
        HostKernel::Tma(host) => {
            let (a16, b16) = (half_bits(precision, a), half_bits(precision, b));
            launch_tma(kernel, host, cfg, shape, a16.as_ptr().cast(), b16.as_ptr().cast(), pc)?;
        }
        HostKernel::Half(host) => {
            let (a16, b16) = (half_bits(precision, a), half_bits(precision, b));
            let (pa, pb) = (SyncPtr::from_const(a16.as_ptr()), SyncPtr::from_const(b16.as_ptr()));
            launch(entry, cfg, || {
                // SAFETY: as above, with m·k and k·n 16-bit elements.
                unsafe { host(pa.get(), pb.get(), pc.get(), m, n, k) }
            })?;
        }
    }
    Ok(HostMatrix { rows: a.rows, cols: b.cols, data: c })
}

/// `m`'s elements as BF16 (`precision` Bf16) or FP16 bit patterns.
fn half_bits(precision: Precision, m: &HostMatrix) -> Vec<u16> {
    match precision {
        Precision::Bf16 => m.data.iter().map(|&x| half::bf16::from_f32(x).to_bits()).collect(),
        _ => m.data.iter().map(|&x| half::f16::from_f32(x).to_bits()).collect(),
    }
}

/// Runs a TMA kernel (kernels 15–16) with the host model's tensor maps over `x` (A, `m × k`) and `y`
/// (B, `k × n`, or the prepared `Bᵀ`) — the catalogue's operands, as the GPU's maps are encoded from
/// them. As on the GPU, an operand whose rows are not whole 16-byte units ([`tma::plan`]) is first
/// copied into rows padded to them by `pad_b16` (the padding holds NaN here: the maps must never read
/// it); prepared TF32 operands must already have [`tma::plan`]'s leading dimensions (`prepare_tf32_for`).
///
/// [`tma::plan`]: tessera_catalogue::tma::plan
pub fn launch_tma(
    kernel: &MatmulKernel,
    host: TmaMatmulFn,
    cfg: Launch,
    shape: MatmulShape,
    x: *const u8,
    y: *const u8,
    c: SyncPtr<f32>,
) -> Result<(), EmuError> {
    let elem_bytes = kernel.precision.input_bytes();
    let packing = tessera_catalogue::tma::plan(kernel.config, shape, elem_bytes);
    let ops = tessera_catalogue::tma::operands(kernel.config, &packing, elem_bytes)
        .map_err(|e| EmuError::InvalidLaunch { kernel: kernel.entry, detail: e.to_string() })?;
    // The padded copies (the GPU's workspace), made before the launch as the host queues them.
    let copy = |src: *const u8, layout: Layout| -> Result<Option<Vec<u16>>, EmuError> {
        if kernel.config.tf32_operands || !layout.padded() {
            return Ok(None);
        }
        if elem_bytes != 2 {
            let detail = format!("no pad kernel for {elem_bytes}-byte elements");
            return Err(EmuError::InvalidLaunch { kernel: kernel.entry, detail });
        }
        // SAFETY: the caller's x / y hold the operand's rows·cols 16-bit elements (its dense layout).
        let src = unsafe { std::slice::from_raw_parts(src.cast::<u16>(), layout.rows as usize * layout.cols as usize) };
        pad_rows(src, layout).map(Some)
    };
    let (a_copy, b_copy) = (copy(x, packing.a)?, copy(y, packing.b)?);
    let x = a_copy.as_ref().map_or(x, |v| v.as_ptr().cast());
    let y = b_copy.as_ref().map_or(y, |v| v.as_ptr().cast());
    let map = |i: usize, base: *const u8| {
        let op = ops[i];
        TensorMap::host_model(base, op.elem_bytes, op.dims, op.row_stride, op.boxdim, true)
    };
    let (map_a, map_b) = (map(0, x), map(1, y));
    let (pa, pb) = (SyncPtr::from_const(&map_a as *const TensorMap), SyncPtr::from_const(&map_b as *const TensorMap));
    let (m, n, k) = (shape.m, shape.n, shape.k);
    launch(kernel.entry, cfg, || {
        // SAFETY: the maps describe x (A: m × k) and y (B: k × n, or Bᵀ: n × k) in the layouts of the
        // plan (the caller's dense operands, the padded copies above, or prepared TF32 operands with the
        // plan's leading dimensions), all alive until the launch returns; c holds m·n floats; the
        // launch is the kernel's own.
        unsafe { host(pa.get(), pb.get(), c.get(), m, n, k) }
    })
}

/// `src` (a dense `layout.rows × layout.cols` matrix of 16-bit elements) copied by `pad_b16` into
/// rows `layout.ld` elements apart; the padding is left NaN (`0xFFFF` in BF16 and FP16).
pub fn pad_rows(src: &[u16], layout: Layout) -> Result<Vec<u16>, EmuError> {
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: "pad_b16", detail };
    let (rows, cols, ld) = (layout.rows, layout.cols, layout.ld);
    if src.len() != rows as usize * cols as usize || ld < cols {
        return Err(invalid(format!("{} elements for {rows} × {cols} rows, ld = {ld}", src.len())));
    }
    let mut dst = vec![u16::MAX; layout.elements() as usize];
    let (ps, pd) = (SyncPtr::from_const(src.as_ptr()), SyncPtr::new(dst.as_mut_ptr()));
    launch("pad_b16", Launch::from(tessera_catalogue::launch::pad_b16(rows, cols)), || {
        // SAFETY: src holds rows·cols elements, dst rows·ld ≥ rows·cols (checked), no overlap; the
        // launch is the kernel's.
        unsafe { pad_b16(ps.get(), pd.get(), rows, cols, ld) }
    })?;
    Ok(dst)
}

/// The TF32 operands `kernel` reads, made as the host makes them: `Bᵀ` rounded (`n × k`) by
/// `tf32_transpose_round`, and `A` rounded (`m × k`) by `tf32_round` unless the kernel rounds A itself
/// and reads it in place (kernels 15–16 where K is a multiple of 4: then the caller's `A`). Leading
/// dimensions: `K` (dense rows) for kernel 14, which reads through pointers; the TMA's plan (rows
/// padded to 16 bytes) for kernels 15–16. The padding (if any) is NaN.
pub(crate) fn prepare_tf32_for(kernel: &MatmulKernel, a: &HostMatrix, b: &HostMatrix) -> Result<(Vec<f32>, Vec<f32>), EmuError> {
    use tessera_kernels::tf32_operands::{tf32_round, tf32_transpose_round};
    let invalid = |kernel: &'static str, detail: String| EmuError::InvalidLaunch { kernel, detail };
    // MatmulShape::check (by the caller) bounds every dimension below 2³¹: the casts are exact.
    let (m, k, n) = (a.rows as u32, a.cols as u32, b.cols as u32);
    let shape = MatmulShape { m, n, k };
    let (lda, ldb, a_in_place) = if kernel.config.tma {
        let packing = tessera_catalogue::tma::plan(kernel.config, shape, 4);
        (packing.a.ld, packing.b.ld, kernel.config.rounds_a && !packing.a.padded())
    } else {
        (k, k, false)
    };
    if lda < k || ldb < k {
        return Err(invalid("tf32_round", format!("leading dimensions {lda}, {ldb} below K = {k}")));
    }
    let a_prep = if a_in_place {
        a.data.clone()
    } else {
        let mut a_prep = vec![f32::NAN; m as usize * lda as usize];
        let (src, dst) = (SyncPtr::from_const(a.data.as_ptr()), SyncPtr::new(a_prep.as_mut_ptr()));
        launch("tf32_round", Launch::from(tessera_catalogue::launch::tf32_round(m, k)), || {
            // SAFETY: src holds m·k floats, dst m·lda (lda ≥ k, checked); no overlap.
            unsafe { tf32_round(src.get(), dst.get(), m, k, lda) }
        })?;
        a_prep
    };
    let mut bt_prep = vec![f32::NAN; n as usize * ldb as usize];
    let (src, dst) = (SyncPtr::from_const(b.data.as_ptr()), SyncPtr::new(bt_prep.as_mut_ptr()));
    launch("tf32_transpose_round", Launch::from(tessera_catalogue::launch::tf32_transpose(k, n)), || {
        // SAFETY: src holds k·n floats (B), dst n·ldb (ldb ≥ k, checked); no overlap.
        unsafe { tf32_transpose_round(src.get(), dst.get(), k, n, ldb) }
    })?;
    Ok((a_prep, bt_prep))
}

/// FP32 `Auto`'s unaligned path, as the GPU runs it ([`tessera_catalogue::fp32_padding`]): `A` and
/// `B` copied by `copy_padded_f32` into zero-filled operands with N and K rounded up to 4 (the
/// workspace starts as NaN here, so anything the copies miss shows), `algo` (an FP32 kernel, or `Auto`:
/// its pick for the padded shape) run on them, and `C'` cropped back to N by the same kernel. An error
/// where N and K are multiples of 4 already, or for a kernel that does not read plain `f32` pointers.
pub fn matmul_fp32_padded(algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: "copy_padded_f32", detail };
    let shape = MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols)).map_err(|e| invalid(e.to_string()))?;
    let padded = tessera_catalogue::fp32_padding::padded_shape(shape).ok_or_else(|| invalid(format!("{shape:?} needs no padding")))?;
    let algo = algo.resolve_for(padded, Precision::Fp32);
    if !tessera_catalogue::fp32_padding::runs_on_padded_copies(algo) {
        return Err(invalid(format!("{} does not read plain f32 pointers", algo.label())));
    }
    matmul_padded(tessera_catalogue::fp32_padding::Fp32Padding { shape, padded, algo }, a, b)
}

/// Runs `plan` as the host's `matmul_padded_on` does: the copies it makes, the kernel, the crop.
fn matmul_padded(plan: tessera_catalogue::fp32_padding::Fp32Padding, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    let (m, n, k) = (plan.shape.m, plan.shape.n, plan.shape.k);
    let (n4, k4) = (plan.padded.n, plan.padded.k);
    let a4 = if plan.pads_a() { copy_padded(&a.data, (k, m, k), (k4, m, k4))? } else { a.data.clone() };
    let b4 = if plan.pads_b() { copy_padded(&b.data, (n, k, n), (n4, k4, n4))? } else { b.data.clone() };
    let (a4, b4) =
        (HostMatrix { rows: m as usize, cols: k4 as usize, data: a4 }, HostMatrix { rows: k4 as usize, cols: n4 as usize, data: b4 });
    let c4 = matmul_in(Precision::Fp32, plan.algo, &a4, &b4)?;
    let c = if plan.crops_c() { copy_padded(&c4.data, (n4, m, n), (n, m, n))? } else { c4.data };
    Ok(HostMatrix { rows: m as usize, cols: n as usize, data: c })
}

/// `copy_padded_f32` from `src` (`(ld, rows, cols)`) into a new buffer of `(ld, out_rows, out_cols)`,
/// which starts as NaN: an element the kernel does not write stays NaN.
pub fn copy_padded(src: &[f32], from: (u32, u32, u32), to: (u32, u32, u32)) -> Result<Vec<f32>, EmuError> {
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: "copy_padded_f32", detail };
    let ((sld, rows, cols), (dld, out_rows, out_cols)) = (from, to);
    let extent = |rows: u32, cols: u32, ld: u32| if rows == 0 || cols == 0 { 0 } else { (rows as usize - 1) * ld as usize + cols as usize };
    if cols > sld || out_cols > dld || src.len() < extent(rows, cols, sld) {
        return Err(invalid(format!(
            "{} floats for {rows} rows of {cols} at ld {sld}, into {out_rows} of {out_cols} at ld {dld}",
            src.len()
        )));
    }
    let mut dst = vec![f32::NAN; extent(out_rows, out_cols, dld)];
    let (ps, pd) = (SyncPtr::from_const(src.as_ptr()), SyncPtr::new(dst.as_mut_ptr()));
    launch("copy_padded_f32", Launch::from(tessera_catalogue::launch::copy_padded_f32(out_rows, out_cols)), || {
        // SAFETY: src holds the extent of rows × cols at sld, dst that of out_rows × out_cols at dld
        // (checked and sized above), no overlap; cols ≤ sld, out_cols ≤ dld; the launch is the kernel's.
        unsafe { tessera_kernels::pack::copy_padded_f32(ps.get(), sld, rows, cols, pd.get(), dld, out_rows, out_cols) }
    })?;
    Ok(dst)
}
