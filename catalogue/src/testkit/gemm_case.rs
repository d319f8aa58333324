//! GEMM test problems on host buffers, shared by every suite that checks a GEMM (the CPU executor's,
//! the GPU parity tests, the scorecard): operands laid out as a case asks (layout, padded leading
//! dimension, offset), poison wherever nothing may be read, and the check of a result against the
//! f64 reference ([`crate::testkit::check::check_gemm`]) plus the untouched elements around `C`'s view.
use crate::plan::gemm::{GemmParams, Layout, MatrixDesc, Transpose};
use crate::precision::Precision;
use crate::testkit::check::{check_epilogue, check_gemm};
use crate::testkit::reference::{self, ReferenceProduct};
use crate::HostMatrix;
use crate::{Activation, BiasKind, OutputFormat};

/// What `C`'s buffer holds outside its view: it must come back bit for bit.
pub const SENTINEL: f32 = -7777.25;

/// One GEMM problem: sizes, transposes, scalars, layouts and whether the views are sub-matrices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GemmCase {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alpha: f32,
    pub beta: f32,
    pub trans_a: Transpose,
    pub trans_b: Transpose,
    pub precision: Precision,
    /// Layouts of `A`, `B`, `C`.
    pub layouts: [Layout; 3],
    /// Where the views lie in their buffers.
    pub views: Views,
}

/// Where a case's matrices lie in their buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Views {
    /// Dense, at the start of the buffer.
    Dense,
    /// Sub-matrices of larger ones: leading dimension 3 above the minimum, first element at index 5
    /// (not 16-byte aligned: every operand is packed, `C` goes through the epilogue).
    Padded,
    /// Dense, but starting at element 8 (16-byte aligned for 2- and 4-byte elements): the kernels read
    /// and write the views in place.
    Offset,
}

/// A case's buffers: `A`, `B` (values already rounded to the precision, so converting them to the
/// input type is exact) and `C`, with their views, and `C`'s initial values.
#[derive(Debug, Clone)]
pub struct GemmBuffers {
    pub a: Vec<f32>,
    pub a_desc: MatrixDesc,
    pub b: Vec<f32>,
    pub b_desc: MatrixDesc,
    pub c: Vec<f32>,
    pub c_desc: MatrixDesc,
    /// `C`'s view before the GEMM (dense row-major `m × n`; NaN when `β = 0`, which must not be read).
    pub c0: HostMatrix,
}

impl GemmCase {
    /// `C = A·B` of `m×n×k`, row-major, dense, FP32.
    pub fn new(m: usize, n: usize, k: usize) -> Self {
        Self {
            m,
            n,
            k,
            alpha: 1.0,
            beta: 0.0,
            trans_a: Transpose::No,
            trans_b: Transpose::No,
            precision: Precision::Fp32,
            layouts: [Layout::RowMajor; 3],
            views: Views::Dense,
        }
    }

    /// The [`GemmParams`] of this case (with `algo` Auto; TF32 asked for explicitly).
    pub fn params(&self) -> GemmParams {
        let p = GemmParams::new().alpha(self.alpha).beta(self.beta).trans_a(self.trans_a).trans_b(self.trans_b);
        if self.precision == Precision::Tf32 {
            p.precision(Precision::Tf32)
        } else {
            p
        }
    }

    /// A name for test lists: `gemm_fp32_NT_rcc_17x33x9_a1.5_b-0.5_padded`.
    pub fn label(&self) -> String {
        let l = |x: Layout| if x == Layout::RowMajor { 'r' } else { 'c' };
        format!(
            "gemm_{}_{}{}_{}{}{}_{}x{}x{}_a{}_b{}{}",
            self.precision.label(),
            self.trans_a.label(),
            self.trans_b.label(),
            l(self.layouts[0]),
            l(self.layouts[1]),
            l(self.layouts[2]),
            self.m,
            self.n,
            self.k,
            self.alpha,
            self.beta,
            match self.views {
                Views::Dense => "",
                Views::Padded => "_padded",
                Views::Offset => "_offset",
            }
        )
    }

    /// The stored shape of an operand whose `op` is `rows × cols`.
    fn stored(rows: usize, cols: usize, t: Transpose) -> (usize, usize) {
        match t {
            Transpose::No => (rows, cols),
            Transpose::Yes => (cols, rows),
        }
    }

    fn desc(&self, rows: usize, cols: usize, layout: Layout) -> MatrixDesc {
        let d = MatrixDesc::dense(rows, cols, layout);
        match self.views {
            Views::Dense => d,
            Views::Padded => d.with_ld(d.min_ld() + 3).with_offset(5),
            Views::Offset => d.with_offset(8),
        }
    }

    /// The buffers, from `seed`. `A` and `B` are NaN outside their views, and everywhere when `α = 0`
    /// (BLAS does not read them then); `C` is [`SENTINEL`] outside its view, and NaN inside when `β = 0`.
    pub fn buffers(&self, seed: u64) -> GemmBuffers {
        let (ar, ac) = Self::stored(self.m, self.k, self.trans_a);
        let (br, bc) = Self::stored(self.k, self.n, self.trans_b);
        let (a_desc, b_desc, c_desc) =
            (self.desc(ar, ac, self.layouts[0]), self.desc(br, bc, self.layouts[1]), self.desc(self.m, self.n, self.layouts[2]));
        let operand = |d: MatrixDesc, seed: u64| {
            let len = d.needed_len().expect("test sizes are small") + 2;
            let mut buf = vec![f32::NAN; len];
            if self.alpha != 0.0 {
                let values: Vec<f32> =
                    crate::testkit::random::operands(d.rows * d.cols, seed).into_iter().map(|x| self.precision.round_input(x)).collect();
                d.scatter(&values, &mut buf);
            }
            buf
        };
        let (a, b) = (operand(a_desc, seed), operand(b_desc, seed ^ 0x5eed));
        let c0 = if self.beta == 0.0 {
            HostMatrix::new(self.m, self.n, vec![f32::NAN; self.m * self.n]).expect("m·n elements")
        } else {
            HostMatrix::random(self.m, self.n, seed.wrapping_add(17))
        };
        let mut c = vec![SENTINEL; c_desc.needed_len().expect("test sizes are small") + 2];
        c_desc.scatter(&c0.data, &mut c);
        GemmBuffers { a, a_desc, b, b_desc, c, c_desc, c0 }
    }

    /// Checks `c_after` (C's whole buffer after the GEMM): every element outside the view unchanged,
    /// the view within [`check_gemm`]'s tolerance of the f64 reference.
    pub fn check(&self, bufs: &GemmBuffers, c_after: &[f32]) -> Result<(), String> {
        self.untouched_outside(bufs, c_after, SENTINEL)?;
        let (op_a, op_b) = self.operands(bufs);
        let got = HostMatrix::new(self.m, self.n, bufs.c_desc.gather(c_after)).expect("m·n elements");
        check_gemm(self.precision, self.alpha, &op_a, &op_b, self.beta, &bufs.c0, &got).map_err(|e| format!("{}: {e}", self.label()))
    }

    /// Every element of `c_after` outside `C`'s view still `sentinel`.
    fn untouched_outside(&self, bufs: &GemmBuffers, c_after: &[f32], sentinel: f32) -> Result<(), String> {
        if c_after.len() != bufs.c.len() {
            return Err(format!("{}: C's buffer has {} elements, {} expected", self.label(), c_after.len(), bufs.c.len()));
        }
        let mut inside = vec![false; c_after.len()];
        for r in 0..self.m {
            for col in 0..self.n {
                inside[bufs.c_desc.offset + bufs.c_desc.index(r, col)] = true;
            }
        }
        match (0..c_after.len()).find(|&i| !inside[i] && c_after[i].to_bits() != sentinel.to_bits()) {
            Some(i) => Err(format!("{}: element {i} outside C's view changed to {}", self.label(), c_after[i])),
            None => Ok(()),
        }
    }

    /// `op(A)` and `op(B)` as dense matrices, from the buffers.
    fn operands(&self, bufs: &GemmBuffers) -> (HostMatrix, HostMatrix) {
        let op = |buf: &[f32], d: MatrixDesc, t: Transpose| {
            let stored = HostMatrix::new(d.rows, d.cols, d.gather(buf)).expect("rows·cols elements");
            match t {
                Transpose::No => stored,
                Transpose::Yes => HostMatrix::from_fn(d.cols, d.rows, |r, c| stored.get(c, r)),
            }
        };
        (op(&bufs.a, bufs.a_desc, self.trans_a), op(&bufs.b, bufs.b_desc, self.trans_b))
    }

    /// Checks `c_after` (C's whole buffer after a GEMM with an epilogue into `output`, as the values
    /// its elements hold): every element outside the view still [`SENTINEL`] in `output`'s rounding,
    /// the view `act(α·op(A)·op(B) + β·C + bias)` within [`check_epilogue`]'s rule, `C`'s old values
    /// read in `output` and the bias `bias` (per column of `C`, or per row).
    pub fn check_finished(
        &self,
        bufs: &GemmBuffers,
        c_after: &[f32],
        output: OutputFormat,
        activation: Activation,
        bias: Option<(BiasKind, &[f32])>,
    ) -> Result<(), String> {
        let round_out = |x: f32| match output {
            OutputFormat::F32 => x,
            OutputFormat::Bf16 => half::bf16::from_f32(x).to_f32(),
            OutputFormat::F16 => half::f16::from_f32(x).to_f32(),
        };
        self.untouched_outside(bufs, c_after, round_out(SENTINEL))?;
        let (op_a, op_b) = self.operands(bufs);
        let round = |x: &HostMatrix| HostMatrix {
            rows: x.rows,
            cols: x.cols,
            data: x.data.iter().map(|&v| self.precision.round_input(v)).collect(),
        };
        let (m, n, k) = (self.m, self.n, self.k);
        let product = (self.alpha != 0.0).then(|| reference::matmul_reference(&round(&op_a), &round(&op_b)));
        let (alpha, beta) = (f64::from(self.alpha), f64::from(self.beta));
        let mut reference = ReferenceProduct { rows: m, cols: n, k, value: vec![0.0; m * n], abs_sum: vec![0.0; m * n] };
        for idx in 0..m * n {
            let (ab, abs) = product.as_ref().map_or((0.0, 0.0), |p| (p.value[idx], p.abs_sum[idx]));
            let bc = if self.beta == 0.0 { 0.0 } else { beta * f64::from(round_out(bufs.c0.data[idx])) };
            reference.value[idx] = alpha * ab + bc;
            reference.abs_sum[idx] = alpha.abs() * abs + bc.abs();
        }
        let bias_at = |r: usize, c: usize| match bias {
            Some((BiasKind::PerColumn, v)) => f64::from(v[c]),
            Some((BiasKind::PerRow, v)) => f64::from(v[r]),
            None => 0.0,
        };
        let got = bufs.c_desc.gather(c_after);
        check_epilogue(self.precision, output, activation, bias_at, &got, &reference).map_err(|e| format!("{}: {e}", self.label()))
    }

    /// Every transpose × (row-major, column-major, and two mixed layouts) × the `(α, β)` pairs, for one
    /// shape and precision: the cross product the parity suites run.
    pub fn matrix(m: usize, n: usize, k: usize, precision: Precision, scalars: &[(f32, f32)], views: Views) -> Vec<GemmCase> {
        use Layout::{ColMajor as C, RowMajor as R};
        let mut out = Vec::new();
        for trans_a in [Transpose::No, Transpose::Yes] {
            for trans_b in [Transpose::No, Transpose::Yes] {
                for layouts in [[R, R, R], [C, C, C], [R, C, C], [C, R, R]] {
                    for &(alpha, beta) in scalars {
                        out.push(GemmCase { m, n, k, alpha, beta, trans_a, trans_b, precision, layouts, views });
                    }
                }
            }
        }
        out
    }
}

/// The `(α, β)` pairs of the parity suites: the plain product, both scalars general, `α = 0` (A and B
/// all NaN: not read), `β = 0` with `α ≠ 1` (C all NaN: not read).
pub const SCALARS: [(f32, f32); 4] = [(1.0, 0.0), (-1.5, 0.75), (0.0, -2.0), (2.5, 0.0)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_itself_passes_and_a_wrong_result_fails() {
        let case = GemmCase {
            alpha: 2.0,
            beta: 0.5,
            trans_b: Transpose::Yes,
            views: Views::Padded,
            layouts: [Layout::ColMajor; 3],
            ..GemmCase::new(5, 6, 7)
        };
        let bufs = case.buffers(3);
        // Compute the GEMM on the host in f64 and store it: it passes.
        let mut c = bufs.c.clone();
        let (d, bd) = (bufs.a_desc, bufs.b_desc);
        let mut out = vec![0f32; 30];
        for i in 0..5 {
            for j in 0..6 {
                let s: f64 =
                    (0..7).map(|p| f64::from(bufs.a[d.offset + d.index(i, p)]) * f64::from(bufs.b[bd.offset + bd.index(j, p)])).sum();
                out[i * 6 + j] = (2.0 * s + 0.5 * f64::from(bufs.c0.get(i, j))) as f32;
            }
        }
        bufs.c_desc.scatter(&out, &mut c);
        case.check(&bufs, &c).unwrap();
        // One element outside the view written: caught.
        let mut outside = c.clone();
        outside[0] = 0.0;
        assert!(case.check(&bufs, &outside).unwrap_err().contains("outside C's view"));
        // The old C left in place: caught.
        assert!(case.check(&bufs, &bufs.c).is_err());
        assert_eq!(case.label(), "gemm_fp32_NT_ccc_5x6x7_a2_b0.5_padded");
        assert_eq!(GemmCase::matrix(3, 4, 5, Precision::Bf16, &SCALARS, Views::Dense).len(), 64);
    }
}
