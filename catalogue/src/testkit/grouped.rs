//! Batched and grouped products as test problems ([`crate::plan::grouped`]): their operand buffers,
//! and the check of every product's output (and of everything outside the outputs, untouched).
use crate::plan::grouped::{Products, Stack};
use crate::precision::Precision;
use crate::testkit::check::{check_epilogue, check_in};
use crate::testkit::matrix::HostMatrix;
use crate::testkit::random;
use crate::testkit::reference::matmul_reference;
use crate::{Activation, BiasKind, OutputFormat};

/// What an output buffer holds before the products run: an element the products must not write
/// shows up if it changes, and one they must write cannot pass unwritten.
pub const UNTOUCHED: f32 = -12345.0;

/// The buffer under `stack`: every matrix's elements random (`seed`) and already rounded to
/// `precision` (the values its bit patterns hold), NaN in the gaps between matrices — which no
/// kernel may read.
pub fn stack_values(stack: Stack, precision: Precision, seed: u64) -> Vec<f32> {
    let span = stack.span().unwrap_or(0);
    let mut out = vec![f32::NAN; span];
    let values = random::operands(span, seed);
    for i in 0..stack.count {
        let start = i * stack.stride;
        for at in start..start + stack.rows * stack.cols {
            out[at] = precision.round_input(values[at]);
        }
    }
    out
}

/// Product `i`'s operand as a matrix: `rows × cols` from element `start` of `buffer`.
fn matrix(buffer: &[f32], start: usize, rows: usize, cols: usize) -> HostMatrix {
    HostMatrix { rows, cols, data: buffer[start..start + rows * cols].to_vec() }
}

/// Checks `c` after `products` ran in `precision` on `a` and `b`: each product's output against the
/// f64 reference ([`check_in`]), and every element outside the outputs still [`UNTOUCHED`] (the
/// buffer was filled with it before the run).
pub fn check_products(precision: Precision, products: Products<'_>, a: &[f32], b: &[f32], c: &[f32]) -> Result<(), String> {
    let mut written = vec![false; c.len()];
    let mut mark = |start: usize, len: usize| written[start..start + len].iter_mut().for_each(|w| *w = true);
    match products {
        Products::Batched { a: sa, b: sb, c: sc } => {
            for i in 0..sc.count {
                let (m, k, n) = (sa.rows, sa.cols, sb.cols);
                let got = matrix(c, i * sc.stride, m, n);
                check_in(precision, &matrix(a, i * sa.stride, m, k), &matrix(b, i * sb.stride, k, n), &got)
                    .map_err(|e| format!("matrix {i} of {}: {e}", sc.count))?;
                mark(i * sc.stride, m * n);
            }
        }
        Products::Grouped { k, b: sb, offsets, .. } => {
            let n = sb.cols;
            for (g, w) in offsets.windows(2).enumerate() {
                let rows = (w[1] - w[0]) as usize;
                let start = w[0] as usize;
                let got = matrix(c, start * n, rows, n);
                check_in(precision, &matrix(a, start * k, rows, k), &matrix(b, g * sb.stride, k, n), &got)
                    .map_err(|e| format!("group {g} (rows {} .. {}): {e}", w[0], w[1]))?;
                mark(start * n, rows * n);
            }
        }
        Products::Pointers { .. } => {
            return Err("a batch of pointers has no one buffer per operand: check each product (`check_pointer_products`)".into())
        }
    }
    match written.iter().zip(c).position(|(&w, &v)| !w && v.to_bits() != UNTOUCHED.to_bits()) {
        Some(at) => Err(format!("element {at} of C lies outside every output and was written ({})", c[at])),
        None => Ok(()),
    }
}

/// Checks a batch of pointers after it ran in `precision`: product `i`'s output `c[i]` (`m × n`)
/// against the f64 reference of `a[i]` (`m × k`) times `b[i]` (`k × n`) ([`check_in`]).
pub fn check_pointer_products(
    precision: Precision,
    (m, n, k): (usize, usize, usize),
    a: &[&[f32]],
    b: &[&[f32]],
    c: &[&[f32]],
) -> Result<(), String> {
    if a.len() != c.len() || b.len() != c.len() {
        return Err(format!("{} A, {} B and {} C matrices", a.len(), b.len(), c.len()));
    }
    let count = c.len();
    for (i, ((a, b), c)) in a.iter().zip(b).zip(c).enumerate() {
        check_in(precision, &matrix(a, 0, m, k), &matrix(b, 0, k, n), &matrix(c, 0, m, n))
            .map_err(|e| format!("matrix {i} of {count}: {e}"))?;
    }
    Ok(())
}

/// Checks `c` (as the values its elements hold) after `products` ran in `precision` with each sum
/// finished (kernel 26's finishing twins: `out`'s type, `α`, the activation, the bias per column —
/// `n` values — or per row — `m`: each matrix's rows of a batch, the grouped A's rows): every product
/// by the one epilogue rule ([`check_epilogue`]) against the f64 product of its inputs.
pub fn check_finished_products(
    precision: Precision,
    products: Products<'_>,
    (a, b): (&[f32], &[f32]),
    c: &[f32],
    (out, alpha, activation): (OutputFormat, f32, Activation),
    bias: Option<(BiasKind, &[f32])>,
) -> Result<(), String> {
    // Each product: its A, its B, where its output starts in `c`, its first row in the bias's numbering.
    let pieces: Vec<(HostMatrix, HostMatrix, usize, usize)> = match products {
        Products::Batched { a: sa, b: sb, c: sc } => (0..sc.count)
            .map(|i| (matrix(a, i * sa.stride, sa.rows, sa.cols), matrix(b, i * sb.stride, sb.rows, sb.cols), i * sc.stride, 0))
            .collect(),
        Products::Grouped { k, b: sb, offsets, .. } => offsets
            .windows(2)
            .enumerate()
            .map(|(g, w)| {
                let (r0, rows) = (w[0] as usize, (w[1] - w[0]) as usize);
                (matrix(a, r0 * k, rows, k), matrix(b, g * sb.stride, k, sb.cols), r0 * sb.cols, r0)
            })
            .collect(),
        Products::Pointers { .. } => return Err("a batch of pointers: no finishing kernel runs it".into()),
    };
    for (i, (am, bm, at, row0)) in pieces.iter().enumerate() {
        let mut reference = matmul_reference(am, bm);
        reference.value.iter_mut().for_each(|v| *v *= f64::from(alpha));
        reference.abs_sum.iter_mut().for_each(|v| *v *= f64::from(alpha.abs()));
        let bias_at = |r: usize, col: usize| match bias {
            Some((BiasKind::PerColumn, v)) => f64::from(v[col]),
            Some((BiasKind::PerRow, v)) => f64::from(v[row0 + r]),
            None => 0.0,
        };
        let mine = c.get(*at..*at + am.rows * bm.cols).ok_or_else(|| format!("product {i}: C is too short"))?;
        check_epilogue(precision, out, activation, bias_at, mine, &reference).map_err(|e| format!("product {i}: {e}"))?;
    }
    Ok(())
}
