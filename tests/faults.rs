//! A kernel that faults on the device comes back as an error naming it — not a hang, not garbage —
//! and the poisoned context then refuses work with a typed error. Its own executable: CUDA poisons the
//! whole context, so nothing else may share this process.
use tessera::{Algo, Error, HostMatrix};
use tessera_tests::{gpu_trial, run};

fn main() {
    run(vec![gpu_trial("trap_is_reported_by_name_then_context_refuses_work", |gpu| {
        // Work before the fault succeeds.
        let ok = gpu.vec_add_host(&[1.0], &[2.0]).map_err(|e| e.to_string())?;
        if ok != [3.0] {
            return Err(format!("before the fault: {ok:?}"));
        }
        match gpu.diagnostic_trap() {
            Err(Error::KernelFault { kernel: "diagnostic_trap", source }) => println!("fault reported: {source}"),
            other => return Err(format!("expected KernelFault naming diagnostic_trap, got {other:?}")),
        }
        let a = HostMatrix::from_fn(4, 4, |_, _| 1.0);
        match gpu.matmul_host(Algo::Tiled, &a, &a) {
            Err(Error::ContextPoisoned(why)) if why.contains("diagnostic_trap") => Ok(()),
            other => Err(format!("after the fault: expected ContextPoisoned, got {other:?}")),
        }
    })])
}
