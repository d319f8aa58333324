/// Declares a kernel entry point.
///
/// On the GPU target the function becomes `#[no_mangle] extern "ptx-kernel"`, i.e. a `.entry` in the
/// PTX module whose name is the function's name. The body is written once, in ordinary Rust, using the
/// [`crate::device`] vocabulary.
macro_rules! kernel {
    (
        $(#[$meta:meta])*
        pub unsafe fn $name:ident ( $($arg:ident : $ty:ty),* $(,)? ) $body:block
    ) => {
        $(#[$meta])*
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name($($arg: $ty),*) $body
    };
}
