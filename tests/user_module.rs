//! The launcher for users' own kernels (`Gpu::load_module`, `UserKernel::launch`) on the GPU: a module
//! loaded from PTX text (here tessera's own shipped module, as any PTX), a launch with typed
//! arguments, and every check that must refuse a launch before it reaches the driver — leaving the
//! `Gpu` usable. The user's side (a kernel crate built by tessera-builder) is `examples/own-kernel`.
use tessera::{DeviceBuffer, Error, Gpu, LaunchDims};
use tessera_tests::{gpu_trial, run};

fn vec_add_module(gpu: &Gpu) -> Result<tessera::UserKernel, String> {
    let module = gpu.load_module(tessera::module::PTX).map_err(|e| e.to_string())?;
    module.kernel("vec_add").map_err(|e| e.to_string())
}

fn main() {
    let trials = vec![
        gpu_trial("user_module::launch_computes_with_typed_arguments", |gpu| {
            let add = vec_add_module(gpu)?;
            let n = 1000usize;
            let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32).collect();
            let da = DeviceBuffer::from_host(gpu, &a).map_err(|e| e.to_string())?;
            let db = DeviceBuffer::from_host(gpu, &b).map_err(|e| e.to_string())?;
            let mut dc = DeviceBuffer::<f32>::zeros(gpu, n).map_err(|e| e.to_string())?;
            // SAFETY: vec_add(a, b, c, n) touches elements 0..n of three buffers of n floats.
            unsafe { add.launch(gpu, LaunchDims::linear(n.div_ceil(256) as u32, 256, 0), (&da, &db, &mut dc, n)) }
                .map_err(|e| e.to_string())?;
            let c = dc.to_host(gpu).map_err(|e| e.to_string())?;
            match (0..n).find(|&i| c[i] != a[i] + b[i]) {
                None => Ok(()),
                Some(i) => Err(format!("c[{i}] = {}, expected {}", c[i], a[i] + b[i])),
            }
        }),
        gpu_trial("user_module::bad_launches_are_refused_before_the_driver", |gpu| {
            let add = vec_add_module(gpu)?;
            let da = DeviceBuffer::from_host(gpu, &[1.0f32; 64]).map_err(|e| e.to_string())?;
            let mut dc = DeviceBuffer::<f32>::zeros(gpu, 64).map_err(|e| e.to_string())?;
            let dims = LaunchDims::linear(1, 64, 0);
            let mut seen = Vec::new();
            // SAFETY (every launch below): each is refused before the driver sees it (the test
            // asserts so); none reaches the kernel.
            let short = unsafe { add.launch(gpu, dims, (&da, &da, &mut dc)) };
            seen.push(matches!(short, Err(Error::KernelArguments { ref detail, .. }) if detail.contains("4 parameters, 3")));
            let narrow = unsafe { add.launch(gpu, dims, (&da, &da, &mut dc, 64u32)) };
            seen.push(
                matches!(narrow, Err(Error::KernelArguments { ref detail, .. }) if detail.contains("parameter 3 is a 64-bit integer")),
            );
            let scalar_for_pointer = unsafe { add.launch(gpu, dims, (0u64, &da, &mut dc, 64usize)) };
            seen.push(matches!(scalar_for_pointer, Err(Error::KernelArguments { .. })));
            let wide = unsafe { add.launch(gpu, LaunchDims::linear(1, 2048, 0), (&da, &da, &mut dc, 64usize)) };
            seen.push(matches!(wide, Err(Error::InvalidLaunch { .. })));
            let empty = unsafe { add.launch(gpu, LaunchDims::linear(0, 64, 0), (&da, &da, &mut dc, 64usize)) };
            seen.push(matches!(empty, Err(Error::InvalidLaunch { .. })));
            let shared = unsafe { add.launch(gpu, LaunchDims::linear(1, 64, 1 << 30), (&da, &da, &mut dc, 64usize)) };
            seen.push(matches!(shared, Err(Error::InvalidLaunch { ref detail, .. }) if detail.contains("shared memory")));
            // An entry with a launch bound: more threads than its .maxntid.
            let module = gpu.load_module(tessera::module::PTX).map_err(|e| e.to_string())?;
            let bounded = module.entries().iter().find(|e| e.max_threads.is_some_and(|m| m < 1024)).ok_or("no bounded entry")?.clone();
            let k = module.kernel(&bounded.name).map_err(|e| e.to_string())?;
            let over = LaunchDims::linear(1, bounded.max_threads.unwrap_or(0) + 32, 0);
            // The geometry is checked before the arguments: an empty list still meets the bound first.
            let bound_refusal = unsafe { k.launch(gpu, over, ()) };
            seen.push(matches!(bound_refusal, Err(Error::InvalidLaunch { ref detail, .. }) if detail.contains(".maxntid")));
            let unknown = module.kernel("no_such_kernel");
            seen.push(matches!(unknown, Err(Error::UnknownKernel { ref available, .. }) if available.contains("vec_add")));
            let no_entry = gpu.load_module(".version 8.1\n.target sm_90\n.address_size 64\n");
            seen.push(matches!(no_entry, Err(Error::InvalidArgument { .. })));
            // A buffer of another context.
            let other = Gpu::new_isolated(0).map_err(|e| e.to_string())?;
            let foreign = DeviceBuffer::from_host(&other, &[1.0f32; 64]).map_err(|e| e.to_string())?;
            let wrong_context = unsafe { add.launch(gpu, dims, (&foreign, &da, &mut dc, 64usize)) };
            seen.push(matches!(wrong_context, Err(Error::WrongContext { .. })));
            if let Some(i) = seen.iter().position(|&ok| !ok) {
                return Err(format!("refusal {i} was not the typed error expected (all: {seen:?})"));
            }
            // Nothing reached the driver: the Gpu still computes.
            unsafe { add.launch(gpu, dims, (&da, &da, &mut dc, 64usize)) }.map_err(|e| e.to_string())?;
            let c = dc.to_host(gpu).map_err(|e| e.to_string())?;
            if c.iter().all(|&x| x == 2.0) {
                Ok(())
            } else {
                Err(format!("after the refusals vec_add gave {:?}…", &c[..4]))
            }
        }),
    ];
    run(trials)
}
