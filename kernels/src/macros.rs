/// Declares a kernel entry point.
///
/// On the GPU target the function becomes `#[no_mangle] extern "ptx-kernel"`, i.e. a `.entry` in the
/// PTX module whose name is the function's name. On the host it is a plain `pub unsafe fn` with the
/// same parameters, which the CPU executor (crate `tessera-emulator`) calls once per emulated thread.
/// The body is written once, in ordinary Rust, using the [`crate::device`] vocabulary.
macro_rules! kernel {
    (
        $(#[$meta:meta])*
        pub unsafe fn $name:ident ( $($arg:ident : $ty:ty),* $(,)? ) $body:block
    ) => {
        $(#[$meta])*
        #[cfg(target_arch = "nvptx64")]
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name($($arg: $ty),*) $body

        $(#[$meta])*
        #[cfg(not(target_arch = "nvptx64"))]
        pub unsafe fn $name($($arg: $ty),*) $body
    };
}

/// Declares `$twin`, the entry of the warp-tiled kernel `$name` with `BY_ROWS = true` (`$body…` its
/// body's call, without arguments): the same kernel, whose epilogue writes (or adds) `C` a row at a
/// time through shared memory where N is not a multiple of 4 (kernel 7's `write_acc_by_rows`). The
/// host launches it instead of `$name` on those shapes (the catalogue's `MatmulKernel::launched`).
/// A separate entry, not a branch in `$name`, because the longer epilogue moved ptxas's allocation
/// of the whole kernel: −1 to −16 % on aligned shapes (`docs/ladder/k07-warptile.md`).
macro_rules! by_rows_twin {
    ($name:ident, $twin:ident, $($body:tt)*) => {
        kernel! {
            #[doc = concat!("[`", stringify!($name), "`] with its epilogue by rows where N % 4 != 0 (the entry the host launches there).")]
            ///
            /// # Safety
            #[doc = concat!("As [`", stringify!($name), "`].")]
            pub unsafe fn $twin(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe { $($body)*(a, b, c, m, n, k) }
            }
        }
    };
}
