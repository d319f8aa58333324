//! Prints the kernel registry as JSON on stdout: every matmul kernel of `MATMUL_KERNELS`, in ladder
//! order (`index` = `Algo as usize`), with its label, PTX entry (and by-rows twin), precision, every
//! field of its `TileConfig`, and — for the kernels `Auto`'s FP32 time model prices — its constants
//! from `tuning::cost` (with the blocks per SM they give, `tuning::blocks_per_sm`); beside them the
//! model's GPU-wide constants (`tuning::LAUNCH_US`, …). One source for tools outside Rust, so that a
//! kernel added to the catalogue reaches them without a second copy of its geometry.
//!
//!     cargo run -q -p tessera-catalogue --example registry > registry.json
//!
//! `scripts/fit-auto-model.py` runs exactly that command (from the repository root) for every kernel's
//! geometry and committed constants; on a machine without cargo it reads a file written by it instead
//! (`--registry registry.json`).
//!
//! Shape: `{"model": {…}, "kernels": [{"index", "algo", "label", "entry", "by_rows_entry",
//! "precision", "config": {…}, "cost": {…} | null}, …]}`; the names of `config`'s and `cost`'s keys
//! are the Rust fields' (`config.threads` and `cost.blocks_per_sm` derived). An infinite `f64`
//! (`cost.read_gb_per_s` of a kernel without a read floor) is `null`; `u32::MAX` (`cost.max_rows`,
//! `cost.max_cols`: no bound) is printed as the number. `cargo test -p tessera-catalogue` runs this
//! file's tests (`test = true` in the crate's manifest).
use serde_json::{json, Value};
use tessera_catalogue::select::tuning::{self, Cost};
use tessera_catalogue::{MatmulKernel, TileConfig, MATMUL_KERNELS};

fn main() {
    println!("{}", serde_json::to_string_pretty(&registry()).expect("the registry serializes"));
}

/// The registry: the model's GPU-wide constants and one object per kernel.
fn registry() -> Value {
    json!({
        "model": {
            "sms": tuning::SMS,
            "launch_us": tuning::LAUNCH_US,
            "zero_launch_us": tuning::ZERO_LAUNCH_US,
            "zero_gb_per_s": tuning::ZERO_GB_PER_S,
            "odd_rows_gb_per_s": tuning::ODD_ROWS_GB_PER_S,
            "store_gb_per_s": tuning::STORE_GB_PER_S,
            "atomic_adds_per_us": tuning::ATOMIC_ADDS_PER_US,
            "atomic_adds_v4_per_us": tuning::ATOMIC_ADDS_V4_PER_US,
            "adds_depth_us": tuning::ADDS_DEPTH_US,
            "adds_depth_unaligned_us": tuning::ADDS_DEPTH_UNALIGNED_US,
            "min_slice_steps": tuning::MIN_SLICE_STEPS,
            "max_splits": tuning::MAX_SPLITS,
            "few_rows_max_m": tuning::FEW_ROWS_MAX_M,
            "few_cols_max_n": tuning::FEW_COLS_MAX_N,
            "dram_stream_bytes": tuning::DRAM_STREAM_BYTES,
        },
        "kernels": MATMUL_KERNELS.iter().map(kernel).collect::<Vec<_>>(),
    })
}

fn kernel(k: &MatmulKernel) -> Value {
    json!({
        "index": k.algo as usize,
        "algo": format!("{:?}", k.algo),
        "label": k.label,
        "entry": k.entry,
        "by_rows_entry": k.by_rows.map(|twin| twin.entry),
        "precision": k.precision.label(),
        "config": config(k.config),
        "cost": tuning::cost(k.algo).map(|c| cost(k.config, c)),
    })
}

/// Every field of the kernel's `TileConfig` (destructured without `..`: a field added to it does not
/// compile here until it is printed).
fn config(t: TileConfig) -> Value {
    let TileConfig {
        bm,
        bn,
        bk,
        block,
        shared_bytes,
        min_blocks_per_sm,
        split_k,
        sm90a,
        tf32_operands,
        rounds_a,
        fp8_operands,
        unpromoted,
        fp8_block_scales,
        fused_epilogue,
        tma,
        persistent,
        stream_k,
        stores_unsplit,
        narrow_copies,
        producer_copies,
        cluster,
        ping_pong,
        rows_on_x,
        chained,
    } = t;
    json!({
        "bm": bm,
        "bn": bn,
        "bk": bk,
        "block": [block.0, block.1],
        "threads": t.threads(),
        "shared_bytes": shared_bytes,
        "min_blocks_per_sm": min_blocks_per_sm,
        "split_k": split_k,
        "sm90a": sm90a,
        "tf32_operands": tf32_operands,
        "rounds_a": rounds_a,
        "fp8_operands": fp8_operands,
        "unpromoted": unpromoted,
        "fp8_block_scales": fp8_block_scales,
        "fused_epilogue": fused_epilogue,
        "tma": tma,
        "persistent": persistent,
        "stream_k": stream_k,
        "stores_unsplit": stores_unsplit,
        "narrow_copies": narrow_copies,
        "producer_copies": producer_copies,
        "cluster": cluster,
        "ping_pong": ping_pong,
        "rows_on_x": rows_on_x,
        "chained": chained,
    })
}

/// Every field of the kernel's `Cost` (destructured without `..`, as [`config`]), and the blocks per
/// SM its registers give the kernel's launch.
fn cost(t: TileConfig, c: Cost) -> Value {
    let Cost {
        block_us,
        step_us,
        overlap,
        unaligned,
        unaligned_stores_per_us,
        registers,
        rows_exponent,
        min_slice_steps,
        max_rows,
        max_cols,
        unroll,
        read_gb_per_s,
        interior,
        vector,
        store_gb_per_s,
        gemv,
        odd_rows_gb_per_s,
        read_fill_exponent,
    } = c;
    json!({
        "block_us": block_us,
        "step_us": step_us,
        "overlap": overlap,
        "unaligned": unaligned,
        "unaligned_stores_per_us": unaligned_stores_per_us,
        "registers": registers,
        "rows_exponent": rows_exponent,
        "min_slice_steps": min_slice_steps,
        "max_rows": max_rows,
        "max_cols": max_cols,
        "unroll": unroll,
        "read_gb_per_s": finite(read_gb_per_s),
        "interior": interior,
        "vector": vector,
        "store_gb_per_s": store_gb_per_s,
        "gemv": gemv,
        "odd_rows_gb_per_s": odd_rows_gb_per_s,
        "read_fill_exponent": read_fill_exponent,
        "blocks_per_sm": tuning::blocks_per_sm(t, registers),
    })
}

/// `None` (JSON `null`) for an infinite value, which JSON cannot hold.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The printed text, parsed back.
    fn parsed() -> Value {
        serde_json::from_str(&serde_json::to_string_pretty(&registry()).unwrap()).expect("the registry is JSON")
    }

    fn close(a: f64, b: f64) -> bool {
        a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
    }

    #[test]
    fn every_kernel_appears_once_in_ladder_order() {
        let json = parsed();
        let kernels = json["kernels"].as_array().expect("a kernels array");
        assert_eq!(kernels.len(), MATMUL_KERNELS.len());
        for (i, k) in MATMUL_KERNELS.iter().enumerate() {
            let labelled: Vec<_> = kernels.iter().filter(|j| j["label"] == k.label).collect();
            assert_eq!(labelled.len(), 1, "{}", k.label);
            let j = &kernels[i];
            assert_eq!((j["index"].as_u64(), j["label"].as_str(), j["entry"].as_str()), (Some(i as u64), Some(k.label), Some(k.entry)));
            assert_eq!(j["algo"].as_str(), Some(format!("{:?}", k.algo).as_str()));
            assert_eq!(j["precision"].as_str(), Some(k.precision.label()));
            assert_eq!(j["by_rows_entry"].as_str(), k.by_rows.map(|t| t.entry), "{}", k.label);
        }
    }

    #[test]
    fn each_config_reads_back_as_the_kernels_own() {
        for (k, j) in MATMUL_KERNELS.iter().zip(parsed()["kernels"].as_array().unwrap()) {
            let c = &j["config"];
            let n = |key: &str| c[key].as_u64().unwrap_or_else(|| panic!("{}: {key}", k.label)) as u32;
            let b = |key: &str| c[key].as_bool().unwrap_or_else(|| panic!("{}: {key}", k.label));
            let back = TileConfig {
                bm: n("bm"),
                bn: n("bn"),
                bk: n("bk"),
                block: (c["block"][0].as_u64().unwrap() as u32, c["block"][1].as_u64().unwrap() as u32),
                shared_bytes: n("shared_bytes"),
                min_blocks_per_sm: n("min_blocks_per_sm"),
                split_k: b("split_k"),
                sm90a: b("sm90a"),
                tf32_operands: b("tf32_operands"),
                rounds_a: b("rounds_a"),
                fp8_operands: b("fp8_operands"),
                unpromoted: b("unpromoted"),
                fp8_block_scales: b("fp8_block_scales"),
                fused_epilogue: b("fused_epilogue"),
                tma: b("tma"),
                persistent: b("persistent"),
                stream_k: b("stream_k"),
                stores_unsplit: b("stores_unsplit"),
                narrow_copies: b("narrow_copies"),
                producer_copies: b("producer_copies"),
                cluster: n("cluster"),
                ping_pong: b("ping_pong"),
                rows_on_x: b("rows_on_x"),
                chained: b("chained"),
            };
            assert_eq!(back, k.config, "{}", k.label);
            assert_eq!(n("threads"), k.config.threads());
        }
    }

    #[test]
    fn each_cost_reads_back_as_tuning_cost() {
        for (k, j) in MATMUL_KERNELS.iter().zip(parsed()["kernels"].as_array().unwrap()) {
            let Some(want) = tuning::cost(k.algo) else {
                assert!(j["cost"].is_null(), "{}", k.label);
                continue;
            };
            let c = &j["cost"];
            let f = |key: &str| c[key].as_f64().unwrap_or_else(|| panic!("{}: {key}", k.label));
            let n = |key: &str| c[key].as_u64().unwrap_or_else(|| panic!("{}: {key}", k.label)) as u32;
            let read = if c["read_gb_per_s"].is_null() { f64::INFINITY } else { f("read_gb_per_s") };
            let back = Cost {
                block_us: f("block_us"),
                step_us: f("step_us"),
                overlap: f("overlap"),
                unaligned: f("unaligned"),
                unaligned_stores_per_us: f("unaligned_stores_per_us"),
                registers: n("registers"),
                rows_exponent: f("rows_exponent"),
                min_slice_steps: n("min_slice_steps"),
                max_rows: n("max_rows"),
                max_cols: n("max_cols"),
                unroll: n("unroll"),
                read_gb_per_s: read,
                interior: f("interior"),
                vector: n("vector"),
                store_gb_per_s: f("store_gb_per_s"),
                gemv: f("gemv"),
                odd_rows_gb_per_s: f("odd_rows_gb_per_s"),
                read_fill_exponent: f("read_fill_exponent"),
            };
            // serde_json parses floats to within an ulp (Python's `float` exactly).
            let floats = |c: Cost| {
                [
                    c.block_us,
                    c.step_us,
                    c.overlap,
                    c.unaligned,
                    c.unaligned_stores_per_us,
                    c.rows_exponent,
                    c.read_gb_per_s,
                    c.interior,
                    c.store_gb_per_s,
                    c.gemv,
                    c.odd_rows_gb_per_s,
                    c.read_fill_exponent,
                ]
            };
            assert!(floats(back).into_iter().zip(floats(want)).all(|(a, b)| close(a, b)), "{}: {back:?} vs {want:?}", k.label);
            let ints = |c: Cost| [c.registers, c.min_slice_steps, c.max_rows, c.max_cols, c.unroll, c.vector];
            assert_eq!(ints(back), ints(want), "{}", k.label);
            assert_eq!(n("blocks_per_sm"), tuning::blocks_per_sm(k.config, want.registers), "{}", k.label);
        }
    }

    #[test]
    fn the_model_constants_are_there() {
        let json = parsed();
        let model = &json["model"];
        assert_eq!(model["sms"].as_u64(), Some(u64::from(tuning::SMS)));
        assert_eq!(model["launch_us"].as_f64(), Some(tuning::LAUNCH_US));
        assert_eq!(model["few_cols_max_n"].as_u64(), Some(u64::from(tuning::FEW_COLS_MAX_N)));
        for key in [
            "zero_launch_us",
            "zero_gb_per_s",
            "odd_rows_gb_per_s",
            "store_gb_per_s",
            "atomic_adds_per_us",
            "atomic_adds_v4_per_us",
            "adds_depth_us",
        ] {
            assert!(model[key].as_f64().is_some_and(|x| x > 0.0), "{key}");
        }
        assert!(model["adds_depth_unaligned_us"].is_number() && model["max_splits"].is_u64() && model["min_slice_steps"].is_u64());
    }
}
