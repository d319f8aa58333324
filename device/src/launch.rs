//! A kernel's launch geometry, which a kernel crate exports beside its kernels so that the host (a
//! GPU launcher) and a CPU executor launch them alike.

/// Grid, block and bytes of dynamic shared memory of one launch: the fields of `cuLaunchKernel`.
///
/// Plain data, the same on the GPU and the host target: a kernel crate's `const fn` can compute it
/// from a problem's shape, next to the kernel whose indexing it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LaunchDims {
    /// Blocks along x, y and z (`gridDim`).
    pub grid: (u32, u32, u32),
    /// Threads per block along x, y and z (`blockDim`).
    pub block: (u32, u32, u32),
    /// Bytes of dynamic shared memory per block (what [`crate::shared`] hands out).
    pub shared_bytes: u32,
}

impl LaunchDims {
    /// A one-dimensional launch: `blocks` blocks of `threads` threads, `shared_bytes` of dynamic
    /// shared memory each.
    pub const fn linear(blocks: u32, threads: u32, shared_bytes: u32) -> Self {
        Self { grid: (blocks, 1, 1), block: (threads, 1, 1), shared_bytes }
    }

    /// Threads per block (`blockDim.x · y · z`), widened so it cannot overflow.
    pub const fn threads_per_block(&self) -> u64 {
        self.block.0 as u64 * self.block.1 as u64 * self.block.2 as u64
    }

    /// Blocks in the grid (`gridDim.x · y · z`), widened so it cannot overflow.
    pub const fn blocks(&self) -> u64 {
        self.grid.0 as u64 * self.grid.1 as u64 * self.grid.2 as u64
    }
}

#[cfg(test)]
mod tests {
    use super::LaunchDims;

    #[test]
    fn counts_multiply_the_dimensions_without_overflow() {
        let d = LaunchDims { grid: (u32::MAX, 65_535, 65_535), block: (1024, 1, 1), shared_bytes: 0 };
        assert_eq!(d.blocks(), u32::MAX as u64 * 65_535 * 65_535);
        assert_eq!(d.threads_per_block(), 1024);
        assert_eq!(LaunchDims::linear(3, 256, 8), LaunchDims { grid: (3, 1, 1), block: (256, 1, 1), shared_bytes: 8 });
    }
}
