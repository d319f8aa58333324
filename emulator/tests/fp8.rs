//! The FP8 conversion kernels (`tessera_kernels::fp8`) on the CPU executor, with the launch the GPU
//! uses: every element converted once, the odd last element alone, nothing written past `n`. The
//! rounding itself is the device crate's host model (the `float8` crate's SATFINITE conversion); the
//! GPU suite (`tests/gpu_parity.rs`, `fp8_conversions_match_satfinite`) holds the instruction to it.
use float8::{F8E4M3, F8E5M2};
use tessera_catalogue::registry::launch::fp8_convert;
use tessera_emulator::{launch, Launch, SyncPtr};
use tessera_kernels::fp8;

/// Values that exercise rounding, ties, saturation, subnormals, signed zero and NaN.
fn values(n: usize) -> Vec<f32> {
    let special = [
        0.0,
        -0.0,
        1.0,
        1.0625,
        1.1875,
        -2.5,
        448.0,
        464.0,
        1e6,
        -1e6,
        57344.0,
        61440.0,
        1e-3,
        2e-9,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    (0..n).map(|i| if i < special.len() { special[i] } else { ((i as f32) * 0.37).sin() * 600.0 / (1.0 + (i % 13) as f32) }).collect()
}

fn run(entry: &'static str, kernel: unsafe fn(*const f32, *mut u8, usize), x: &[f32]) -> Vec<u8> {
    let n = x.len();
    let mut out = vec![0xAAu8; n + 8]; // a guard past n that must stay untouched
    let (px, po) = (SyncPtr::from_const(x.as_ptr()), SyncPtr::new(out.as_mut_ptr()));
    let cfg = Launch::from(fp8_convert(n).unwrap());
    // SAFETY: x holds n floats, out n + 8 bytes; both outlive the launch.
    launch(entry, cfg, || unsafe { kernel(px.get(), po.get(), n) }).unwrap();
    assert!(out[n..].iter().all(|&b| b == 0xAA), "{entry}: wrote past n = {n}");
    out.truncate(n);
    out
}

#[test]
fn f32_conversions_convert_every_element_once() {
    for n in [1, 2, 17, 511, 1001] {
        let x = values(n);
        let e4 = run("f32_to_e4m3", fp8::f32_to_e4m3, &x);
        let e5 = run("f32_to_e5m2", fp8::f32_to_e5m2, &x);
        for i in 0..n {
            assert_eq!(e4[i], F8E4M3::from_f32(x[i]).to_bits(), "E4M3 n = {n}, element {i} ({})", x[i]);
            assert_eq!(e5[i], F8E5M2::from_f32(x[i]).to_bits(), "E5M2 n = {n}, element {i} ({})", x[i]);
        }
    }
    // The rule, spelled out on a few values (E4M3: 3 mantissa bits; saturation at 448).
    let e4 = run("f32_to_e4m3", fp8::f32_to_e4m3, &[1.0625, 1.1875, 1e6, -1e6, f32::INFINITY]);
    let back: Vec<f32> = e4.iter().map(|&b| F8E4M3::from_bits(b).to_f32()).collect();
    assert_eq!(back, [1.0, 1.25, 448.0, -448.0, 448.0]);
}

#[test]
fn bf16_conversions_widen_exactly_first() {
    let x: Vec<u16> = values(333).iter().map(|&v| half::bf16::from_f32(v).to_bits()).collect();
    for (entry, kernel, to) in [
        ("bf16_to_e4m3", fp8::bf16_to_e4m3 as unsafe fn(*const u16, *mut u8, usize), (|v| F8E4M3::from_f32(v).to_bits()) as fn(f32) -> u8),
        ("bf16_to_e5m2", fp8::bf16_to_e5m2, |v| F8E5M2::from_f32(v).to_bits()),
    ] {
        let mut out = vec![0u8; x.len()];
        let (px, po) = (SyncPtr::from_const(x.as_ptr()), SyncPtr::new(out.as_mut_ptr()));
        // SAFETY: x holds 333 values, out 333 bytes.
        launch(entry, Launch::from(fp8_convert(x.len()).unwrap()), || unsafe { kernel(px.get(), po.get(), x.len()) }).unwrap();
        for (i, &b) in x.iter().enumerate() {
            assert_eq!(out[i], to(half::bf16::from_bits(b).to_f32()), "{entry} element {i}");
        }
    }
}
