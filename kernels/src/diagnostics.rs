//! Kernels that exist to exercise the host library's fault handling, not to compute anything.

kernel! {
    /// Faults on purpose: every thread panics, which on the GPU traps (`trap;`), failing the launch
    /// with `CUDA_ERROR_LAUNCH_FAILED` and leaving the CUDA context unusable — exactly what a kernel bug
    /// (an out-of-bounds slice index, say) does. The host library's tests use it to show that such a
    /// fault comes back as an error naming the kernel, not as a hang or a wrong result.
    ///
    /// **Parameters**: none. **Thread mapping**: any.
    ///
    /// # Safety
    /// Always faults, leaving the CUDA context unusable; it touches no memory.
    pub unsafe fn diagnostic_trap() {
        panic!("diagnostic_trap: deliberate fault");
    }
}
