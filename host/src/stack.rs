//! Stacks of matrices over one device buffer — the operands of a strided-batched or grouped product
//! ([`crate::Gpu::matmul_batched`], [`crate::Gpu::matmul_grouped`]): `count` row-major matrices, each
//! `stride` elements after the last ([`Stack`]); stride 0 makes one matrix stand for every one of
//! them (a broadcast operand). Checked against the buffer when an operation uses them.
use tessera_catalogue::plan::grouped::Stack;

use crate::buffer::DeviceBuffer;
use crate::matrix::DeviceMatrix;

/// A read-only stack of matrices over a device buffer (A and B).
#[derive(Clone, Copy)]
pub struct MatrixStack<'a, T> {
    buf: &'a DeviceBuffer<T>,
    stack: Stack,
}

/// A writable stack of matrices over a device buffer (`C`); an operation writes only its matrices'
/// elements, never the gaps between them.
pub struct MatrixStackMut<'a, T = f32> {
    buf: &'a mut DeviceBuffer<T>,
    stack: Stack,
}

impl<'a, T> MatrixStack<'a, T> {
    /// `count` matrices of `rows × cols`, matrix `i` from element `i·stride` of `buf`.
    pub fn new(buf: &'a DeviceBuffer<T>, count: usize, rows: usize, cols: usize, stride: usize) -> Self {
        Self { buf, stack: Stack { count, rows, cols, stride } }
    }

    /// `count` matrices packed one after another (`stride = rows·cols`).
    pub fn dense(buf: &'a DeviceBuffer<T>, count: usize, rows: usize, cols: usize) -> Self {
        Self::new(buf, count, rows, cols, rows * cols)
    }

    /// One matrix standing for all `count` (stride 0).
    pub fn broadcast(matrix: &'a DeviceMatrix<T>, count: usize) -> Self {
        Self::new(matrix.buffer(), count, matrix.rows(), matrix.cols(), 0)
    }

    /// Where the matrices lie.
    pub fn stack(&self) -> Stack {
        self.stack
    }

    /// The buffer under the stack.
    pub fn buffer(&self) -> &'a DeviceBuffer<T> {
        self.buf
    }
}

impl<'a, T> MatrixStackMut<'a, T> {
    /// `count` matrices of `rows × cols`, matrix `i` from element `i·stride` of `buf`.
    pub fn new(buf: &'a mut DeviceBuffer<T>, count: usize, rows: usize, cols: usize, stride: usize) -> Self {
        Self { buf, stack: Stack { count, rows, cols, stride } }
    }

    /// `count` matrices packed one after another (`stride = rows·cols`).
    pub fn dense(buf: &'a mut DeviceBuffer<T>, count: usize, rows: usize, cols: usize) -> Self {
        Self::new(buf, count, rows, cols, rows * cols)
    }

    /// Where the matrices lie.
    pub fn stack(&self) -> Stack {
        self.stack
    }

    /// The buffer under the stack.
    pub fn buffer(&mut self) -> &mut DeviceBuffer<T> {
        self.buf
    }
}
