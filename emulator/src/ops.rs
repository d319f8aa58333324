//! tessera's operations on the CPU executor: the plans `tessera::Gpu::matmul` runs
//! ([`tessera_catalogue::plan`]), interpreted on the CPU — for tests without a GPU and for teaching
//! (`scorecard --device cpu`).
use tessera_catalogue::plan::blocks::{GemmDims, Loc};
use tessera_catalogue::plan::{BlockedPlan, KernelLaunch, Op};
use tessera_catalogue::registry::algo::{Fp8MatmulFn, FusedMatmulFn, HostKernel, TmaMatmulFn};
use tessera_catalogue::registry::tma::{Layout, Packing};
use tessera_catalogue::{
    Activation, Algo, BiasKind, Choice, HostMatrix, LaunchPlan, MatmulKernel, MatmulShape, OutputFormat, Plan, Planner, Precision, Target,
};
use tessera_kernels::device::tma::TensorMap;
use tessera_kernels::pack::{pack_b8, pad_b16};

use crate::{launch, EmuError, Launch, SyncPtr};

/// `a · b` computed by `algo`'s kernel on the CPU executor in FP32 (see [`matmul_in`]).
pub fn matmul(algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    matmul_in(Precision::Fp32, algo, a, b)
}

/// `a · b` by `algo` in `precision` on the CPU executor: the plan the host makes for the H200
/// ([`Planner::product`] with [`Target::H200`]), run by [`run_plan`]. `Auto` picks what the GPU
/// would; a kernel of another precision is an error.
pub fn matmul_in(precision: Precision, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    let planner = Planner::new("matmul", algo, precision, Target::H200);
    matmul_planned(&planner, a, b)
}

/// `a · b` planned by `planner` (its target, limits and picks) and run on the CPU executor.
pub fn matmul_planned(planner: &Planner<'_>, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: planner.requested.kernel_name(), detail };
    let dims = GemmDims::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols)).map_err(|e| invalid(e.to_string()))?;
    let plan = planner.product(dims).map_err(|e| invalid(e.to_string()))?;
    run_plan(&plan, a, b)
}

/// Runs `plan` (made for `a · b`) on the CPU executor, step for step as the host queues it: nothing,
/// `C = 0`, one launch-sized product ([`run_launch`]), or the blocks of a larger one (their 2D copies,
/// products and additions on host memory).
pub fn run_plan(plan: &Plan, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    let dims = plan.dims();
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: "matmul", detail };
    if (a.rows, a.cols, b.rows, b.cols) != (dims.m, dims.k, dims.k, dims.n) {
        return Err(invalid(format!("a plan of {}×{}×{} for A {}×{} and B {}×{}", dims.m, dims.n, dims.k, a.rows, a.cols, b.rows, b.cols)));
    }
    if a.data.len() != a.rows * a.cols || b.data.len() != b.rows * b.cols {
        return Err(invalid("matrix data length differs from rows·cols".into()));
    }
    match plan {
        Plan::Nothing { .. } | Plan::ZeroC { .. } => Ok(HostMatrix::from_fn(dims.m, dims.n, |_, _| 0.0)),
        Plan::One(launch) => run_launch(launch, a, b),
        Plan::Blocks(blocked) => run_blocked(blocked, a, b),
    }
}

/// One planned launch-sized product: FP32's padded path, or the kernel on the operands.
pub fn run_launch(plan: &LaunchPlan, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    match plan.choice {
        Choice::Padded(padding) => matmul_padded(padding, &plan.launch, a, b),
        Choice::Kernel(_) => run_kernel(&plan.launch, plan.precision, a, b),
    }
}

/// A blocked plan on host memory: `A`, `B`, `C` and the work buffers as `f32` arrays (the launches
/// round their inputs to the precision as the GPU's uploads do).
fn run_blocked(plan: &BlockedPlan, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    let ws = plan.workspace;
    let (m, n) = (plan.dims.m, plan.dims.n);
    // A, B, C, then the work buffers APack, BPack, CPack, Scratch (NaN: what no operation writes shows).
    let mut bufs = [a.data.clone(), b.data.clone(), vec![f32::NAN; m * n], vec![f32::NAN; ws.a_pack], vec![f32::NAN; ws.b_pack]];
    let mut extra = [vec![f32::NAN; ws.c_pack], vec![f32::NAN; ws.scratch]];
    let place = |loc: Loc| match loc {
        Loc::A(o) => (0, o),
        Loc::B(o) => (1, o),
        Loc::C(o) => (2, o),
        Loc::APack => (3, 0),
        Loc::BPack => (4, 0),
        Loc::CPack => (5, 0),
        Loc::Scratch => (6, 0),
    };
    let out_of_range = |what: &str| EmuError::InvalidLaunch { kernel: "matmul", detail: format!("{what} outside its buffer") };
    fn buf<'b>(bufs: &'b mut [Vec<f32>; 5], extra: &'b mut [Vec<f32>; 2], id: usize) -> &'b mut Vec<f32> {
        if id < 5 {
            &mut bufs[id]
        } else {
            &mut extra[id - 5]
        }
    }
    let read = |bufs: &mut [Vec<f32>; 5], extra: &mut [Vec<f32>; 2], loc: Loc, at: usize, len: usize| {
        let (id, base) = place(loc);
        buf(bufs, extra, id).get(base + at..base + at + len).map(<[f32]>::to_vec)
    };
    for op in &plan.ops {
        match op {
            &Op::Copy2d { src, src_pitch, dst, dst_pitch, width, height } => {
                for row in 0..height {
                    let values = read(&mut bufs, &mut extra, src, row * src_pitch, width).ok_or_else(|| out_of_range("a copy's source"))?;
                    let (id, base) = place(dst);
                    let start = base + row * dst_pitch;
                    let into = buf(&mut bufs, &mut extra, id).get_mut(start..start + width);
                    into.ok_or_else(|| out_of_range("a copy's destination"))?.copy_from_slice(&values);
                }
            }
            Op::Product { a: la, b: lb, c: lc, launch } => {
                let (pm, pn, pk) = (launch.shape.m as usize, launch.shape.n as usize, launch.shape.k as usize);
                let x = read(&mut bufs, &mut extra, *la, 0, pm * pk).ok_or_else(|| out_of_range("a block of A"))?;
                let y = read(&mut bufs, &mut extra, *lb, 0, pk * pn).ok_or_else(|| out_of_range("a block of B"))?;
                let product = run_launch(launch, &HostMatrix { rows: pm, cols: pk, data: x }, &HostMatrix { rows: pk, cols: pn, data: y })?;
                let (id, base) = place(*lc);
                let into = buf(&mut bufs, &mut extra, id).get_mut(base..base + pm * pn);
                into.ok_or_else(|| out_of_range("a block of C"))?.copy_from_slice(&product.data);
            }
            &Op::AddInto { dst, src, len } => {
                let add = read(&mut bufs, &mut extra, src, 0, len).ok_or_else(|| out_of_range("an addition's source"))?;
                let (id, base) = place(dst);
                let into = buf(&mut bufs, &mut extra, id).get_mut(base..base + len).ok_or_else(|| out_of_range("an addition's target"))?;
                into.iter_mut().zip(add).for_each(|(d, s)| *d += s);
            }
        }
    }
    let [_, _, c, _, _] = bufs;
    Ok(HostMatrix { rows: m, cols: n, data: c })
}

/// A fused epilogue on the CPU executor: the activation, and the bias with its values.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HostEpilogue {
    pub bias: Option<(BiasKind, Vec<f32>)>,
    pub activation: Activation,
}

impl HostEpilogue {
    /// The launch's code word.
    pub fn code(&self) -> u32 {
        tessera_catalogue::epilogue::code(self.bias.as_ref().map(|(k, _)| *k), self.activation)
    }
}

/// The scales of an FP8 product on the CPU executor: per tensor (`scale_a`, `scale_b`), or block
/// scales (`a`: `m × ⌈k/128⌉`, `b`: `⌈n/128⌉ × ⌈k/128⌉`, row-major; kernel 25's `*_blocks` entries).
#[derive(Debug, Clone, PartialEq)]
pub enum HostFp8Scales {
    PerTensor([f32; 2]),
    Blocks { a: Vec<f32>, b: Vec<f32> },
}

/// `a · b` in FP8 (`precision` E4M3 or E5M2: `a` and `b` rounded to it, as `Gpu::convert_to_fp8`
/// rounds), scaled by `scales`, by `algo` (an FP8 kernel or `Auto`) on the CPU executor: the plan the
/// host makes for the H200, its kernel given the scales as the GPU's kernel reads them from device
/// memory. Without a GPU's FP8 accumulator, the unpromoted kernels sum as the promoted ones do (see
/// `tessera_device::wgmma`'s host model).
///
/// `output` BF16: the kernel rounds `C` to BF16 as it stores it; the result holds those values.
pub fn matmul_fp8(
    precision: Precision,
    algo: Algo,
    a: &HostMatrix,
    b: &HostMatrix,
    scales: &HostFp8Scales,
    output: OutputFormat,
    epilogue: &HostEpilogue,
) -> Result<HostMatrix, EmuError> {
    use tessera_catalogue::select::{fp8_scaled, Fp8Scaling};
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: algo.kernel_name(), detail };
    if !precision.is_fp8() {
        return Err(invalid(format!("{precision:?} is not an FP8 format")));
    }
    let dims = GemmDims::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols)).map_err(|e| invalid(e.to_string()))?;
    let scaling = if matches!(scales, HostFp8Scales::Blocks { .. }) { Fp8Scaling::Blocks } else { Fp8Scaling::PerTensor };
    let shape = MatmulShape {
        m: dims.m.min(u32::MAX as usize) as u32,
        n: dims.n.min(u32::MAX as usize) as u32,
        k: dims.k.min(u32::MAX as usize) as u32,
    };
    let requested = fp8_scaled("matmul_fp8", algo, precision, scaling, shape, Target::H200.sms).map_err(|e| invalid(e.to_string()))?;
    if let HostFp8Scales::Blocks { a: sa, b: sb } = scales {
        let blocks = dims.k.div_ceil(128);
        if sa.len() != dims.m * blocks || sb.len() != dims.n.div_ceil(128) * blocks {
            return Err(invalid(format!("block scales of {} and {} floats for {}×{}×{}", sa.len(), sb.len(), dims.m, dims.n, dims.k)));
        }
    }
    if let Some((kind, values)) = &epilogue.bias {
        if values.len() != kind.len(dims.m, dims.n) {
            return Err(invalid(format!("a bias of {} values {kind:?} for {}×{}", values.len(), dims.m, dims.n)));
        }
    }
    let fused = epilogue.code() != 0;
    if dims.k == 0 && fused {
        return Err(invalid("K = 0 with a bias or an activation: the epilogue of an empty sum".into()));
    }
    let planner = Planner::new("matmul_fp8", requested, precision, Target::H200).with_output(output).with_fused_epilogue(fused);
    match planner.product(dims).map_err(|e| invalid(e.to_string()))? {
        Plan::One(LaunchPlan { launch, .. }) => {
            run_kernel_scaled(&launch, precision, a, b, Some(Finishing { scales: Some(scales), alpha: 1.0, epilogue }))
        }
        Plan::Nothing { .. } | Plan::ZeroC { .. } => Ok(HostMatrix::from_fn(dims.m, dims.n, |_, _| 0.0)),
        Plan::Blocks(_) => Err(invalid("a product past one launch's limits".into())),
    }
}

/// `act(α·a·b + bias)` in `precision` (FP32, TF32, BF16 or FP16: the inputs rounded to it) with `C`
/// in `output`, by `algo` (a kernel-27 or kernel-29 entry, or `Auto`) on the CPU executor: the plan the host makes
/// for the H200 (`Planner::with_output`, `with_fused_epilogue`), the kernel finishing each sum in its
/// store. `output` BF16 or FP16: the result holds the rounded values.
pub fn matmul_finished(
    precision: Precision,
    algo: Algo,
    a: &HostMatrix,
    b: &HostMatrix,
    alpha: f32,
    output: OutputFormat,
    epilogue: &HostEpilogue,
) -> Result<HostMatrix, EmuError> {
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: algo.kernel_name(), detail };
    if precision.is_fp8() {
        return Err(invalid(format!("{precision:?}: kernels 27 and 29 multiply FP32, TF32, BF16 and FP16 (FP8: matmul_fp8)")));
    }
    let dims = GemmDims::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols)).map_err(|e| invalid(e.to_string()))?;
    if let Some((kind, values)) = &epilogue.bias {
        if values.len() != kind.len(dims.m, dims.n) {
            return Err(invalid(format!("a bias of {} values {kind:?} for {}×{}", values.len(), dims.m, dims.n)));
        }
    }
    let fused = epilogue.code() != 0;
    // α ≠ 1 needs a kernel that finishes its sums as much as an epilogue does.
    let planner =
        Planner::new("matmul_finished", algo, precision, Target::H200).with_output(output).with_fused_epilogue(fused || alpha != 1.0);
    match planner.product(dims).map_err(|e| invalid(e.to_string()))? {
        Plan::One(LaunchPlan { launch, .. }) => {
            run_kernel_scaled(&launch, precision, a, b, Some(Finishing { scales: None, alpha, epilogue }))
        }
        Plan::Nothing { .. } => Ok(HostMatrix::from_fn(dims.m, dims.n, |_, _| 0.0)),
        Plan::ZeroC { .. } => Err(invalid("K = 0: the epilogue of an empty sum is the host's".into())),
        Plan::Blocks(_) => Err(invalid("a product past one launch's limits".into())),
    }
}

/// One planned kernel launch on the CPU executor (`C` starts as NaN — zeros where the launch adds
/// into it, as the host zeroes it — so an element no thread writes shows up in any check).
fn run_kernel(planned: &KernelLaunch, precision: Precision, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    run_kernel_scaled(planned, precision, a, b, None)
}

/// What a kernel that finishes its sums is given besides the operands: FP8 scales (kernel 25;
/// `None`: null, which it reads as 1), `α` (kernel 27), the fused epilogue.
#[derive(Clone, Copy)]
struct Finishing<'a> {
    scales: Option<&'a HostFp8Scales>,
    alpha: f32,
    epilogue: &'a HostEpilogue,
}

/// [`run_kernel`], a finishing kernel given `finishing` (`None`: unit scales, `α = 1`, no epilogue).
fn run_kernel_scaled(
    planned: &KernelLaunch,
    precision: Precision,
    a: &HostMatrix,
    b: &HostMatrix,
    finishing: Option<Finishing<'_>>,
) -> Result<HostMatrix, EmuError> {
    let (scales, epilogue) = (finishing.and_then(|f| f.scales), finishing.map(|f| f.epilogue));
    let alpha = finishing.map_or(1.0, |f| f.alpha);
    let kernel = planned.kernel();
    let shape = planned.shape;
    if (a.rows, a.cols, b.cols) != (shape.m as usize, shape.k as usize, shape.n as usize) {
        return Err(EmuError::InvalidLaunch { kernel: kernel.entry, detail: format!("operands of another shape than {shape:?}") });
    }
    // NaN whose two halves are BF16 NaNs too: an element a BF16-writing kernel skips shows as well.
    let mut c = vec![f32::from_bits(u32::MAX); a.rows * b.cols];
    let pc = SyncPtr::new(c.as_mut_ptr());
    if planned.zero_c {
        // As the host: kernel `zero_f32` just before a launch that adds into C.
        let len = c.len();
        let zero = Launch::from(tessera_catalogue::registry::launch::zero_f32(len, 2));
        // SAFETY: C holds `len` floats and outlives the launch.
        launch("zero_f32", zero, || unsafe { tessera_kernels::zero_fill::zero_f32(pc.get(), len) })?;
    }
    let (m, n, k, cfg) = (shape.m, shape.n, shape.k, Launch::from(planned.dims));
    let entry = planned.entry;
    let (_, host_build) = kernel.launched(n);
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
            let call = TmaCall::Plain(host);
            launch_tma(kernel, call, cfg, shape, tma_packing(planned)?, a_prep.as_ptr().cast(), bt_prep.as_ptr().cast(), pc)?;
        }
        HostKernel::Tma(host) => {
            let (a16, b16) = (half_bits(precision, a), half_bits(precision, b));
            launch_tma(kernel, TmaCall::Plain(host), cfg, shape, tma_packing(planned)?, a16.as_ptr().cast(), b16.as_ptr().cast(), pc)?;
        }
        HostKernel::Fp8(host) => {
            // As the host: A's bytes read in place, B transposed into Bᵀ by `pack_b8`.
            let (a8, b8) = (fp8_bits(precision, a), fp8_bits(precision, b));
            let bt = transpose_b8(&b8, shape.k, shape.n)?;
            let (sa, sb): (&[f32], &[f32]) = match scales {
                None => (&[], &[]),
                Some(HostFp8Scales::PerTensor(s)) => (&s[..1], &s[1..]),
                Some(HostFp8Scales::Blocks { a, b }) => (a, b),
            };
            if kernel.config.fp8_block_scales != matches!(scales, Some(HostFp8Scales::Blocks { .. })) {
                let detail = "block scales go to the block-scaled kernels alone".to_string();
                return Err(EmuError::InvalidLaunch { kernel: kernel.entry, detail });
            }
            let ptr = |s: &[f32]| if s.is_empty() { std::ptr::null() } else { s.as_ptr() };
            let bf16 = planned.output == OutputFormat::Bf16;
            let (bias, code) = fused_args(planned, epilogue)?;
            let call = TmaCall::Fp8 {
                host,
                scales: (SyncPtr::from_const(ptr(sa)), SyncPtr::from_const(ptr(sb))),
                out_bf16: u32::from(bf16),
                bias: SyncPtr::from_const(bias),
                epilogue: code,
            };
            launch_tma(kernel, call, cfg, shape, tma_packing(planned)?, a8.as_ptr(), bt.as_ptr(), pc)?;
            widen_output(&mut c, planned.output);
        }
        HostKernel::Fused(host) => {
            // As the host: TF32's operands prepared, 16-bit ones read in place (padded where the plan says).
            let (bias, code) = fused_args(planned, epilogue)?;
            let call = TmaCall::Fused { host, alpha, out: planned.output.code(), bias: SyncPtr::from_const(bias), epilogue: code };
            if kernel.config.tf32_operands {
                let (a_prep, bt_prep) = prepare_tf32_for(kernel, a, b)?;
                launch_tma(kernel, call, cfg, shape, tma_packing(planned)?, a_prep.as_ptr().cast(), bt_prep.as_ptr().cast(), pc)?;
            } else {
                let (a16, b16) = (half_bits(precision, a), half_bits(precision, b));
                launch_tma(kernel, call, cfg, shape, tma_packing(planned)?, a16.as_ptr().cast(), b16.as_ptr().cast(), pc)?;
            }
            widen_output(&mut c, planned.output);
        }
        HostKernel::FusedF32(host) => {
            let (bias, code) = fused_args(planned, epilogue)?;
            let (pa, pb, pbias) = (SyncPtr::from_const(a.data.as_ptr()), SyncPtr::from_const(b.data.as_ptr()), SyncPtr::from_const(bias));
            let out = planned.output.code();
            launch(entry, cfg, || {
                // SAFETY: a, b hold m·k and k·n floats, c m·n floats (room for m·n elements of any
                // output type); the bias null or its values (the caller's epilogue, alive until the
                // launch returns); the launch is the kernel's own.
                unsafe { host(pa.get(), pb.get(), pc.get(), m, n, k, alpha, out, pbias.get(), code) }
            })?;
            widen_output(&mut c, planned.output);
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

/// The fused epilogue's bias pointer (or null) and code word for a launch ([`KernelLaunch::fused`]);
/// [`EmuError::InvalidLaunch`] for an epilogue given to a launch planned without one.
fn fused_args(planned: &KernelLaunch, epilogue: Option<&HostEpilogue>) -> Result<(*const f32, u32), EmuError> {
    let (bias, code) = match epilogue {
        Some(e) => (e.bias.as_ref().map_or(std::ptr::null(), |(_, v)| v.as_ptr()), e.code()),
        None => (std::ptr::null(), 0),
    };
    if code != 0 && !planned.fused {
        let detail = "a fused epilogue given to a launch planned without one".to_string();
        return Err(EmuError::InvalidLaunch { kernel: planned.entry, detail });
    }
    Ok((bias, code))
}

/// A 16-bit `C` the kernel wrote as `m·n` elements at the start of `c`'s buffer, widened in place
/// (nothing for `f32`).
fn widen_output(c: &mut [f32], output: OutputFormat) {
    let widen: fn(u16) -> f32 = match output {
        OutputFormat::F32 => return,
        OutputFormat::Bf16 => |b| half::bf16::from_bits(b).to_f32(),
        OutputFormat::F16 => |b| half::f16::from_bits(b).to_f32(),
    };
    let bits: Vec<u16> = c
        .iter()
        .flat_map(|x| {
            let b = x.to_bits();
            [(b & 0xFFFF) as u16, (b >> 16) as u16]
        })
        .take(c.len())
        .collect();
    for (x, b) in c.iter_mut().zip(bits) {
        *x = widen(b);
    }
}

/// `m`'s elements as BF16 (`precision` Bf16) or FP16 bit patterns.
fn half_bits(precision: Precision, m: &HostMatrix) -> Vec<u16> {
    match precision {
        Precision::Bf16 => m.data.iter().map(|&x| half::bf16::from_f32(x).to_bits()).collect(),
        _ => m.data.iter().map(|&x| half::f16::from_f32(x).to_bits()).collect(),
    }
}

/// `m`'s elements rounded to FP8 (`precision` E4M3 or E5M2) as bit patterns.
fn fp8_bits(precision: Precision, m: &HostMatrix) -> Vec<u8> {
    match precision {
        Precision::Fp8E5m2 => m.data.iter().map(|&x| float8::F8E5M2::from_f32(x).to_bits()).collect(),
        _ => m.data.iter().map(|&x| float8::F8E4M3::from_f32(x).to_bits()).collect(),
    }
}

/// `b` (`k × n` bytes, row-major) transposed into `Bᵀ` (`n × k`) by `pack_b8`, as the host prepares
/// an FP8 kernel's B.
pub fn transpose_b8(b: &[u8], k: u32, n: u32) -> Result<Vec<u8>, EmuError> {
    let len = k as usize * n as usize;
    if b.len() != len {
        return Err(EmuError::InvalidLaunch { kernel: "pack_b8", detail: format!("{} bytes for a {k} × {n} B", b.len()) });
    }
    let mut bt = vec![0u8; len];
    let (ps, pd) = (SyncPtr::from_const(b.as_ptr()), SyncPtr::new(bt.as_mut_ptr()));
    launch("pack_b8", Launch::from(tessera_catalogue::registry::launch::pack_transpose(k, n, 1)), || {
        // SAFETY: B holds k·n bytes, read transposed ((cols-1)·ld + rows = (k-1)·n + n), Bᵀ n·k;
        // no overlap; the launch is the pack walk's.
        unsafe { pack_b8(ps.get(), len, n as usize, n, k, 1, pd.get()) }
    })?;
    Ok(bt)
}

/// How [`launch_tma`] calls a TMA kernel's host build: the common arguments, or an FP8 entry's with
/// its two scale pointers (null: 1), whether `C` is BF16 (1: `c` then holds `m·n` BF16 elements and
/// has no tensor map), and its fused epilogue (bias or null, code).
#[derive(Clone, Copy)]
pub enum TmaCall {
    Plain(TmaMatmulFn),
    Fp8 { host: Fp8MatmulFn, scales: (SyncPtr<f32>, SyncPtr<f32>), out_bf16: u32, bias: SyncPtr<f32>, epilogue: u32 },
    Fused { host: FusedMatmulFn, alpha: f32, out: u32, bias: SyncPtr<f32>, epilogue: u32 },
}

impl TmaCall {
    /// Whether the kernel writes an `f32` `C` (then the host gives it `C`'s tensor map).
    fn writes_f32(&self) -> bool {
        match self {
            TmaCall::Plain(_) => true,
            TmaCall::Fp8 { out_bf16, .. } => *out_bf16 == 0,
            TmaCall::Fused { out, .. } => *out == OutputFormat::F32.code(),
        }
    }
}

/// The planned TMA layouts of a TMA kernel's launch.
fn tma_packing(planned: &KernelLaunch) -> Result<Packing, EmuError> {
    planned.tma.ok_or_else(|| EmuError::InvalidLaunch { kernel: planned.entry, detail: "a TMA kernel planned without its layouts".into() })
}

/// Runs a TMA kernel (kernels 15–16) with the host model's tensor maps over `x` (A, `m × k`) and `y`
/// (B, `k × n`, or the prepared `Bᵀ`) in the plan's layouts (`packing`, the `KernelLaunch`'s), as the
/// GPU's maps are encoded from them. As on the GPU, an operand the plan pads is first copied into its
/// padded rows by `pad_b16` (the padding holds NaN here: the maps must never read it); prepared TF32
/// operands must already have the plan's leading dimensions (`prepare_tf32_for`).
#[allow(clippy::too_many_arguments)]
pub fn launch_tma(
    kernel: &MatmulKernel,
    call: TmaCall,
    cfg: Launch,
    shape: MatmulShape,
    packing: Packing,
    x: *const u8,
    y: *const u8,
    c: SyncPtr<f32>,
) -> Result<(), EmuError> {
    let elem_bytes = kernel.precision.input_bytes();
    let ops = tessera_catalogue::registry::tma::operands(kernel.config, &packing, elem_bytes)
        .map_err(|e| EmuError::InvalidLaunch { kernel: kernel.entry, detail: e.to_string() })?;
    // The padded copies (the GPU's workspace), made before the launch as the host queues them.
    let copy = |src: *const u8, layout: Layout| -> Result<Option<Vec<u16>>, EmuError> {
        if kernel.config.b_k_major() || !layout.padded() {
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
    // C's map where its rows are whole 16-byte units, as the host encodes it.
    let f32_out = call.writes_f32();
    let map_c = tessera_catalogue::registry::tma::c_operand(shape)
        .filter(|_| f32_out)
        .map(|op| TensorMap::host_model(c.get().cast::<u8>(), op.elem_bytes, op.dims, op.row_stride, op.boxdim, true));
    let pmc = SyncPtr::from_const(map_c.as_ref().map_or(std::ptr::null(), |m| m as *const TensorMap));
    let (m, n, k) = (shape.m, shape.n, shape.k);
    // A kernel compiled with `.reqnctapercluster` (kernel 24) runs in clusters of that size whatever
    // the launch asks, as the driver launches it.
    let cfg = if kernel.config.cluster > 1 { cfg.with_cluster((kernel.config.cluster, 1, 1)) } else { cfg };
    // The stream-K kernels' counters, zeroed as the host's are; the launch must leave them zero.
    let words = if kernel.config.stream_k { tessera_kernels::matmul::k22_tma_stream_k::flag_words(cfg.grid.0) } else { 0 };
    let mut flags = vec![0u32; words as usize];
    let pf = SyncPtr::new(flags.as_mut_ptr());
    launch(kernel.entry, cfg, || {
        // SAFETY: the maps describe x (A: m × k) and y (B: k × n, or Bᵀ: n × k) in the layouts of the
        // plan (the caller's dense operands, the padded copies above, or prepared TF32 operands with the
        // plan's leading dimensions), all alive until the launch returns; c holds m·n floats (map_c, if
        // any, describes exactly them); flags the
        // counters of a stream-K grid of this size, zeroed; the launch is the kernel's own.
        unsafe {
            match call {
                TmaCall::Plain(host) => host(pa.get(), pb.get(), pmc.get(), c.get(), pf.get(), m, n, k),
                // The scales: null, or one float each that outlives the launch (the caller's).
                TmaCall::Fp8 { host, scales: (sa, sb), out_bf16, bias, epilogue } => {
                    host(pa.get(), pb.get(), pmc.get(), c.get(), pf.get(), m, n, k, sa.get(), sb.get(), out_bf16, bias.get(), epilogue)
                }
                // The bias: null, or the values its kind needs, alive until the launch returns (the caller's).
                TmaCall::Fused { host, alpha, out, bias, epilogue } => {
                    host(pa.get(), pb.get(), pmc.get(), c.get(), pf.get(), m, n, k, alpha, out, bias.get(), epilogue)
                }
            }
        }
    })?;
    match flags.iter().position(|&f| f != 0) {
        Some(i) => Err(EmuError::InvalidLaunch {
            kernel: kernel.entry,
            detail: format!("the launch left counter {i} of {words} at {}: the next launch would find a tile published", flags[i]),
        }),
        None => Ok(()),
    }
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
    launch("pad_b16", Launch::from(tessera_catalogue::registry::launch::pad_b16(rows, cols, ld, Target::H200.sms)), || {
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
        let packing = tessera_catalogue::registry::tma::plan(kernel.config, shape, 4);
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
        launch("tf32_round", Launch::from(tessera_catalogue::registry::launch::tf32_round(m, k)), || {
            // SAFETY: src holds m·k floats, dst m·lda (lda ≥ k, checked); no overlap.
            unsafe { tf32_round(src.get(), dst.get(), m, k, lda) }
        })?;
        a_prep
    };
    let mut bt_prep = vec![f32::NAN; n as usize * ldb as usize];
    let (src, dst) = (SyncPtr::from_const(b.data.as_ptr()), SyncPtr::new(bt_prep.as_mut_ptr()));
    launch("tf32_transpose_round", Launch::from(tessera_catalogue::registry::launch::tf32_transpose(k, n)), || {
        // SAFETY: src holds k·n floats (B), dst n·ldb (ldb ≥ k, checked); no overlap.
        unsafe { tf32_transpose_round(src.get(), dst.get(), k, n, ldb) }
    })?;
    Ok((a_prep, bt_prep))
}

/// FP32 `Auto`'s unaligned path, as the GPU runs it ([`tessera_catalogue::select::fp32_padding`]): `A` and
/// `B` copied by `copy_padded_f32` into zero-filled operands with N and K rounded up to 4 (the
/// workspace starts as NaN here, so anything the copies miss shows), `algo` (an FP32 kernel, or `Auto`:
/// its pick for the padded shape) run on them, and `C'` cropped back to N by the same kernel. An error
/// where N and K are multiples of 4 already, or for a kernel that does not read plain `f32` pointers.
pub fn matmul_fp32_padded(algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix, EmuError> {
    let invalid = |detail: String| EmuError::InvalidLaunch { kernel: "copy_padded_f32", detail };
    let shape = MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols)).map_err(|e| invalid(e.to_string()))?;
    let padded =
        tessera_catalogue::select::fp32_padding::padded_shape(shape).ok_or_else(|| invalid(format!("{shape:?} needs no padding")))?;
    let planner = Planner::new("matmul_fp32_padded", algo, Precision::Fp32, Target::H200);
    let algo = planner.choice(padded).map_err(|e| invalid(e.to_string()))?.kernel();
    if !tessera_catalogue::select::fp32_padding::runs_on_padded_copies(algo) {
        return Err(invalid(format!("{} does not read plain f32 pointers", algo.label())));
    }
    let choice = Choice::Padded(tessera_catalogue::select::fp32_padding::Fp32Padding { shape, padded, algo });
    let plan = planner.launch_of(shape, choice).map_err(|e| invalid(e.to_string()))?;
    run_launch(&plan, a, b)
}

/// Runs `plan` as the host's `matmul_padded_on` does: the copies it makes, the kernel (`launch`, on
/// the padded shape), the crop.
fn matmul_padded(
    plan: tessera_catalogue::select::fp32_padding::Fp32Padding,
    launch: &KernelLaunch,
    a: &HostMatrix,
    b: &HostMatrix,
) -> Result<HostMatrix, EmuError> {
    let (m, n, k) = (plan.shape.m, plan.shape.n, plan.shape.k);
    let (n4, k4) = (plan.padded.n, plan.padded.k);
    let a4 = if plan.pads_a() { copy_padded(&a.data, (k, m, k), (k4, m, k4))? } else { a.data.clone() };
    let b4 = if plan.pads_b() { copy_padded(&b.data, (n, k, n), (n4, k4, n4))? } else { b.data.clone() };
    let (a4, b4) =
        (HostMatrix { rows: m as usize, cols: k4 as usize, data: a4 }, HostMatrix { rows: k4 as usize, cols: n4 as usize, data: b4 });
    let c4 = run_kernel(launch, Precision::Fp32, &a4, &b4)?;
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
    launch("copy_padded_f32", Launch::from(tessera_catalogue::registry::launch::copy_padded_f32(out_rows, out_cols)), || {
        // SAFETY: src holds the extent of rows × cols at sld, dst that of out_rows × out_cols at dld
        // (checked and sized above), no overlap; cols ≤ sld, out_cols ≤ dld; the launch is the kernel's.
        unsafe { tessera_kernels::pack::copy_padded_f32(ps.get(), sld, rows, cols, pd.get(), dld, out_rows, out_cols) }
    })?;
    Ok(dst)
}
