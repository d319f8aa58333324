//! The TMA read probe (`Gpu::tma_read`, kernel `tma_read`) on the GPU: each block's sum of its boxes'
//! first words against `TmaReadProbe::expected_sums` (the walk stated on the host) over the tensor, for whole rows off a 32-byte sector
//! and for column strips; bad probes refused with typed errors before any launch, the `Gpu` usable after.
use libtest_mimic::Trial;
use tessera::ops::tma_probe::TmaReadProbe;
use tessera::{DeviceBuffer, Error, Gpu};
use tessera_tests::{gpu_trial, run};

/// A `width × height` tensor of 16-bit elements, rows `pitch` bytes apart, element `(x, y)` = `x + 1000·y`
/// (mod 2¹⁶), as bytes.
fn tensor(width: u32, height: u32, pitch: u64) -> Vec<u8> {
    let mut bytes = vec![0u8; (pitch * u64::from(height)) as usize];
    for y in 0..height {
        for x in 0..width {
            let at = (u64::from(y) * pitch + 2 * u64::from(x)) as usize;
            bytes[at..at + 2].copy_from_slice(&((x + 1000 * y) as u16).to_le_bytes());
        }
    }
    bytes
}

fn check(g: &Gpu, p: TmaReadProbe) -> Result<(), String> {
    let bytes_of_tensor = tensor(p.width, p.height, p.pitch);
    let src = DeviceBuffer::from_host(g, &bytes_of_tensor).map_err(|e| e.to_string())?;
    let mut out = DeviceBuffer::<u32>::zeros(g, p.blocks as usize).map_err(|e| e.to_string())?;
    let bytes = g.tma_read(&p, &src, &mut out).map_err(|e| e.to_string())?;
    let (cols, rows) = p.boxes();
    if bytes != u64::from(cols * rows * p.box_w * p.box_h * 2) {
        return Err(format!("{p:?}: {bytes} bytes moved"));
    }
    let got = out.to_host(g).map_err(|e| e.to_string())?;
    for (b, (&v, want)) in got.iter().zip(p.expected_sums(&bytes_of_tensor)).enumerate() {
        if v != want {
            return Err(format!("{p:?}: block {b} summed {v:#x}, expected {want:#x}"));
        }
    }
    Ok(())
}

/// The error a bad probe must give.
type Expected = fn(&Error) -> bool;

fn main() {
    let probe = |width, height, pitch, (box_w, box_h), strip, blocks, stages| TmaReadProbe {
        width,
        height,
        elem_bytes: 2,
        pitch,
        box_w,
        box_h,
        strip,
        blocks,
        stages,
    };
    let trials: Vec<Trial> = vec![
        // Kernel 15's A: whole rows of 128-byte swizzled boxes, rows 16 bytes off a sector (1000 BF16).
        gpu_trial("tma_read_whole_rows_off_a_sector", move |g| check(g, probe(1000, 300, 2000, (64, 128), 16, 5, 4))),
        // A decode product's B: strips of four 64 × 64 boxes down the rows, more loads than the ring.
        gpu_trial("tma_read_column_strips", move |g| check(g, probe(1024, 512, 2048, (64, 64), 4, 3, 3))),
        // Unswizzled 64-byte box rows, more blocks than units (the idle blocks write 0).
        gpu_trial("tma_read_unswizzled_boxes_and_idle_blocks", move |g| check(g, probe(96, 40, 192, (32, 16), 1, 11, 2))),
        gpu_trial("tma_read_refuses_bad_probes_before_launching", move |g| {
            let src = DeviceBuffer::<u8>::zeros(g, 4096).map_err(|e| e.to_string())?;
            let mut out = DeviceBuffer::<u32>::zeros(g, 4).map_err(|e| e.to_string())?;
            let good = probe(64, 16, 128, (64, 16), 1, 4, 2);
            let cases: [(TmaReadProbe, Expected); 8] = [
                (TmaReadProbe { elem_bytes: 3, ..good }, |e| matches!(e, Error::InvalidArgument { .. })),
                (TmaReadProbe { box_w: 128, ..good }, |e| matches!(e, Error::InvalidArgument { .. })),
                (TmaReadProbe { box_h: 0, ..good }, |e| matches!(e, Error::InvalidArgument { .. })),
                (TmaReadProbe { strip: 3, ..good }, |e| matches!(e, Error::InvalidArgument { .. })),
                (TmaReadProbe { stages: 0, ..good }, |e| matches!(e, Error::InvalidArgument { .. })),
                (TmaReadProbe { pitch: 136, ..good }, |e| matches!(e, Error::Unaligned { .. })),
                (TmaReadProbe { height: 64, ..good }, |e| matches!(e, Error::BufferTooSmall { .. })),
                (TmaReadProbe { blocks: 5, ..good }, |e| matches!(e, Error::BufferTooSmall { .. })),
            ];
            for (p, expected) in cases {
                match g.tma_read(&p, &src, &mut out) {
                    Err(e) if expected(&e) => {}
                    other => return Err(format!("{p:?}: {other:?}")),
                }
            }
            // Nothing launched, nothing broken: the good probe runs.
            check(g, good)
        }),
    ];
    run(trials)
}
