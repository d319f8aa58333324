//! `Gpu::mma_rate` and `Gpu::wgmma_rate` (the tensor-core ceilings the scorecard measures): their
//! typed errors and real launches per precision, the `wgmma` ones checked against the exact value.
//! Needs a GPU; without one every trial is reported as *ignored*.
use libtest_mimic::{Arguments, Failed, Trial};
use tessera::ops::ceiling::{mma_rate_flops, wgmma_rate_expected, wgmma_rate_flops, MMA_RATE_BLOCK, WGMMA_RATE_BLOCK};
use tessera::{DeviceBuffer, Error, Gpu, Precision};

fn gpu_trial(name: &str, gpu: Option<&'static Gpu>, body: fn(&Gpu) -> Result<(), String>) -> Trial {
    Trial::test(name, move || match gpu {
        Some(g) => body(g).map_err(Failed::from),
        None => Err(Failed::from("no GPU")),
    })
    .with_ignored_flag(gpu.is_none())
}

fn errors_are_typed(g: &Gpu) -> Result<(), String> {
    let mut out = DeviceBuffer::<f32>::zeros(g, MMA_RATE_BLOCK as usize).map_err(|e| e.to_string())?;
    match g.mma_rate(Precision::Fp32, 1, 1, &mut out) {
        Err(Error::InvalidArgument { .. }) => {}
        other => return Err(format!("FP32: expected InvalidArgument, got {other:?}")),
    }
    match g.mma_rate(Precision::Bf16, 1, 0, &mut out) {
        Err(Error::InvalidArgument { .. }) => {}
        other => return Err(format!("iters = 0: expected InvalidArgument, got {other:?}")),
    }
    match g.mma_rate(Precision::Fp16, 2, 1, &mut out) {
        Err(Error::BufferTooSmall { needed, .. }) if needed == 2 * MMA_RATE_BLOCK as usize => Ok(()),
        other => Err(format!("2 blocks into 1 block's floats: expected BufferTooSmall, got {other:?}")),
    }
}

fn one_launch_per_precision(g: &Gpu) -> Result<(), String> {
    let blocks = 2 * g.sm_count();
    let mut out = DeviceBuffer::<f32>::zeros(g, (blocks * MMA_RATE_BLOCK) as usize).map_err(|e| e.to_string())?;
    for p in [Precision::Tf32, Precision::Bf16, Precision::Fp16] {
        let flops = g.mma_rate(p, blocks, 64, &mut out).map_err(|e| format!("{p:?}: {e}"))?;
        if Some(flops) != mma_rate_flops(p, blocks, 64) {
            return Err(format!("{p:?}: {flops} FLOPs returned, {:?} expected", mma_rate_flops(p, blocks, 64)));
        }
        // Every thread writes a sum of positive products: finite and > 0.
        let host = out.to_host(g).map_err(|e| e.to_string())?;
        if let Some((i, v)) = host.iter().enumerate().find(|(_, v)| !(v.is_finite() && **v > 0.0)) {
            return Err(format!("{p:?}: out[{i}] = {v}"));
        }
    }
    Ok(())
}

fn wgmma_errors_are_typed(g: &Gpu) -> Result<(), String> {
    let mut out = DeviceBuffer::<f32>::zeros(g, WGMMA_RATE_BLOCK as usize).map_err(|e| e.to_string())?;
    match g.wgmma_rate(Precision::Fp32, 1, 1, &mut out) {
        Err(Error::InvalidArgument { .. }) => {}
        other => return Err(format!("FP32: expected InvalidArgument, got {other:?}")),
    }
    if !g.has_sm90a() {
        return match g.wgmma_rate(Precision::Bf16, 1, 1, &mut out) {
            Err(Error::UnsupportedDevice { .. }) => Ok(()),
            other => Err(format!("off compute capability 9.0: expected UnsupportedDevice, got {other:?}")),
        };
    }
    match g.wgmma_rate(Precision::Bf16, 0, 1, &mut out) {
        Err(Error::InvalidArgument { .. }) => {}
        other => return Err(format!("blocks = 0: expected InvalidArgument, got {other:?}")),
    }
    match g.wgmma_rate(Precision::Tf32, 2, 1, &mut out) {
        Err(Error::BufferTooSmall { needed, .. }) if needed == 2 * WGMMA_RATE_BLOCK as usize => Ok(()),
        other => Err(format!("2 blocks into 1 block's floats: expected BufferTooSmall, got {other:?}")),
    }
}

/// Every thread's output after 1 and 5 groups, on 3 warpgroups per SM, is the exact expected value
/// (FP8 too: its integer sums stay within the FP8 accumulator's exact range).
fn wgmma_exact_per_precision(g: &Gpu) -> Result<(), String> {
    if !g.has_sm90a() {
        return Err("not compute capability 9.0: the wgmma kernels are not loaded".into());
    }
    let blocks = 3 * g.sm_count();
    let mut out = DeviceBuffer::<f32>::zeros(g, (blocks * WGMMA_RATE_BLOCK) as usize).map_err(|e| e.to_string())?;
    for p in [Precision::Tf32, Precision::Bf16, Precision::Fp16, Precision::Fp8E4m3, Precision::Fp8E5m2] {
        for iters in [1, 5] {
            let flops = g.wgmma_rate(p, blocks, iters, &mut out).map_err(|e| format!("{p:?}: {e}"))?;
            if Some(flops) != wgmma_rate_flops(p, blocks, iters) {
                return Err(format!("{p:?}: {flops} FLOPs returned, {:?} expected", wgmma_rate_flops(p, blocks, iters)));
            }
            let host = out.to_host(g).map_err(|e| e.to_string())?;
            for (i, &v) in host.iter().enumerate() {
                let want = wgmma_rate_expected(p, i as u32 % WGMMA_RATE_BLOCK, iters).ok_or("no expected value")?;
                if f64::from(v) != want {
                    return Err(format!("{p:?}, {iters} groups: out[{i}] = {v}, expected {want}"));
                }
            }
        }
    }
    Ok(())
}

fn main() {
    let gpu: Option<&'static Gpu> = match Gpu::new(0) {
        Ok(g) => Some(Box::leak(Box::new(g))),
        Err(e) => {
            println!("skipped: no CUDA device ({e}) — the mma_rate GPU tests are not run, reported as ignored");
            None
        }
    };
    let trials = vec![
        gpu_trial("mma_rate_errors_are_typed", gpu, errors_are_typed),
        gpu_trial("mma_rate_one_launch_per_precision", gpu, one_launch_per_precision),
        gpu_trial("wgmma_rate_errors_are_typed", gpu, wgmma_errors_are_typed),
        gpu_trial("wgmma_rate_exact_per_precision", gpu, wgmma_exact_per_precision),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}
