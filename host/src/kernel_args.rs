//! The arguments of a launch of your own kernels ([`crate::UserKernel::launch`]): what each Rust
//! value passes, checked against the PTX entry's parameters before anything is launched.
use cudarc::driver::{sys, DeviceRepr, LaunchArgs, PushKernelArg};

use crate::buffer::DeviceBuffer;
use crate::matrix::DeviceMatrix;

/// One parameter of a PTX `.entry`, as its declaration says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `.param .u64 .ptr`: a pointer (a kernel's `*const T` / `*mut T`).
    Pointer,
    /// `.param .uN` / `.sN` / `.bN`: an integer (or raw bits) of this many bytes.
    Int(u32),
    /// `.param .fN`: a float of this many bytes.
    Float(u32),
    /// `.param .align A .b8 name[N]`: a value of N bytes passed by value (a struct).
    Bytes(u32),
}

impl ParamKind {
    /// Reads one `.param` declaration line (`.param .u64 .ptr .align 1 k_param_0,`).
    pub(crate) fn parse(decl: &str) -> Option<Self> {
        let words: Vec<&str> = decl.trim().trim_end_matches(',').split_whitespace().collect();
        if words.first() != Some(&".param") {
            return None;
        }
        if words.contains(&".ptr") {
            return Some(ParamKind::Pointer);
        }
        let last = words.last()?;
        if let (Some(open), true) = (last.find('['), last.ends_with(']')) {
            return last[open + 1..last.len() - 1].parse().ok().map(ParamKind::Bytes);
        }
        let ty = words.iter().find(|w| w.len() > 2 && w.starts_with('.') && w[2..].chars().all(|c| c.is_ascii_digit()))?;
        let bytes = ty[2..].parse::<u32>().ok()? / 8;
        match &ty[1..2] {
            "u" | "s" | "b" => Some(ParamKind::Int(bytes)),
            "f" => Some(ParamKind::Float(bytes)),
            _ => None,
        }
    }
}

impl std::fmt::Display for ParamKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamKind::Pointer => write!(f, "a pointer"),
            ParamKind::Int(b) => write!(f, "a {}-bit integer", 8 * b),
            ParamKind::Float(b) => write!(f, "a {}-bit float", 8 * b),
            ParamKind::Bytes(b) => write!(f, "{b} bytes by value"),
        }
    }
}

/// A value a kernel launch passes: a device buffer or matrix (a pointer), or a scalar.
///
/// Implemented for `&DeviceBuffer<T>`, `&mut DeviceBuffer<T>`, `&DeviceMatrix<T>`,
/// `&mut DeviceMatrix<T>` (the kernel may write only through the `&mut` ones: cudarc orders other
/// streams' work on them accordingly) and the scalars `u8`…`u64`, `i8`…`i64`, `usize`, `isize`,
/// `f32`, `f64`.
pub trait KernelArg {
    /// The parameter this value fills.
    fn kind(&self) -> ParamKind;
    /// The CUDA context of the memory it points to (buffers only).
    fn context(&self) -> Option<sys::CUcontext> {
        None
    }
    /// Adds it to a launch.
    fn push<'b>(&'b mut self, launch: &mut LaunchArgs<'b>);
}

macro_rules! scalar_arg {
    ($kind:ident: $($t:ty),*) => {$(
        impl KernelArg for $t {
            fn kind(&self) -> ParamKind {
                ParamKind::$kind(std::mem::size_of::<$t>() as u32)
            }
            fn push<'b>(&'b mut self, launch: &mut LaunchArgs<'b>) {
                launch.arg(&*self);
            }
        }
    )*};
}
scalar_arg!(Int: u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);
scalar_arg!(Float: f32, f64);

impl<T: DeviceRepr> KernelArg for &DeviceBuffer<T> {
    fn kind(&self) -> ParamKind {
        ParamKind::Pointer
    }
    fn context(&self) -> Option<sys::CUcontext> {
        Some(self.slice.context().cu_ctx())
    }
    fn push<'b>(&'b mut self, launch: &mut LaunchArgs<'b>) {
        launch.arg(&self.slice);
    }
}

impl<T: DeviceRepr> KernelArg for &mut DeviceBuffer<T> {
    fn kind(&self) -> ParamKind {
        ParamKind::Pointer
    }
    fn context(&self) -> Option<sys::CUcontext> {
        Some(self.slice.context().cu_ctx())
    }
    fn push<'b>(&'b mut self, launch: &mut LaunchArgs<'b>) {
        launch.arg(&mut self.slice);
    }
}

impl<T: DeviceRepr> KernelArg for &DeviceMatrix<T> {
    fn kind(&self) -> ParamKind {
        ParamKind::Pointer
    }
    fn context(&self) -> Option<sys::CUcontext> {
        Some(self.buffer().slice.context().cu_ctx())
    }
    fn push<'b>(&'b mut self, launch: &mut LaunchArgs<'b>) {
        launch.arg(&self.buffer().slice);
    }
}

impl<T: DeviceRepr> KernelArg for &mut DeviceMatrix<T> {
    fn kind(&self) -> ParamKind {
        ParamKind::Pointer
    }
    fn context(&self) -> Option<sys::CUcontext> {
        Some(self.buffer().slice.context().cu_ctx())
    }
    fn push<'b>(&'b mut self, launch: &mut LaunchArgs<'b>) {
        launch.arg(&mut self.buffer_mut().slice);
    }
}

/// A launch's whole argument list: a tuple of [`KernelArg`]s, `()` for a kernel without
/// parameters, up to twelve.
pub trait KernelArgs {
    /// Each argument's parameter kind, in order.
    fn kinds(&self) -> Vec<ParamKind>;
    /// Each argument's context (`None` for scalars), in order.
    fn contexts(&self) -> Vec<Option<sys::CUcontext>>;
    /// Adds every argument to a launch, in order.
    fn push_all<'b>(&'b mut self, launch: &mut LaunchArgs<'b>);
}

macro_rules! tuple_args {
    ($($name:ident),*) => {
        impl<$($name: KernelArg),*> KernelArgs for ($($name,)*) {
            fn kinds(&self) -> Vec<ParamKind> {
                #[allow(non_snake_case)]
                let ($($name,)*) = self;
                vec![$($name.kind()),*]
            }
            fn contexts(&self) -> Vec<Option<sys::CUcontext>> {
                #[allow(non_snake_case)]
                let ($($name,)*) = self;
                vec![$($name.context()),*]
            }
            #[allow(unused_variables)]
            fn push_all<'b>(&'b mut self, launch: &mut LaunchArgs<'b>) {
                #[allow(non_snake_case)]
                let ($($name,)*) = self;
                $($name.push(launch);)*
            }
        }
    };
}
tuple_args!();
tuple_args!(A);
tuple_args!(A, B);
tuple_args!(A, B, C);
tuple_args!(A, B, C, D);
tuple_args!(A, B, C, D, E);
tuple_args!(A, B, C, D, E, F);
tuple_args!(A, B, C, D, E, F, G);
tuple_args!(A, B, C, D, E, F, G, H);
tuple_args!(A, B, C, D, E, F, G, H, I);
tuple_args!(A, B, C, D, E, F, G, H, I, J);
tuple_args!(A, B, C, D, E, F, G, H, I, J, K);
tuple_args!(A, B, C, D, E, F, G, H, I, J, K, L);

/// Why `args` cannot fill `params`, if they cannot: the count, then each argument's kind.
pub(crate) fn mismatch(params: &[ParamKind], args: &[ParamKind]) -> Option<String> {
    if params.len() != args.len() {
        return Some(format!("it takes {} parameters, {} arguments were given", params.len(), args.len()));
    }
    params.iter().zip(args).enumerate().find(|(_, (p, a))| p != a).map(|(i, (p, a))| format!("parameter {i} is {p}, the argument is {a}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_read_from_their_declarations() {
        assert_eq!(ParamKind::parse("\t.param .u64 .ptr .align 1 k_param_0,"), Some(ParamKind::Pointer));
        assert_eq!(ParamKind::parse("\t.param .u32 k_param_1,"), Some(ParamKind::Int(4)));
        assert_eq!(ParamKind::parse("\t.param .u64 k_param_2"), Some(ParamKind::Int(8)));
        assert_eq!(ParamKind::parse("\t.param .f32 k_param_3,"), Some(ParamKind::Float(4)));
        assert_eq!(ParamKind::parse("\t.param .b16 k_param_4,"), Some(ParamKind::Int(2)));
        assert_eq!(ParamKind::parse("\t.param .align 8 .b8 k_param_5[24]"), Some(ParamKind::Bytes(24)));
        assert_eq!(ParamKind::parse(")"), None);
    }

    #[test]
    fn scalars_and_counts_must_match() {
        let params = [ParamKind::Pointer, ParamKind::Int(4), ParamKind::Float(4)];
        assert_eq!(
            mismatch(&params, &(1u32, 2u32, 3.0f32).kinds()),
            Some("parameter 0 is a pointer, the argument is a 32-bit integer".into())
        );
        assert_eq!(mismatch(&params[1..], &(7u32, 2.0f32).kinds()), None);
        assert_eq!(
            mismatch(&params[1..], &(7u64, 2.0f32).kinds()),
            Some("parameter 0 is a 32-bit integer, the argument is a 64-bit integer".into())
        );
        assert_eq!(mismatch(&params, &(1u32,).kinds()), Some("it takes 3 parameters, 1 arguments were given".into()));
        assert_eq!(mismatch(&[], &().kinds()), None);
    }
}
