//! The scorecard CLI as a user runs it (no GPU needed: these run in CI).
use std::process::Command;

/// The scorecard executable: cargo's build of it, or `TESSERA_SCORECARD_BIN` where the test runs away
/// from the build tree (the GPU bundle: `.gpu/bin/scorecard`).
fn scorecard(args: &[&str]) -> (bool, String, String) {
    let bin = std::env::var_os("TESSERA_SCORECARD_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_scorecard").into());
    let out = Command::new(bin).args(args).output().expect("run scorecard");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn device_cpu_runs_every_kernel_as_labelled_emulation() {
    let dir = std::env::temp_dir().join(format!("scorecard-emu-{}", std::process::id()));
    let (ok, stdout, stderr) = scorecard(&["--device", "cpu", "--sizes", "17x33x9,9x16x16", "--out", dir.to_str().unwrap()]);
    assert!(ok, "scorecard --device cpu failed: {stderr}");
    assert!(stdout.contains("EMULATED on the CPU executor"), "{stdout}");
    assert!(stdout.contains("not* GPU performance"), "{stdout}");
    // Every kernel in its precision on every size (the TMA kernels read 17×33×9's unaligned rows from
    // padded copies), and Auto in each precision.
    for (algo, precision) in tessera::catalogue::registry::algo::matmul_cases() {
        let label = tessera::catalogue::registry::algo::case_label(algo, precision);
        for size in ["17×33×9", "9×16×16"] {
            let row = format!("| {size} | {label} | {} |", precision.label().to_uppercase());
            assert!(stdout.contains(&row), "row {row} missing\n{stdout}");
        }
    }
    assert!(!stdout.contains("Failed"), "{stdout}");
    assert!(dir.join("emulated.md").exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn device_cpu_refuses_sizes_too_large_to_emulate() {
    let (ok, _, stderr) = scorecard(&["--device", "cpu", "--sizes", "1024"]);
    assert!(!ok);
    assert!(stderr.contains("too large"), "{stderr}");
}

#[test]
fn bad_sizes_are_rejected_with_a_message() {
    for bad in ["0", "12x7", "axbxc"] {
        let (ok, _, stderr) = scorecard(&["--sizes", bad, "--out", "/tmp/never-written"]);
        assert!(!ok, "--sizes {bad} accepted");
        assert!(stderr.contains("error:"), "{stderr}");
    }
}

/// Without a GPU the CPU baseline still runs and the GPU part says plainly that it was skipped; with
/// one, the same command measures the GPU rows. Either way the JSON and Markdown are written.
#[test]
fn a_small_run_writes_the_scorecard_with_or_without_a_gpu() {
    let dir = std::env::temp_dir().join(format!("scorecard-small-{}", std::process::id()));
    let (ok, stdout, stderr) = scorecard(&["--sizes", "64", "--repeat", "1", "--vec-len", "4096", "--out", dir.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("CPU faer"), "{stdout}");
    let json = std::fs::read_to_string(dir.join("scorecard.json")).unwrap();
    let gpu = tessera::Gpu::new(0).is_ok();
    if gpu {
        assert!(stdout.contains("cuBLAS SGEMM") && stdout.contains("Device:"), "{stdout}");
        assert!(dir.join("roofline-fp32.svg").exists() && dir.join("roofline-bf16.svg").exists());
    } else {
        assert!(stdout.contains("GPU part skipped"), "{stdout}");
        assert!(json.contains("\"gpu_skipped\": \""), "{json}");
    }
    assert!(dir.join("scorecard.md").exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn precisions_and_kernels_filter_the_emulated_cases() {
    let dir = std::env::temp_dir().join(format!("scorecard-prec-{}", std::process::id()));
    let (ok, stdout, stderr) = scorecard(&[
        "--device",
        "cpu",
        "--sizes",
        "17x33x9",
        "--precisions",
        "bf16",
        "--kernels",
        "auto,mma-naive-bf16,naive",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("| 17×33×9 | auto-bf16 | BF16 |"), "{stdout}");
    assert!(stdout.contains("| 17×33×9 | mma-naive-bf16 | BF16 |"), "{stdout}");
    // `naive` is FP32 and `auto` matches only the Auto of the chosen precisions.
    for absent in ["| naive |", "auto-fp32", "auto-fp16", "auto-tf32", "mma-pipe"] {
        assert!(!stdout.contains(absent), "{absent} ran:\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn unknown_precisions_and_unmatched_kernels_are_rejected() {
    let (ok, _, stderr) = scorecard(&["--device", "cpu", "--sizes", "16", "--precisions", "fp8"]);
    assert!(!ok);
    assert!(stderr.contains("unknown precision `fp8`"), "{stderr}");
    let (ok, _, stderr) = scorecard(&["--device", "cpu", "--sizes", "16", "--precisions", "fp16", "--kernels", "naive"]);
    assert!(!ok);
    assert!(stderr.contains("--kernels matched none") && stderr.contains("auto-fp16"), "{stderr}");
}

/// `--sweep` without a GPU: no CPU baseline (the sweep is Auto and cuBLAS only), the GPU part skipped,
/// and the JSON says it is a sweep so that a re-plot knows.
#[test]
fn the_sweep_measures_no_cpu_baseline_and_marks_its_json() {
    let dir = std::env::temp_dir().join(format!("scorecard-sweep-{}", std::process::id()));
    let (ok, stdout, stderr) =
        scorecard(&["--sweep", "--sizes", "64,96", "--repeat", "1", "--vec-len", "0", "--out", dir.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let json = std::fs::read_to_string(dir.join("scorecard.json")).unwrap();
    assert!(json.contains("\"size_sweep\": true"), "{json}");
    assert!(!stdout.contains("CPU faer") && stderr.contains("CPU baseline skipped"), "{stdout}\n{stderr}");
    if tessera::Gpu::new(0).is_ok() {
        // Auto and cuBLAS in each precision, nothing else; sizes.svg drawn, no roofline.
        for key in ["naive", "tiled", "cuda-c", "auto-fp32-tuned"] {
            assert!(!json.contains(&format!("\"key\": \"{key}")), "{key} ran in the sweep");
        }
        assert!(json.contains("\"key\": \"auto-bf16\"") && json.contains("\"key\": \"cublas-bf16\""), "{json}");
        assert!(dir.join("sizes.svg").exists() && !dir.join("roofline-fp32.svg").exists());
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `--replot` of a sweep's JSON with a random-shape run beside it: scorecard.md gets the sweep's table,
/// summary.md the ratios, random.md the run's line, and sizes.svg is drawn — all from the JSON alone.
#[test]
fn replot_renders_the_sweep_and_the_summaries_from_json() {
    let dir = std::env::temp_dir().join(format!("scorecard-replot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let row = |n: u32, key: &str, precision: &str, ms: f64| {
        let gflops = 2.0 * f64::from(n).powi(3) / (ms * 1e-3) / 1e9;
        format!(
            r#"{{"size":"{n}³","m":{n},"n":{n},"k":{n},"name":"{key}","key":"{key}","precision":"{precision}","ms":{ms},"gflops":{gflops},"global_bytes":null,"flop_per_byte":null,"check":"ok","speedup_vs_cpu":null,"pct_of_cublas":null,"pct_of_peak":null,"vs_cuda_c":null}}"#
        )
    };
    let mut rows = Vec::new();
    for n in [512u32, 1000, 2048] {
        rows.push(row(n, "auto-fp32", "fp32", 2.0));
        rows.push(row(n, "cublas", "fp32", 1.0));
        rows.push(row(n, "auto-bf16", "bf16", 0.5));
        rows.push(row(n, "cublas-bf16", "bf16", 0.5));
    }
    let sweep = format!(r#"{{"device":"Test GPU","size_sweep":true,"gpu_skipped":null,"rows":[{}],"bandwidth":[]}}"#, rows.join(","));
    let random = format!(
        r#"{{"rows":[{},{},{},{}],"bandwidth":[],"random_shapes":{{"count":1,"seed":777,"max_flops":1e12}}}}"#,
        row(64, "auto-fp32", "fp32", 1.0),
        row(64, "cublas", "fp32", 1.0),
        row(100, "auto-fp32", "fp32", 1.0),
        row(100, "cublas", "fp32", 1.5)
    );
    std::fs::write(dir.join("sweep.json"), sweep).unwrap();
    std::fs::write(dir.join("random.json"), random).unwrap();
    let out = dir.join("out");
    let (ok, stdout, stderr) = scorecard(&[
        "--replot",
        dir.join("sweep.json").to_str().unwrap(),
        "--random-runs",
        dir.join("random.json").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("| 1000 | 1.0 | 2.0 | 0.500 | 4.0 | 4.0 | 1.000 |"), "{stdout}");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains("| n | FP32 | BF16 |") && summary.contains("| 2048 | 0.500 | 1.000 |"), "{summary}");
    // Only the random shape (100³, not 64³) counts: 1.5.
    let lines = std::fs::read_to_string(out.join("random.md")).unwrap();
    assert!(lines.contains("| 777 | FP32 | 1 | 1.500 | 1.500 (100³) | — |"), "{lines}");
    assert!(out.join("sizes.svg").exists());
    let _ = std::fs::remove_dir_all(dir);
}
