//! `tma-probe`: the TMA's read rate for a row pitch, box and walk, no products (`Gpu::tma_read`,
//! kernel `tma_read`), beside the device-copy rate in the same process.
//!
//! Two questions of issue 34 are in the TMA kernels' reads: (1) rows 16 bytes off a 32-byte sector
//! (BF16 rows of 8 mod 16 elements) run the TMA kernels at 0.6–0.85 of their aligned rate — is that
//! the loads themselves, at which pitch, box and walk; (2) a decode product's `B` streams at 2.1–2.4
//! TB/s however many SMs share it — is that the walk of 256-byte box rows `2N` bytes apart, and do
//! blocks owning whole rows stream at the copy rate. The default probes ask both; `--probes` takes
//! others (`WIDTHxHEIGHT:BOXWxBOXH:STRIP:BLOCKS:STAGES`, BF16, rows `2·WIDTH` bytes apart; `STRIP` 0
//! for whole rows).
//!
//! Per probe, CUDA events around a batch of launches after a warm-up (no synchronize inside), the
//! median of `--repeat` batches; each probe's block sums checked first against the host's walk. One
//! JSON object per probe on stdout and in `--out`.
use std::cell::RefCell;

use clap::Parser;
use tessera::ops::tma_probe::TmaReadProbe;
use tessera::{DeviceBuffer, Gpu, GpuTimer};

#[path = "../bin_common.rs"]
mod bin_common;
use bin_common::{gpu_or_skip, median_ms, Fail};

/// The default probes: square BF16 operands whose rows are on and off a 32-byte sector, read in
/// kernel 15's A box (64 × 128) by whole rows and by column strips, the tensor small enough to stay in
/// the L2 between launches; then a decode `B` (4096 × 14336, 112 MiB: DRAM) in 64 × 64 boxes by
/// strips of 1–8 boxes and by whole rows, on one and two blocks per SM.
const DEFAULT_PROBES: &str = "2992x4096:64x128:1:132:6,3000x4096:64x128:1:132:6,3008x4096:64x128:1:132:6,3040x4096:64x128:1:132:6,\
2200x4096:64x128:1:132:6,2208x4096:64x128:1:132:6,2992x4096:64x128:0:132:6,3000x4096:64x128:0:132:6,3008x4096:64x128:0:132:6,\
14336x4096:64x64:1:132:12,14336x4096:64x64:4:132:12,14336x4096:64x64:8:132:12,14336x4096:64x64:4:264:6,14336x4096:64x64:0:132:12,\
14336x4096:64x64:0:264:6,4096x4096:64x64:4:132:12,4096x4096:64x64:0:132:12";

#[derive(Parser, Debug)]
#[command(about = "the TMA's read rate for a row pitch, box and walk (no products), beside the copy rate")]
struct Args {
    /// Probes `WIDTHxHEIGHT:BOXWxBOXH:STRIP:BLOCKS:STAGES` (BF16 elements; STRIP 0: whole rows).
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_PROBES)]
    probes: Vec<String>,
    /// Timed batches per probe (the median is reported).
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Where to write the JSON lines.
    #[arg(long, default_value = "tma-probe.jsonl")]
    out: String,
}

/// A probe argument, BF16, rows `2·WIDTH` bytes apart.
fn parse(s: &str) -> Result<TmaReadProbe, Fail> {
    let bad = || format!("probe `{s}`: expected WIDTHxHEIGHT:BOXWxBOXH:STRIP:BLOCKS:STAGES");
    let parts: Vec<&str> = s.trim().split(':').collect();
    let [dims, boxes, strip, blocks, stages] = parts[..] else { return Err(bad().into()) };
    let pair = |t: &str| -> Result<(u32, u32), Fail> {
        let (a, b) = t.split_once('x').ok_or_else(bad)?;
        Ok((a.parse()?, b.parse()?))
    };
    let ((width, height), (box_w, box_h)) = (pair(dims)?, pair(boxes)?);
    let strip: u32 = strip.parse()?;
    let strip = if strip == 0 { width.div_ceil(box_w.max(1)) } else { strip };
    Ok(TmaReadProbe {
        width,
        height,
        elem_bytes: 2,
        pitch: 2 * u64::from(width),
        box_w,
        box_h,
        strip,
        blocks: blocks.parse()?,
        stages: stages.parse()?,
    })
}

/// The tensor's element `(x, y)`.
fn value(x: u32, y: u32) -> u32 {
    (x.wrapping_mul(7) ^ y.wrapping_mul(131)) & 0xffff
}

/// The tensor's bytes, rows `pitch` apart.
fn tensor(p: &TmaReadProbe) -> Vec<u8> {
    let mut bytes = vec![0u8; (p.pitch * u64::from(p.height)) as usize];
    for y in 0..p.height {
        for x in 0..p.width {
            let at = (u64::from(y) * p.pitch + 2 * u64::from(x)) as usize;
            bytes[at..at + 2].copy_from_slice(&(value(x, y) as u16).to_le_bytes());
        }
    }
    bytes
}

/// The device-copy rate (GB/s: bytes read and written) of `bytes` bytes, as the scorecard measures it
/// (`cuMemcpyDtoD` of one buffer into another).
fn copy_rate(gpu: &Gpu, timer: &GpuTimer, bytes: usize, repeat: usize) -> Result<f64, Fail> {
    let src = DeviceBuffer::<u8>::zeros(gpu, bytes)?;
    let dst = RefCell::new(DeviceBuffer::<u8>::zeros(gpu, bytes)?);
    let ms = median_ms(gpu, timer, repeat, &|| Ok(gpu.stream().memcpy_dtod(src.as_cuda_slice(), dst.borrow_mut().as_cuda_slice_mut())?))?;
    Ok(2.0 * bytes as f64 / (ms * 1e6))
}

fn main() -> Result<(), Fail> {
    let args = Args::parse();
    let Some(gpu) = gpu_or_skip() else { return Ok(()) };
    let probes: Vec<TmaReadProbe> = args.probes.iter().map(|s| parse(s)).collect::<Result<_, _>>()?;
    let timer = GpuTimer::new(&gpu)?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args.out)?);
    use std::io::Write;
    let copy = copy_rate(&gpu, &timer, 256 << 20, args.repeat)?;
    let head = serde_json::json!({ "device": gpu.info()?.name, "sms": gpu.sm_count(), "copy_gb_per_s": copy });
    println!("{head}");
    writeln!(out, "{head}")?;
    eprintln!("device copy {copy:.0} GB/s (read + write)");
    for (spec, p) in args.probes.iter().zip(&probes) {
        let host_tensor = tensor(p);
        let src = DeviceBuffer::from_host(&gpu, &host_tensor)?;
        let sums = RefCell::new(DeviceBuffer::<u32>::zeros(&gpu, p.blocks as usize)?);
        let bytes = gpu.tma_read(p, &src, &mut sums.borrow_mut())?;
        let got = sums.borrow().to_host(&gpu)?;
        let wrong = got.iter().zip(p.expected_sums(&host_tensor)).filter(|(&g, want)| g != *want).count();
        if wrong > 0 {
            return Err(format!("probe {spec}: {wrong} of {} blocks read other boxes than the walk's", p.blocks).into());
        }
        let ms = median_ms(&gpu, &timer, args.repeat, &|| {
            gpu.tma_read(p, &src, &mut sums.borrow_mut())?;
            Ok(())
        })?;
        let rate = bytes as f64 / (ms * 1e6);
        let pitch_mod_32 = p.pitch % 32;
        eprintln!("  {spec:<32} {:>8.2} µs  {rate:>7.0} GB/s  pitch mod 32 = {pitch_mod_32}", ms * 1e3);
        let row = serde_json::json!({ "probe": spec, "width": p.width, "height": p.height, "pitch": p.pitch, "box": [p.box_w, p.box_h],
            "strip": p.strip, "blocks": p.blocks, "stages": p.stages, "bytes": bytes, "ms": ms, "gb_per_s": rate });
        println!("{row}");
        writeln!(out, "{row}")?;
    }
    Ok(())
}
