//! TMA tensor maps for the kernel-15 launches: the catalogue describes each operand's map
//! ([`tessera_catalogue::tma::operands`]: dimensions, row stride, the kernel's own box); this encodes
//! it with the driver (`cuTensorMapEncodeTiled`) and uploads both maps, stream-ordered, for the launch.
use std::sync::Arc;

use cudarc::driver::sys::{
    self, CUtensorMapDataType, CUtensorMapFloatOOBfill, CUtensorMapInterleave, CUtensorMapL2promotion, CUtensorMapSwizzle,
};
use cudarc::driver::{CudaSlice, CudaStream};
use tessera_catalogue::tma::{TmaOperand, ALIGN};
use tessera_catalogue::Precision;

use crate::error::{Error, Result};

/// Bytes of one encoded map (`CUtensorMap`).
pub const MAP_BYTES: u64 = 128;

/// The driver's encoding of `op` over the device address `base` for inputs of `precision`: zero fill
/// outside the tensor, the 128-byte swizzle the `wgmma` descriptors read.
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
        // TF32 operands are prepared (rounded) f32 words: the copy moves them unchanged.
        Precision::Tf32 | Precision::Fp32 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
    };
    let mut map = sys::CUtensorMap { opaque: [0; 16] };
    let (strides, element_strides) = ([op.row_stride], [1u32, 1]);
    // SAFETY: every pointer names a live local array of the rank's length (2 dims, 1 stride, 2 box
    // sizes, 2 element strides); the driver only encodes (it does not access `base`).
    let status = unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut map,
            dtype,
            2,
            base as *mut std::ffi::c_void,
            op.dims.as_ptr(),
            strides.as_ptr(),
            op.boxdim.as_ptr(),
            element_strides.as_ptr(),
            CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
            CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    status.result().map_err(Error::driver("encoding a TMA tensor map (cuTensorMapEncodeTiled)", 0))?;
    Ok(map)
}

/// Both operands' maps, encoded over `x` and `y` and copied to a fresh device buffer on `stream`
/// (A's map at byte 0, B's at [`MAP_BYTES`]); the buffer is freed stream-ordered when dropped, after
/// the launch that reads it.
pub fn upload(stream: &Arc<CudaStream>, ops: &[TmaOperand; 2], precision: Precision, x: u64, y: u64) -> Result<CudaSlice<u64>> {
    let (a, b) = (encode(&ops[0], precision, x)?, encode(&ops[1], precision, y)?);
    let words: Vec<u64> = a.opaque.iter().chain(b.opaque.iter()).copied().collect();
    stream.clone_htod(&words).map_err(Error::driver("uploading TMA tensor maps", 0))
}
