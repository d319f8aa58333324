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
