//! The arguments a kernel that finishes its sums takes beyond a TMA entry's common ones (kernels 25
//! and 27), as the launches pass them.

/// What a kernel that finishes its sums takes beyond the common TMA arguments: FP8 scales' device
/// pointers (kernel 25; 0: none), `α` (kernel 27), the bias's device pointer (0: none) and the
/// epilogue's code word (`tessera_kernels::activation`).
#[derive(Clone, Copy)]
pub(crate) struct FinishArgs {
    pub(crate) scales: (u64, u64),
    pub(crate) alpha: f32,
    pub(crate) bias: u64,
    pub(crate) epilogue: u32,
}

impl Default for FinishArgs {
    /// Unit scales, `α = 1`, no bias, no activation.
    fn default() -> Self {
        FinishArgs { scales: (0, 0), alpha: 1.0, bias: 0, epilogue: 0 }
    }
}
