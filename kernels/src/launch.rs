//! Launch geometry, stated by each kernel from its own constants.
//!
//! The host never restates a kernel's threads or shared-memory size (CUTLASS derives them from the
//! kernel type the same way): each matmul kernel file exports a [`TileConfig`] built from the constants
//! and `const fn`s its body uses, and the catalogue (crate `tessera-catalogue`) reads it. Element-wise
//! kernels export their block size as a `BLOCK` constant.

/// A matmul kernel's launch: each block computes a `bm × bn` tile of `C`, staging `bk` columns of `A`
/// per K-step, with `block` threads and `shared_bytes` of dynamic shared memory. The grid is
/// `⌈N/bn⌉ × ⌈M/bm⌉ × slices`, `slices = 1` unless [`TileConfig::split_k`]; persistent and stream-K
/// kernels size theirs to the GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileConfig {
    pub bm: u32,
    pub bn: u32,
    pub bk: u32,
    /// Block dimensions `(x, y)`.
    pub block: (u32, u32),
    /// Dynamic shared memory per block, in bytes.
    pub shared_bytes: u32,
    /// Launch bound (`.minnctapersm`): blocks of this kernel ptxas must fit on one SM, which caps its
    /// registers at `65536 / (threads · min_blocks_per_sm)`; 0 for none.
    pub min_blocks_per_sm: u32,
    /// Blocks along `gridDim.z` each take a slice of K and add their partial tile into `C`, which the
    /// host zeroes first.
    pub split_k: bool,
    /// The kernel uses sm_90a-only instructions (`wgmma`): it lives in the second PTX module, which
    /// loads only on compute capability 9.0.
    pub sm90a: bool,
    /// The kernel takes TF32 operands prepared by the host: `B` as `Bᵀ` (`N × K`) rounded, and `A`
    /// rounded unless `rounds_a` (see `tessera_kernels::tf32_operands`).
    pub tf32_operands: bool,
    /// With `tf32_operands`: the kernel rounds `A` itself (kernels 15–16, on its way into registers),
    /// so the host prepares only `Bᵀ` and passes `A` as the caller holds it (a rounded, padded copy
    /// where its rows are not whole 16-byte units).
    pub rounds_a: bool,
    /// The kernel takes FP8 operands (kernel 25): `A` as the caller holds it, `B` transposed by the
    /// host into `Bᵀ` (`N × K`: FP8 `wgmma` reads both operands K-major), and two more arguments,
    /// the per-tensor scales of A and B (device `f32` scalars, or null for 1).
    pub fp8_operands: bool,
    /// With `fp8_operands`: the kernel accumulates the whole K range in the tensor core's
    /// reduced-precision FP8 path instead of promoting its sums into `f32` every K-step (kernel 25's
    /// `*_fast` entries): faster, less accurate, so `Auto` never picks it.
    pub unpromoted: bool,
    /// With `fp8_operands`: the scale arguments are block scales (one per row of A and 128 of K, one
    /// per 128 × 128 block of `Bᵀ`: kernel 25's `*_blocks` entries) rather than one per tensor.
    pub fp8_block_scales: bool,
    /// The kernel finishes each sum in its own store — `α`, a bias, an activation
    /// (`crate::activation`), `C` in `f32`, BF16 or FP16 — and takes those as arguments after the TMA
    /// entry's (kernel 27; kernel 25's promoted entries after their scales).
    pub fused_epilogue: bool,
    /// The kernel reads A and B through TMA tensor maps (kernel 15): its first two arguments are the
    /// maps' addresses, which the host builds (boxes from the kernel's `a_box` / `b_box`).
    pub tma: bool,
    /// The grid is one block per SM (at most one per tile), each block walking output tiles
    /// (kernel 16), rather than one block per tile.
    pub persistent: bool,
    /// The grid is the blocks that fit on the GPU at once (at most one per K-step), which share the
    /// K-steps of all tiles evenly and add partial tiles into `C`, which the host zeroes first
    /// (kernel 17, stream-K).
    pub stream_k: bool,
    /// With `split_k`: launched with one slice (`gridDim.z = 1`), the kernel stores its tile instead of
    /// adding it, so `C` needs no zeroing (kernel 18).
    pub stores_unsplit: bool,
    /// The kernel reads its operands in place with `cp.async`, copying rows that are not 16-byte
    /// aligned in 8- or 4-byte pieces (`mma_tile`'s narrow copies: kernels 12, 13 and 20) rather than
    /// element by element.
    pub narrow_copies: bool,
    /// Kernel 16's pipeline with the producer warpgroup copying A and B itself (`cp.async`, kernel
    /// 23) instead of the TMA: pointers, as `tma` kernels' tiles and pricing otherwise.
    pub producer_copies: bool,
    /// Blocks per thread-block cluster along `x` (`.reqnctapercluster`, kernel 24); 1 for no
    /// cluster. The grid's `x` is a multiple of it.
    pub cluster: u32,
    /// Two consumer warpgroups take alternate `bm`-row tiles (kernel 31's ping-pong schedule: 384
    /// threads for 64-row tiles). The models do not price the schedule yet: `Auto` leaves these
    /// kernels to callers who name them (and to tuning on request).
    pub ping_pong: bool,
    /// The grid's `x` walks the row tiles and `y` the column tiles (`⌈M/bm⌉ × ⌈N/bn⌉ × slices`):
    /// tiles of a few rows (kernel 19's K-split entries, 4) whose row count would pass the `y`
    /// limit of 65,535 long before `x`'s.
    pub rows_on_x: bool,
    /// The kernel waits for the launches before it (`device::dependent_launch::wait_for_prior_grids`,
    /// or `follow_prior`) before it touches memory, and lets the launch after it start
    /// (`allow_dependents`): the host queues it as the programmatic dependent of the launch before it,
    /// whose end its setup overlaps.
    pub chained: bool,
}

impl TileConfig {
    /// A 1-D block of `threads` threads, no launch bound, no K split.
    pub const fn new(bm: u32, bn: u32, bk: u32, threads: u32, shared_bytes: u32) -> Self {
        Self {
            bm,
            bn,
            bk,
            block: (threads, 1),
            shared_bytes,
            min_blocks_per_sm: 0,
            split_k: false,
            sm90a: false,
            tf32_operands: false,
            rounds_a: false,
            fp8_operands: false,
            unpromoted: false,
            fp8_block_scales: false,
            fused_epilogue: false,
            tma: false,
            persistent: false,
            stream_k: false,
            stores_unsplit: false,
            narrow_copies: false,
            producer_copies: false,
            cluster: 1,
            ping_pong: false,
            rows_on_x: false,
            chained: false,
        }
    }

    /// The same tile with a 2-D block of `x × y` threads.
    pub const fn block_2d(self, x: u32, y: u32) -> Self {
        Self { block: (x, y), ..self }
    }

    /// The same tile with the launch bound "`blocks` blocks per SM".
    pub const fn min_blocks_per_sm(self, blocks: u32) -> Self {
        Self { min_blocks_per_sm: blocks, ..self }
    }

    /// The same tile, split along K over `gridDim.z`.
    pub const fn split_k(self) -> Self {
        Self { split_k: true, ..self }
    }

    /// [`Self::split_k`] and [`Self::stores_unsplit`] where `split` (a kernel that stores `C` when
    /// launched with one slice and adds into it with several), the same tile otherwise.
    pub const fn split_k_if(self, split: bool) -> Self {
        if split {
            Self { split_k: true, stores_unsplit: true, ..self }
        } else {
            self
        }
    }

    /// The same kernel, marked as needing sm_90a (see the `sm90a` field).
    pub const fn sm90a(self) -> Self {
        Self { sm90a: true, ..self }
    }

    /// The same kernel, marked as taking prepared TF32 operands (see the `tf32_operands` field).
    pub const fn tf32_operands(self) -> Self {
        Self { tf32_operands: true, ..self }
    }

    /// The same kernel, rounding TF32 `A` itself (see the `rounds_a` field).
    pub const fn rounds_a(self) -> Self {
        Self { rounds_a: true, ..self }
    }

    /// The same kernel, marked as taking FP8 operands (see the `fp8_operands` field).
    pub const fn fp8_operands(self) -> Self {
        Self { fp8_operands: true, ..self }
    }

    /// The same kernel, its FP8 sums left unpromoted (see the `unpromoted` field).
    pub const fn unpromoted(self) -> Self {
        Self { unpromoted: true, ..self }
    }

    /// The same kernel, taking FP8 block scales (see the `fp8_block_scales` field).
    pub const fn fp8_block_scales(self) -> Self {
        Self { fp8_block_scales: true, ..self }
    }

    /// Whether the kernel's walk may cut K into slices whose partial sums are added into a zeroed `C`
    /// (`gridDim.y` slices: kernel 16's walk, and kernel 25's on `f32` output): persistent, not
    /// stream-K, not in clusters — and not kernel 27, whose store finishes each sum and so takes whole
    /// ones.
    pub const fn slices_k(&self) -> bool {
        self.persistent && !self.stream_k && self.cluster <= 1 && !(self.fused_epilogue && !self.fp8_operands)
    }

    /// The same kernel, finishing its sums in its store (see the `fused_epilogue` field).
    pub const fn fused_epilogue(self) -> Self {
        Self { fused_epilogue: true, ..self }
    }

    /// The same tile on the ping-pong schedule ([`TileConfig::ping_pong`]).
    pub const fn ping_pong(self) -> Self {
        Self { ping_pong: true, ..self }
    }

    /// Whether the kernel reads B K-major, as `Bᵀ` (`N × K`) that the host prepares: TF32's and
    /// FP8's operands.
    pub const fn b_k_major(&self) -> bool {
        self.tf32_operands || self.fp8_operands
    }

    /// The same kernel, ordering itself after the launch before it (see the `chained` field).
    pub const fn chained(self) -> Self {
        Self { chained: true, ..self }
    }

    /// The same kernel, reading A and B through TMA tensor maps.
    pub const fn tma(self) -> Self {
        Self { tma: true, ..self }
    }

    /// The same kernel, its producer copying the operands (see the `producer_copies` field).
    pub const fn producer_copies(self) -> Self {
        Self { producer_copies: true, ..self }
    }

    /// The same kernel, launched in clusters of `blocks` blocks along `x` (see the `cluster` field).
    pub const fn clustered(self, blocks: u32) -> Self {
        Self { cluster: blocks, ..self }
    }

    /// The same kernel, launched persistent (one block per SM walking the tiles).
    pub const fn persistent(self) -> Self {
        Self { persistent: true, ..self }
    }

    /// The same tile, launched stream-K (see the `stream_k` field).
    pub const fn stream_k(self) -> Self {
        Self { stream_k: true, ..self }
    }

    /// The same split-K tile, storing `C` when launched with one slice (see `stores_unsplit`).
    pub const fn stores_unsplit(self) -> Self {
        Self { stores_unsplit: true, ..self }
    }

    /// The same tile with its row tiles along the grid's `x` (see `rows_on_x`).
    pub const fn rows_on_x(self) -> Self {
        Self { rows_on_x: true, ..self }
    }

    /// The same kernel, copying unaligned rows in narrow pieces (see `narrow_copies`).
    pub const fn narrow_copies(self) -> Self {
        Self { narrow_copies: true, ..self }
    }

    /// Threads per block.
    pub const fn threads(&self) -> u32 {
        self.block.0 * self.block.1
    }
}
