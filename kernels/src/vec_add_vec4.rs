//! Vector addition, vectorized and grid-stride: the bandwidth rung of the ladder.

/// Threads per block the host launches.
pub const BLOCK: u32 = 256;

/// Most blocks per SM the grid-stride launch uses (a full SM of 2,048 threads on sm_90); threads loop over the rest.
pub const BLOCKS_PER_SM: u32 = 8;

kernel! {
    /// `c[i] = a[i] + b[i]` for `i < n`, four elements per 128-bit load/store, grid-stride.
    ///
    /// **What it fixes in `vec_add`**: `vec_add` issues one 32-bit load per operand per thread and
    /// launches one thread per element (65,536 blocks for 2^26 floats): 3 memory instructions per 12
    /// bytes, and block scheduling for every 1 KiB. Here each thread moves `float4`s — 3 instructions
    /// per 48 bytes — and a grid of a few blocks per SM walks the whole array (`i += gridDim·blockDim`),
    /// so each thread keeps several independent loads in flight across iterations. The traffic is the
    /// same 12 bytes per element; the aim is to approach the device-to-device copy bandwidth.
    ///
    /// **Parameters**: `a`, `b`: `n` floats; `c`: `n` floats, either disjoint from `a` and `b` or
    /// exactly one of them (in place, `c += b`: each element is read and then written by the same
    /// thread, and the loads are plain `ld.global`, not the read-only path); no partial overlap. All
    /// three must start 16-byte aligned (true for whole buffers from the CUDA allocator, and for the
    /// tile-aligned row offsets `tessera`'s blocked products pass).
    ///
    /// **Thread mapping**: thread `t` of the 1-D grid handles quads `t, t + G, t + 2G, …` below `n / 4`
    /// (G = total threads), then the `n % 4` leftover elements go to threads `0 .. n % 4`, one each.
    ///
    /// Measurements: `docs/ladder/vec-add.md`.
    ///
    /// # Safety
    /// The three pointers must be valid for `n` floats and 16-byte aligned.
    pub unsafe fn vec_add_vec4(a: *const f32, b: *const f32, c: *mut f32, n: usize) {
        use crate::device::{mem::{Float4, View}, thread};
        // SAFETY: the caller passes buffers of `n` floats.
        let (a, b, c) = unsafe { (View::from_const(a, n), View::from_const(b, n), View::new(c, n)) };
        let (first, stride) = (thread::index_1d(), thread::grid_size_1d());
        let quads = n / 4;
        let mut q = first;
        while q < quads {
            // SAFETY: q < n / 4, so 4q + 4 ≤ n; 4q is a multiple of 4 and the buffers are 16-byte
            // aligned (the caller's contract), so each access is an aligned float4 in range.
            unsafe {
                let (x, y) = (a.get4(4 * q).0, b.get4(4 * q).0);
                c.set4(4 * q, Float4([x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]]));
            }
            q += stride;
        }
        let i = quads * 4 + first;
        if i < n {
            // SAFETY: `i < n` was just checked.
            unsafe { c.set(i, a.get(i) + b.get(i)) }
        }
    }
}
