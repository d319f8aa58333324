//! The TMA read probe (`tessera_kernels::tma_read`) on the CPU executor: each block's sum of the
//! first word of every box it loaded, against the same walk done here over the tensor, for walks of
//! whole rows and of column strips, tensors whose edge boxes hang over, and rings shallower than the
//! walk.
use tessera_emulator::{launch, Launch, SyncPtr};
use tessera_kernels::device::tma::TensorMap;
use tessera_kernels::tma_read::{shared_bytes, tma_read, BLOCK};

/// A `width × height` tensor of 2-byte elements whose element `(x, y)` is `x + 1000·y` (mod 2¹⁶).
fn tensor(width: u32, height: u32) -> Vec<u16> {
    (0..height).flat_map(|y| (0..width).map(move |x| (x + 1000 * y) as u16)).collect()
}

/// The 32-bit word at element `(x, y)` (two elements, little-endian; zero outside the tensor).
fn word(t: &[u16], (width, height): (u32, u32), (x, y): (i32, i32)) -> u32 {
    let at =
        |x: i32| if x >= 0 && (x as u32) < width && y >= 0 && (y as u32) < height { t[(y as u32 * width + x as u32) as usize] } else { 0 };
    u32::from(at(x)) | (u32::from(at(x + 1)) << 16)
}

fn check(width: u32, height: u32, (box_w, box_h): (u32, u32), strip: u32, grid: u32, stages: u32) {
    let t = tensor(width, height);
    let pitch = u64::from(width) * 2;
    let swizzle = box_w * 2 == 128;
    let map = TensorMap::host_model(t.as_ptr().cast(), 2, [u64::from(width), u64::from(height)], pitch, [box_w, box_h], swizzle);
    let (cols, rows) = (width.div_ceil(box_w), height.div_ceil(box_h));
    let box_bytes = (box_w * box_h * 2).next_multiple_of(1024);
    let mut out = vec![0xdead_beef_u32; grid as usize];
    let (pm, po) = (SyncPtr::from_const(&map as *const TensorMap), SyncPtr::new(out.as_mut_ptr()));
    let cfg = Launch::new((grid, 1, 1), (BLOCK, 1, 1), shared_bytes(stages, box_bytes) as usize);
    // SAFETY: the map describes `t` (alive until the launch returns) with these boxes; out holds grid
    // words; the launch has BLOCK threads and the shared bytes of `stages` boxes of box_bytes.
    launch("tma_read", cfg, || unsafe { tma_read(pm.get(), cols, rows, strip, box_w, box_h, box_bytes, stages, po.get()) })
        .unwrap_or_else(|e| panic!("{e}"));
    // The walk as the kernel's documentation states it: units down each strip of `strip` boxes,
    // block b taking units ⌊b·U/G⌋ .. ⌊(b+1)·U/G⌋.
    let units = u64::from(cols / strip * rows);
    for (b, &got) in out.iter().enumerate() {
        let (u0, u1) = (b as u64 * units / u64::from(grid), (b as u64 + 1) * units / u64::from(grid));
        let origin = |u: u64, j: u32| (((u as u32 / rows) * strip + j) * box_w, (u as u32 % rows) * box_h);
        let want = (u0..u1)
            .flat_map(|u| (0..strip).map(move |j| origin(u, j)))
            .fold(0u32, |s, (x, y)| s.wrapping_add(word(&t, (width, height), (x as i32, y as i32))));
        assert_eq!(got, want, "{width}×{height}, box {box_w}×{box_h}, strip {strip}, {grid} blocks, {stages} stages: block {b}");
    }
}

#[test]
fn each_block_loads_its_units_boxes() {
    // A's walk: whole rows of 64-element (128-byte, swizzled) boxes, rows 16 bytes off a sector.
    check(3000, 300, (64, 128), 3000usize.div_ceil(64) as u32, 5, 4);
    // B's decode walk: strips of 4 boxes of 64 × 64 down the rows, more units than the ring.
    check(1024, 512, (64, 64), 4, 3, 3);
    // One box a unit, unswizzled 32-element boxes, more blocks than units (empty blocks write 0).
    check(96, 40, (32, 16), 1, 11, 2);
}
