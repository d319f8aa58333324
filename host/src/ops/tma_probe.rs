//! The TMA read probe: [`Gpu::tma_read`] launches `tma_read` (`kernels/src/tma_read.rs`), which only
//! loads boxes through a tensor map — no products — so that timing it gives the rate the TMA reads a
//! given row pitch, box and walk at: the operand side of the TMA kernels, alone.
use cudarc::driver::{DevicePtr, LaunchConfig, PushKernelArg};
use tessera_catalogue::registry::tma::{TmaOperand, ALIGN};
use tessera_catalogue::Precision;
use tessera_kernels::tma_read::{self, checked_shared_bytes};

use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::tensor_maps::encode;

/// Threads per block of every probe launch; `out` needs a word per block.
pub const TMA_READ_BLOCK: u32 = tma_read::BLOCK;

/// What one probe launch reads: a `width × height` tensor of `elem_bytes`-byte elements whose rows
/// start `pitch` bytes apart, in boxes of `box_w × box_h` elements (the 128-byte swizzle where a box
/// row is 128 bytes, none otherwise), `strip` boxes across a unit (see `tma_read`'s walk; `strip =
/// ⌈width / box_w⌉`: whole rows), over `blocks` blocks with `stages` boxes in flight each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TmaReadProbe {
    pub width: u32,
    pub height: u32,
    pub elem_bytes: u32,
    pub pitch: u64,
    pub box_w: u32,
    pub box_h: u32,
    pub strip: u32,
    pub blocks: u32,
    pub stages: u32,
}

impl TmaReadProbe {
    /// Boxes across and down the tensor (edge boxes hang over).
    pub fn boxes(&self) -> (u32, u32) {
        (self.width.div_ceil(self.box_w.max(1)), self.height.div_ceil(self.box_h.max(1)))
    }

    /// Bytes of one box in shared memory: its elements, rounded up to the 1024 bytes a stage of the
    /// ring takes.
    pub fn box_bytes(&self) -> u32 {
        (self.box_w * self.box_h * self.elem_bytes).next_multiple_of(1024)
    }

    /// Each block's expected `out` word over `tensor` (the tensor's bytes, rows `pitch` apart): the
    /// walk as `tma_read` documents it — units of `strip` boxes down each strip of columns, block `b`
    /// taking units ⌊b·U/G⌋ .. ⌊(b+1)·U/G⌋ — summing each box's first 32-bit word (little-endian,
    /// bytes of elements outside the tensor zero). Stated apart from the kernel's walk, so a wrong
    /// box origin there fails against it.
    pub fn expected_sums(&self, tensor: &[u8]) -> Vec<u32> {
        let (cols, rows) = self.boxes();
        let units = u64::from(cols / self.strip.max(1) * rows);
        let byte = |x: u32, y: u32, i: u32| {
            let col = x + i / self.elem_bytes;
            if col >= self.width || y >= self.height {
                return 0;
            }
            let at = u64::from(y) * self.pitch + u64::from(x * self.elem_bytes + i);
            tensor.get(at as usize).copied().unwrap_or(0)
        };
        let first_word = |x: u32, y: u32| u32::from_le_bytes([0, 1, 2, 3].map(|i| byte(x, y, i)));
        (0..u64::from(self.blocks))
            .map(|b| {
                let (u0, u1) = (b * units / u64::from(self.blocks), (b + 1) * units / u64::from(self.blocks));
                (u0..u1)
                    .flat_map(|u| {
                        let (strip, row) = (u as u32 / rows, u as u32 % rows);
                        (0..self.strip).map(move |j| ((strip * self.strip + j) * self.box_w, row * self.box_h))
                    })
                    .fold(0u32, |sum, (x, y)| sum.wrapping_add(first_word(x, y)))
            })
            .collect()
    }

    /// Bytes the TMA moves in one launch: every box whole (the part outside the tensor included,
    /// zero-filled, as the kernels' boxes are).
    pub fn bytes_moved(&self) -> u64 {
        let (cols, rows) = self.boxes();
        u64::from(cols) * u64::from(rows) * u64::from(self.box_w * self.box_h * self.elem_bytes)
    }
}

impl Gpu {
    /// Queues one launch of the TMA read probe over `src` (the tensor `probe` describes) and returns
    /// the bytes it moves ([`TmaReadProbe::bytes_moved`]). Block `b` writes `out[b]`: the sum of the
    /// first 32-bit word of every box it loaded. Time the launch with [`crate::GpuTimer`].
    ///
    /// Errors, before any launch: [`Error::InvalidArgument`] for an element size other than 1, 2 or
    /// 4, an empty tensor, a box dimension outside 1–256, a box row over 128 bytes or not a multiple
    /// of 16, a `strip` that does not divide the boxes across, `blocks` or `stages` of 0, or a ring
    /// larger than the device's shared memory; [`Error::Unaligned`] for a pitch that is not a
    /// multiple of 16 bytes, or shorter than a row; [`Error::BufferTooSmall`] when `src` is shorter
    /// than `pitch · height` bytes or `out` than `blocks` words; [`Error::WrongContext`] for a buffer of
    /// another context.
    pub fn tma_read(&self, probe: &TmaReadProbe, src: &DeviceBuffer<u8>, out: &mut DeviceBuffer<u32>) -> Result<u64> {
        const OP: &str = "tma_read";
        let p = *probe;
        let bad = |detail: String| Err(Error::InvalidArgument { op: OP, detail });
        let precision = match p.elem_bytes {
            1 => Precision::Fp8E4m3,
            2 => Precision::Bf16,
            4 => Precision::Fp32,
            e => return bad(format!("elements of {e} bytes: the probe reads 1-, 2- or 4-byte elements")),
        };
        if p.width == 0 || p.height == 0 {
            return bad(format!("an empty tensor ({} × {})", p.width, p.height));
        }
        if !(1..=256).contains(&p.box_w) || !(1..=256).contains(&p.box_h) {
            return bad(format!("a {} × {} box: each dimension must be 1–256 elements", p.box_w, p.box_h));
        }
        let row = p.box_w * p.elem_bytes;
        if row > 128 || !row.is_multiple_of(16) {
            return bad(format!("box rows of {row} bytes: 16–128 bytes, a multiple of 16"));
        }
        let (cols, rows) = p.boxes();
        if p.strip == 0 || !cols.is_multiple_of(p.strip) {
            return bad(format!("a strip of {} boxes across {cols}: it must divide them", p.strip));
        }
        if p.blocks == 0 || p.stages == 0 {
            return bad(format!("blocks ({}) and stages ({}) must be at least 1", p.blocks, p.stages));
        }
        let most = self.max_shared_bytes();
        let shared = match checked_shared_bytes(p.stages, p.box_bytes()) {
            Some(shared) if shared <= most => shared,
            _ => {
                return bad(format!(
                    "{} stages of {} bytes: more shared memory than the {most} bytes a block may have",
                    p.stages,
                    p.box_bytes()
                ))
            }
        };
        if !p.pitch.is_multiple_of(ALIGN) || p.pitch < u64::from(p.width) * u64::from(p.elem_bytes) {
            return Err(Error::Unaligned {
                op: OP,
                detail: format!("rows {} bytes apart: a multiple of {ALIGN}, at least a row ({} bytes)", p.pitch, p.width * p.elem_bytes),
            });
        }
        src.check_context(self, OP)?;
        out.check_context(self, OP)?;
        let needed = p.pitch * u64::from(p.height - 1) + u64::from(p.width * p.elem_bytes);
        if (src.len() as u64) < needed {
            return Err(Error::BufferTooSmall { op: OP, name: "src", len: src.len(), needed: needed as usize });
        }
        if out.len() < p.blocks as usize {
            return Err(Error::BufferTooSmall { op: OP, name: "out", len: out.len(), needed: p.blocks as usize });
        }
        let op = TmaOperand {
            name: "the probe's tensor",
            elem_bytes: p.elem_bytes,
            dims: [u64::from(p.width), u64::from(p.height)],
            row_stride: p.pitch,
            boxdim: [p.box_w, p.box_h],
            layers: None,
        };
        let stream = self.stream();
        let (base, _guard) = src.slice.device_ptr(stream);
        let map = encode(&op, precision, base)?;
        let map = stream.clone_htod(&map.opaque).map_err(Error::driver("uploading the probe's tensor map", 0))?;
        let (map_ptr, _map_guard) = map.device_ptr(stream);
        let box_bytes = p.box_bytes();
        let cfg = LaunchConfig { grid_dim: (p.blocks, 1, 1), block_dim: (TMA_READ_BLOCK, 1, 1), shared_mem_bytes: shared };
        let mut builder = stream.launch_builder(self.kernel("tma_read")?);
        builder.arg(&map_ptr).arg(&cols).arg(&rows).arg(&p.strip).arg(&p.box_w).arg(&p.box_h).arg(&box_bytes).arg(&p.stages);
        builder.arg(&mut out.slice);
        // SAFETY: the map describes `src` (checked to hold the tensor) with boxes of box_w × box_h
        // (rows 16–128 bytes; the swizzle only at 128, as `encode` chooses), uploaded on this stream
        // before the launch and freed stream-ordered after it; `strip` divides `cols`; `out` holds
        // `blocks` words; BLOCK threads and `shared_bytes(stages, box_bytes)` of shared memory, within
        // the device's (checked), box_bytes a multiple of 1024, stages ≥ 1: `tma_read`'s contract.
        self.launched(unsafe { builder.launch(cfg) })?;
        Ok(p.bytes_moved())
    }
}

#[cfg(test)]
mod tests {
    use super::TmaReadProbe;

    /// A 3 × 2 tensor of 2-byte elements in boxes of 2 × 1, rows 16 bytes apart: two strips of one
    /// box (the second hanging over the tensor's edge) down two rows, four units over two blocks.
    #[test]
    fn expected_sums_walk_strips_down_the_rows_and_zero_what_lies_outside() {
        let p = TmaReadProbe { width: 3, height: 2, elem_bytes: 2, pitch: 16, box_w: 2, box_h: 1, strip: 1, blocks: 2, stages: 1 };
        let mut t = vec![0xffu8; 32];
        for (y, row) in [[0x0101u16, 0x0202, 0x0303], [0x1111, 0x2222, 0x3333]].iter().enumerate() {
            for (x, v) in row.iter().enumerate() {
                t[16 * y + 2 * x..][..2].copy_from_slice(&v.to_le_bytes());
            }
        }
        let word = |lo: u32, hi: u32| lo | hi << 16;
        // Block 0: strip 0 down both rows; block 1: strip 1 (element 2, then padding read as 0).
        let want = [word(0x0101, 0x0202).wrapping_add(word(0x1111, 0x2222)), word(0x0303, 0) + word(0x3333, 0)];
        assert_eq!(p.expected_sums(&t), want);
        // Whole rows: one unit of two boxes a row.
        let rows = TmaReadProbe { strip: 2, ..p };
        assert_eq!(rows.expected_sums(&t), [word(0x0101, 0x0202) + word(0x0303, 0), word(0x1111, 0x2222) + word(0x3333, 0)]);
    }
}
