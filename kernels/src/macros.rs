/// [`tessera_device::kernel!`], in scope for every module of this crate (as `#[macro_use]` gives the
/// crate's own macros): every entry point is declared as any kernel crate declares one.
macro_rules! kernel {
    ($($item:tt)*) => {
        ::tessera_device::kernel! { $($item)* }
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
