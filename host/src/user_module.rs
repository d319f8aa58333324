//! Your own kernels on tessera's host: a PTX module (built by `tessera-builder` from a kernel crate
//! on `tessera-device`, or any PTX), loaded into a [`Gpu`]'s context, its entries launched with
//! typed arguments checked against their PTX declarations.
//!
//! ```no_run
//! use tessera::{DeviceBuffer, Gpu, LaunchDims};
//! # fn main() -> Result<(), tessera::Error> {
//! # const PTX: &str = "";
//! let gpu = Gpu::new(0)?;
//! let module = gpu.load_module(PTX)?; // e.g. include_str!(concat!(env!("OUT_DIR"), "/my_kernels.ptx"))
//! let scale = module.kernel("scale")?; // Err(Error::UnknownKernel) names the module's entries
//! let x = DeviceBuffer::from_host(&gpu, &[1.0f32; 1000])?;
//! let mut y = DeviceBuffer::<f32>::zeros(&gpu, 1000)?;
//! // SAFETY: `scale(x, y, n)` reads x[..n] and writes y[..n], both 1000 floats long.
//! unsafe { scale.launch(&gpu, LaunchDims::linear(4, 256, 0), (&x, &mut y, 1000u32))? };
//! # Ok(()) }
//! ```
use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::driver::{sys, CudaFunction, CudaModule, LaunchConfig};
use cudarc::nvrtc::Ptx;
use tessera_catalogue::LaunchDims;

use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::kernel_args::{mismatch, KernelArgs, ParamKind};

/// One `.entry` of a PTX module: its name, parameters and launch bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntrySignature {
    /// The kernel's name.
    pub name: String,
    /// Its parameters, in order.
    pub params: Vec<ParamKind>,
    /// `.maxntid`: the most threads per block it may be launched with, if it declares a bound.
    pub max_threads: Option<u32>,
}

/// Every `.entry` of a PTX text, in order.
pub fn entry_signatures(ptx: &str) -> Vec<EntrySignature> {
    let mut out = Vec::new();
    let mut lines = ptx.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix(".visible .entry ") else { continue };
        let name = rest.split('(').next().unwrap_or("").trim().to_string();
        let mut params = Vec::new();
        if !rest.contains(')') {
            for decl in lines.by_ref() {
                if decl.trim_start().starts_with(')') {
                    break;
                }
                params.extend(ParamKind::parse(decl));
            }
        }
        let mut max_threads = None;
        while let Some(next) = lines.peek() {
            if next.starts_with('{') || next.starts_with(".visible") {
                break;
            }
            if let Some(n) = next.trim().strip_prefix(".maxntid ") {
                max_threads = n.split(',').map(|d| d.trim().parse::<u32>().unwrap_or(1)).reduce(|a, b| a * b);
            }
            lines.next();
        }
        out.push(EntrySignature { name, params, max_threads });
    }
    out
}

/// A PTX module of your own kernels, loaded into one [`Gpu`]'s context.
pub struct UserModule {
    module: Arc<CudaModule>,
    entries: Vec<EntrySignature>,
    context: sys::CUcontext,
    max_shared: i32,
}

/// One kernel of a [`UserModule`], ready to launch.
pub struct UserKernel {
    /// The name, kept for the life of the process: a later fault names it.
    name: &'static str,
    function: CudaFunction,
    signature: EntrySignature,
    context: sys::CUcontext,
    max_shared: u32,
}

impl Gpu {
    /// Loads a PTX module (the text of a `.ptx` file) into this GPU's context.
    ///
    /// Errors: [`Error::InvalidArgument`] for text with no `.entry`, [`Error::Driver`] when the
    /// driver refuses the module (e.g. PTX for a newer architecture than this GPU's).
    pub fn load_module(&self, ptx: &str) -> Result<UserModule> {
        self.check_usable()?;
        let entries = entry_signatures(ptx);
        if entries.is_empty() {
            return Err(Error::InvalidArgument { op: "Gpu::load_module", detail: "the PTX text defines no `.entry`".into() });
        }
        let module = self.context().load_module(Ptx::from_src(ptx)).map_err(Error::driver("loading a PTX module", 0))?;
        let max_shared = self
            .context()
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .map_err(Error::driver("reading the shared-memory limit", 0))?;
        Ok(UserModule { module, entries, context: self.context().cu_ctx(), max_shared })
    }
}

impl UserModule {
    /// The module's entries, in order.
    pub fn entries(&self) -> &[EntrySignature] {
        &self.entries
    }

    /// Kernel `name`, with the device's whole shared memory opened to it.
    ///
    /// Errors: [`Error::UnknownKernel`] (listing the module's entries) when it has no such entry.
    pub fn kernel(&self, name: &str) -> Result<UserKernel> {
        let signature = self.entries.iter().find(|e| e.name == name).cloned().ok_or_else(|| Error::UnknownKernel {
            name: name.to_string(),
            available: self.entries.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", "),
        })?;
        let function = self.module.load_function(name).map_err(Error::driver("resolving a kernel", 0))?;
        function
            .set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, self.max_shared)
            .map_err(Error::driver("raising a kernel's shared-memory limit", 0))?;
        Ok(UserKernel { name: intern(name), function, signature, context: self.context, max_shared: self.max_shared.max(0) as u32 })
    }
}

impl UserKernel {
    /// The kernel's name.
    pub fn name(&self) -> &str {
        self.name
    }

    /// Its parameters and launch bound, as the PTX declares them.
    pub fn signature(&self) -> &EntrySignature {
        &self.signature
    }

    /// Queues one launch on `gpu`'s stream with `dims` and `args` (a tuple of [`KernelArg`](crate::KernelArg)s).
    ///
    /// Checked before anything is launched: that every buffer and the module belong to `gpu`'s
    /// context ([`Error::WrongContext`]), the geometry against CUDA's limits, the entry's
    /// `.maxntid` and the device's shared memory ([`Error::InvalidLaunch`]), and the argument count
    /// and each argument's kind against the PTX parameters ([`Error::KernelArguments`]). A fault in the
    /// kernel surfaces at the next synchronisation as [`Error::KernelFault`] naming it.
    ///
    /// # Safety
    /// The kernel's own contract: what it reads and writes through its pointers must lie inside the
    /// buffers passed, for the sizes and geometry given — tessera checks types and counts, not
    /// what the kernel does with them.
    pub unsafe fn launch<A: KernelArgs>(&self, gpu: &Gpu, dims: LaunchDims, mut args: A) -> Result<()> {
        let op = "UserKernel::launch";
        gpu.check_usable()?;
        if self.context != gpu.context().cu_ctx() || args.contexts().iter().flatten().any(|&c| c != self.context) {
            return Err(Error::WrongContext { op });
        }
        self.check_dims(dims)?;
        if let Some(detail) = mismatch(&self.signature.params, &args.kinds()) {
            return Err(Error::KernelArguments { kernel: self.name.to_string(), detail });
        }
        let config = LaunchConfig { grid_dim: dims.grid, block_dim: dims.block, shared_mem_bytes: dims.shared_bytes };
        gpu.note_launch(self.name);
        let mut launch = gpu.stream().launch_builder(&self.function);
        args.push_all(&mut launch);
        // SAFETY: arguments match the entry's parameters in count and kind and live in its context
        // (checked above); the memory the kernel touches is the caller's contract.
        gpu.launched(unsafe { launch.launch(config) })
    }

    /// CUDA's launch limits, the entry's bound and the device's shared memory, as typed errors.
    fn check_dims(&self, d: LaunchDims) -> Result<()> {
        let bad = |detail: String| Err(Error::InvalidLaunch { kernel: self.name.to_string(), detail });
        let ((gx, gy, gz), (bx, by, bz)) = (d.grid, d.block);
        if d.blocks() == 0 || d.threads_per_block() == 0 {
            return bad(format!("grid {:?} and block {:?} must be ≥ 1 in every dimension", d.grid, d.block));
        }
        if d.threads_per_block() > 1024 || bx > 1024 || by > 1024 || bz > 64 {
            return bad(format!("block {:?} exceeds CUDA's limits (1024 threads; 1024 × 1024 × 64)", d.block));
        }
        if gx > i32::MAX as u32 || gy > 65_535 || gz > 65_535 {
            return bad(format!("grid {:?} exceeds CUDA's limits (2³¹−1 × 65535 × 65535)", d.grid));
        }
        if let Some(max) = self.signature.max_threads.filter(|&m| d.threads_per_block() > m as u64) {
            return bad(format!("{} threads per block, the entry's launch bound (.maxntid) is {max}", d.threads_per_block()));
        }
        if d.shared_bytes > self.max_shared {
            return bad(format!("{} bytes of shared memory, the device allows {} per block", d.shared_bytes, self.max_shared));
        }
        Ok(())
    }
}

/// `name` as a `&'static str`, leaked once per distinct name for the process's life (faults name
/// the kernel after the handle is gone; a process loads a bounded set of kernel names).
fn intern(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&known) = names.get(name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_come_from_the_entry_declarations() {
        let ptx = ".version 8.1\n.target sm_90\n\n\t// .globl\tk\n.visible .entry k(\n\t.param .u64 .ptr .align 1 k_param_0,\n\t.param .u32 k_param_1\n)\n.maxntid 256, 1, 1\n.minnctapersm 1\n{\n\tret;\n}\n.visible .entry t()       // @t\n{\n\ttrap;\n}\n";
        let sigs = entry_signatures(ptx);
        assert_eq!(sigs.len(), 2);
        assert_eq!(
            sigs[0],
            EntrySignature { name: "k".into(), params: vec![ParamKind::Pointer, ParamKind::Int(4)], max_threads: Some(256) }
        );
        assert_eq!(sigs[1], EntrySignature { name: "t".into(), params: vec![], max_threads: None });
    }

    #[test]
    fn the_shipped_modules_parse_whole() {
        for ptx in [crate::module::PTX, crate::module::PTX_SM90A] {
            let sigs = entry_signatures(ptx);
            assert_eq!(sigs.len(), ptx.matches(".visible .entry ").count());
            // The entries' own parameter lines: from `.entry` to the `)` that closes its list (call
            // sites and `.func` declarations declare `.param`s of their own).
            let mut in_entry = false;
            let declared = ptx
                .lines()
                .filter(|l| {
                    let l = l.trim_start();
                    if l.starts_with(".visible .entry ") || l.starts_with(".entry ") {
                        in_entry = true;
                    } else if l.starts_with(')') {
                        in_entry = false;
                    }
                    in_entry && l.starts_with(".param ")
                })
                .count();
            assert_eq!(sigs.iter().map(|s| s.params.len()).sum::<usize>(), declared, "every .param line is read");
        }
        let vec_add = entry_signatures(crate::module::PTX).into_iter().find(|s| s.name == "vec_add").expect("vec_add is shipped");
        assert_eq!(vec_add.params, [ParamKind::Pointer, ParamKind::Pointer, ParamKind::Pointer, ParamKind::Int(8)]);
    }

    #[test]
    fn names_are_interned_once() {
        assert!(std::ptr::eq(intern("my_kernel"), intern(&String::from("my_kernel"))));
    }
}
