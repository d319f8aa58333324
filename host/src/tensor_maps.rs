//! TMA tensor maps for the kernel-15/16 launches: the catalogue describes each operand's map
//! ([`tessera_catalogue::registry::tma::operands`]: dimensions, row stride, the kernel's own box); this encodes
//! it with the driver (`cuTensorMapEncodeTiled`) and keeps both maps in device memory for the launch
//! (`MapCache`: a repeated product on the same buffers reuses them).
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cudarc::driver::sys::{
    self, CUtensorMapDataType, CUtensorMapFloatOOBfill, CUtensorMapInterleave, CUtensorMapL2promotion, CUtensorMapSwizzle,
};
use cudarc::driver::{CudaSlice, CudaStream};
use tessera_catalogue::registry::tma::{TmaOperand, ALIGN, FAST_ROW_BYTES};
use tessera_catalogue::Precision;

use crate::error::{Error, Result};

/// Bytes of one encoded map (`CUtensorMap`).
pub const MAP_BYTES: u64 = 128;

/// How much the L2 fetches from memory around a tensor map's miss, by the operand's row stride: 128
/// bytes where rows lie off a 32-byte sector ([`FAST_ROW_BYTES`]), 256 where they do not. With 256,
/// rows off a sector ran 1.07–1.16× slower: H100, BF16 and FP16 `Auto` on the squares 1240–7000 off
/// a sector, each setting twice, interleaved (`docs/results/2026-12-07-s55`: 3000³ 107.5 against 93.8
/// µs, 7000³ 1236 against 1084); whole-sector rows ran the same within the runs' drift either way.
pub fn l2_promotion(row_stride: u64) -> CUtensorMapL2promotion {
    if row_stride.is_multiple_of(FAST_ROW_BYTES) {
        CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_256B
    } else {
        CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B
    }
}

/// The driver's encoding of `op` over the device address `base` for inputs of `precision`: zero fill
/// outside the tensor, the 128-byte swizzle the `wgmma` descriptors read, the L2 promotion of [`l2_promotion`].
pub fn encode(op: &TmaOperand, precision: Precision, base: u64) -> Result<sys::CUtensorMap> {
    if !base.is_multiple_of(ALIGN) {
        return Err(Error::Unaligned {
            op: "matmul (TMA kernel)",
            detail: format!("{} at {base:#x} is not {ALIGN}-byte aligned", op.name),
        });
    }
    let dtype = match precision {
        Precision::Bf16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        Precision::Fp16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        // TF32 operands are f32 words (A as the caller holds it, which the kernels round in
        // registers; the prepared Bᵀ): the copy moves them unchanged.
        Precision::Tf32 | Precision::Fp32 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        // FP8 elements are bytes to the copy engine.
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT8,
    };
    let mut map = sys::CUtensorMap { opaque: [0; 16] };
    // A 3-D map (a stack of matrices, kernel 26) has one more dimension and stride, boxes one deep.
    let (rank, layers) = match op.layers {
        Some(l) => (3, l),
        None => (2, tessera_catalogue::registry::tma::Layers { count: 1, stride: 0 }),
    };
    let dims = [op.dims[0], op.dims[1], layers.count];
    let strides = [op.row_stride, layers.stride];
    let boxdim = [op.boxdim[0], op.boxdim[1], 1];
    let element_strides = [1u32; 3];
    // SAFETY: every pointer names a live local array of at least the rank's length (`rank` dims, box
    // sizes and element strides, `rank - 1` strides); the driver only encodes (it does not access `base`).
    let status = unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut map,
            dtype,
            rank,
            base as *mut std::ffi::c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            boxdim.as_ptr(),
            element_strides.as_ptr(),
            CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
            l2_promotion(op.row_stride),
            CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    status.result().map_err(Error::driver("encoding a TMA tensor map (cuTensorMapEncodeTiled)", 0))?;
    Ok(map)
}

/// What a pair of encoded maps depends on, and nothing else: the precision (the element type), both
/// operands' descriptions (dimensions, row stride, box) and the base addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct MapKey {
    precision: Precision,
    ops: [TmaOperand; 2],
    x: u64,
    y: u64,
    /// `C`'s map and address, where the kernel stores through one.
    c: Option<(TmaOperand, u64)>,
}

/// Device copies of encoded maps (A's map at byte 0, B's at [`MAP_BYTES`], `C`'s at twice that where
/// there is one), one per distinct
/// [`MapKey`]: a launch whose maps were uploaded before reuses them, with no encoding and no upload
/// in its stream (at 512³ the upload was a copy, an allocation and a free per launch). A map is a
/// pure function of its key, so an entry is right for any buffer that later lives at the same
/// address with the same shape. At most [`MapCache::CAPACITY`] entries; when full it is emptied
/// (each dropped buffer is freed stream-ordered, after the launches that read it).
#[derive(Default)]
pub(crate) struct MapCache(Mutex<HashMap<MapKey, Arc<CudaSlice<u64>>>>);

impl MapCache {
    /// Entries kept before the cache is emptied (256 bytes of device memory each).
    pub const CAPACITY: usize = 256;

    /// Both operands' maps over `x` and `y` in device memory, and `C`'s (`f32`) over its address
    /// where given: the cached ones, or encoded and uploaded on `stream` (ordered before any later use
    /// on another stream by cudarc's events).
    pub fn maps(
        &self,
        stream: &Arc<CudaStream>,
        ops: &[TmaOperand; 2],
        precision: Precision,
        x: u64,
        y: u64,
        c: Option<(TmaOperand, u64)>,
    ) -> Result<Arc<CudaSlice<u64>>> {
        let key = MapKey { precision, ops: *ops, x, y, c };
        let mut cache = self.0.lock().map_err(|_| Error::ContextPoisoned("the tensor-map cache lock was poisoned".into()))?;
        if let Some(maps) = cache.get(&key) {
            return Ok(maps.clone());
        }
        let (a, b) = (encode(&ops[0], precision, x)?, encode(&ops[1], precision, y)?);
        let mut words: Vec<u64> = a.opaque.iter().chain(b.opaque.iter()).copied().collect();
        if let Some((op, base)) = c {
            words.extend(encode(&op, Precision::Fp32, base)?.opaque);
        }
        let maps = Arc::new(stream.clone_htod(&words).map_err(Error::driver("uploading TMA tensor maps", 0))?);
        if cache.len() >= Self::CAPACITY {
            cache.clear();
        }
        cache.insert(key, maps.clone());
        Ok(maps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_off_a_sector_promote_128_bytes_and_whole_sectors_256() {
        use CUtensorMapL2promotion::{CU_TENSOR_MAP_L2_PROMOTION_L2_128B as P128, CU_TENSOR_MAP_L2_PROMOTION_L2_256B as P256};
        // BF16 rows: 3008 elements (6016 bytes, whole sectors), 3000 (6000: 16 off), 24 (48: 16 off).
        assert_eq!(l2_promotion(3008 * 2), P256);
        assert_eq!(l2_promotion(3000 * 2), P128);
        assert_eq!(l2_promotion(24 * 2), P128);
        // f32 rows (TF32): 4 elements off a multiple of 8 are 16 bytes off.
        assert_eq!(l2_promotion(1004 * 4), P128);
        assert_eq!(l2_promotion(1000 * 4), P256);
    }
}
