//! The entries that run many products in one launch — kernel 26 (BF16, FP16 on Hopper: strided-batched
//! or grouped), kernel 28 (FP32) and kernel 30 (BF16, FP16: batches, strided or of pointers) — one
//! line each, and [`GroupedAlgo`], which names them (or `Auto`).
use tessera_kernels::device::tma::TensorMap;
use tessera_kernels::launch::TileConfig;
use tessera_kernels::matmul::{k26_grouped, k28_batched_f32, k30_batched_mma};

use crate::precision::Precision::{self, Bf16, Fp16, Fp32};

/// The host build of a kernel-26 entry: `(map_a, map_b, c, m, n, k, offsets, count, a_batched,
/// b_batched, c_stride)` (`k26_grouped::grouped_gemm`'s contract); A's and B's maps are 3-D.
pub type GroupedMatmulFn = unsafe fn(*const TensorMap, *const TensorMap, *mut f32, u32, u32, u32, *const u32, u32, u32, u32, usize);

/// The host build of a kernel-26 finishing twin: [`GroupedMatmulFn`]'s arguments, then `(alpha, out,
/// bias, epilogue)` (`k26_grouped::grouped_finished_gemm`'s contract).
pub type GroupedFinishedFn =
    unsafe fn(*const TensorMap, *const TensorMap, *mut f32, u32, u32, u32, *const u32, u32, u32, u32, usize, f32, u32, *const f32, u32);

/// The host build of a kernel-28 (`T = f32`) or kernel-30 (`u16`) entry: `(a, b, c, m, n, k,
/// stride_a, stride_b, stride_c, table)`, the matrix `blockIdx.z` (`table` null: a strided batch;
/// else its addresses, `tessera_kernels::matmul::batch_member`).
pub type BatchedFn<T> = unsafe fn(*const T, *const T, *mut f32, u32, u32, u32, usize, usize, usize, *const u64);

/// The host build of a kernel-30 entry: [`BatchedFn`]'s arguments on the 16-bit inputs' bits, then
/// `C`'s type (`out`, `k27_fused::out`; `stride_c` counts its elements).
pub type Batched16Fn = unsafe fn(*const u16, *const u16, *mut f32, u32, u32, u32, usize, usize, usize, *const u64, u32);

/// An entry's host build (the CPU executor), by how it reads its operands.
#[derive(Debug, Clone, Copy)]
pub enum GroupedHost {
    /// Kernel 26: through 3-D tensor maps, and its twin that finishes its sums (`entry`, build).
    Tma { host: GroupedMatmulFn, finished: (&'static str, GroupedFinishedFn) },
    /// Kernel 28 (FP32): through pointers, and its by-rows twin (`entry`, build) for N not a multiple
    /// of 4.
    PointersF32 { host: BatchedFn<f32>, by_rows: (&'static str, BatchedFn<f32>) },
    /// Kernel 30 (BF16, FP16 as their bits): through pointers, `C` in `f32` or a 16-bit type.
    Pointers16(Batched16Fn),
}

impl GroupedHost {
    /// Whether the entry reads its operands through pointers (kernels 28 and 30: batches only,
    /// strided or of pointers), not tensor maps.
    pub fn pointers(&self) -> bool {
        !matches!(self, GroupedHost::Tma { .. })
    }

    /// The finishing twin's entry name (kernel 26's), if it has one.
    pub fn finished(&self) -> Option<&'static str> {
        match self {
            GroupedHost::Tma { finished, .. } => Some(finished.0),
            _ => None,
        }
    }

    /// The by-rows twin's entry name (kernel 28's), if it has one.
    pub fn twin(&self) -> Option<&'static str> {
        match self {
            GroupedHost::PointersF32 { by_rows, .. } => Some(by_rows.0),
            _ => None,
        }
    }
}

/// One entry that runs many products.
#[derive(Debug, Clone, Copy)]
pub struct GroupedKernel {
    pub algo: GroupedAlgo,
    /// The PTX entry name.
    pub entry: &'static str,
    /// A short label for tables and command lines.
    pub label: &'static str,
    /// The precision it computes in (its inputs' type).
    pub precision: Precision,
    /// Launch geometry, from the kernel file's own constant.
    pub config: TileConfig,
    /// The same kernel compiled for the host (the CPU executor).
    pub host: GroupedHost,
}

/// A line's host build, by the kernel's module.
macro_rules! grouped_host {
    (k26_grouped, $entry:ident / $twin:ident) => {
        GroupedHost::Tma { host: k26_grouped::$entry, finished: (stringify!($twin), k26_grouped::$twin) }
    };
    (k28_batched_f32, $entry:ident / $twin:ident) => {
        GroupedHost::PointersF32 { host: k28_batched_f32::$entry, by_rows: (stringify!($twin), k28_batched_f32::$twin) }
    };
    (k30_batched_mma, $entry:ident) => {
        GroupedHost::Pointers16(k30_batched_mma::$entry)
    };
}

macro_rules! grouped_catalogue {
    ($( $(#[$doc:meta])* $variant:ident = $module:ident :: $entry:ident $(/ $twin:ident)?, $label:literal, $precision:ident, $config:ident; )*) => {
        /// Which kernel runs a batch or groups of products ([`crate::plan::grouped`]): one of kernel
        /// 26's, 28's or 30's tiles, or `Auto` (the models' pick: [`crate::plan::grouped::plan`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum GroupedAlgo {
            $( $(#[$doc])* $variant, )*
            /// The tile of least predicted time for the products.
            #[default]
            Auto,
        }

        /// Every entry that runs many products.
        pub static GROUPED_KERNELS: [GroupedKernel; [$(stringify!($variant)),*].len()] = [
            $( GroupedKernel {
                algo: GroupedAlgo::$variant,
                entry: stringify!($entry),
                label: $label,
                precision: $precision,
                config: $module::$config,
                host: grouped_host!($module, $entry $(/ $twin)?),
            }, )*
        ];
    };
}

grouped_catalogue! {
    /// BF16, 128×128 tiles.
    Bf16 = k26_grouped::matmul_grouped_bf16_128x128 / matmul_grouped_bf16_128x128_finished, "grouped-bf16-128x128", Bf16, GROUPED_BF16_128X128;
    /// BF16, 128×256 tiles.
    Bf16Wide = k26_grouped::matmul_grouped_bf16_128x256 / matmul_grouped_bf16_128x256_finished, "grouped-bf16-128x256", Bf16, GROUPED_BF16_128X256;
    /// BF16, 64×128 tiles.
    Bf16Rows64 = k26_grouped::matmul_grouped_bf16_64x128 / matmul_grouped_bf16_64x128_finished, "grouped-bf16-64x128", Bf16, GROUPED_BF16_64X128;
    /// FP16, 128×128 tiles.
    F16 = k26_grouped::matmul_grouped_f16_128x128 / matmul_grouped_f16_128x128_finished, "grouped-f16-128x128", Fp16, GROUPED_F16_128X128;
    /// FP16, 128×256 tiles.
    F16Wide = k26_grouped::matmul_grouped_f16_128x256 / matmul_grouped_f16_128x256_finished, "grouped-f16-128x256", Fp16, GROUPED_F16_128X256;
    /// FP16, 64×128 tiles.
    F16Rows64 = k26_grouped::matmul_grouped_f16_64x128 / matmul_grouped_f16_64x128_finished, "grouped-f16-64x128", Fp16, GROUPED_F16_64X128;
    /// FP32 (kernel 28: a batch only), kernel 8's 128×128×16 tiles.
    F32 = k28_batched_f32::matmul_batched_dbuf_128x128x16 / matmul_batched_dbuf_128x128x16_by_rows, "batched-f32-128x128x16", Fp32, BATCHED_DBUF_128X128X16;
    /// FP32 (kernel 28), kernel 8's 128×256×16 tiles.
    F32Wide = k28_batched_f32::matmul_batched_dbuf_128x256x16 / matmul_batched_dbuf_128x256x16_by_rows, "batched-f32-128x256x16", Fp32, BATCHED_DBUF_128X256X16;
    /// FP32 (kernel 28), kernel 8's 64×64×16 tiles.
    F32Small = k28_batched_f32::matmul_batched_dbuf_64x64x16 / matmul_batched_dbuf_64x64x16_by_rows, "batched-f32-64x64x16", Fp32, BATCHED_DBUF_64X64X16;
    /// BF16 (kernel 30: a batch only, any GPU with `mma.sync`), kernel 13's 128×128×32 tiles.
    MmaBf16 = k30_batched_mma::matmul_batched_mma_bf16_128x128, "batched-mma-bf16-128x128", Bf16, BATCHED_MMA_BF16_128X128;
    /// BF16 (kernel 30), 64×128×32 tiles.
    MmaBf16Rows64 = k30_batched_mma::matmul_batched_mma_bf16_64x128, "batched-mma-bf16-64x128", Bf16, BATCHED_MMA_BF16_64X128;
    /// FP16 (kernel 30), kernel 13's 128×128×32 tiles.
    MmaF16 = k30_batched_mma::matmul_batched_mma_f16_128x128, "batched-mma-f16-128x128", Fp16, BATCHED_MMA_F16_128X128;
    /// FP16 (kernel 30), 64×128×32 tiles.
    MmaF16Rows64 = k30_batched_mma::matmul_batched_mma_f16_64x128, "batched-mma-f16-64x128", Fp16, BATCHED_MMA_F16_64X128;
}

/// One line per algo: two lines are the same kernel when they name the same one.
impl PartialEq for GroupedKernel {
    fn eq(&self, other: &Self) -> bool {
        self.algo == other.algo
    }
}

impl GroupedAlgo {
    /// Its catalogue line (`None` for `Auto`).
    pub fn kernel(self) -> Option<&'static GroupedKernel> {
        GROUPED_KERNELS.iter().find(|k| k.algo == self)
    }

    /// The single-product kernel whose tile a kernel-28 or kernel-30 entry runs over a batch (kernel
    /// 8's; kernel 13's or 20's), which the in-place kernels' model times it as; `None` for kernel
    /// 26's and `Auto`.
    pub fn single(self) -> Option<crate::Algo> {
        use crate::Algo;
        match self {
            GroupedAlgo::F32 => Some(Algo::Dbuf128x128x16),
            GroupedAlgo::F32Small => Some(Algo::Dbuf64x64x16),
            GroupedAlgo::F32Wide => Some(Algo::Dbuf128x256x16),
            GroupedAlgo::MmaBf16 => Some(Algo::MmaPipeBf16x128),
            GroupedAlgo::MmaBf16Rows64 => Some(Algo::MmaSplitKBf16Rows64),
            GroupedAlgo::MmaF16 => Some(Algo::MmaPipeF16x128),
            GroupedAlgo::MmaF16Rows64 => Some(Algo::MmaSplitKF16Rows64),
            _ => None,
        }
    }

    /// The kernel whose label this is.
    pub fn from_label(label: &str) -> Option<GroupedAlgo> {
        GROUPED_KERNELS.iter().find(|k| k.label == label).map(|k| k.algo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_names_its_own_entry_and_a_tile_that_fits_one_block() {
        const MAX_SHARED: u32 = 227 * 1024;
        for k in &GROUPED_KERNELS {
            assert!(k.entry.starts_with("matmul_grouped_") || k.entry.starts_with("matmul_batched_"), "{}", k.entry);
            assert!(k.label.contains(&format!("{}x{}", k.config.bm, k.config.bn)), "{}: {:?}", k.label, k.config);
            // A batch kernel is timed as the single product whose tile it runs: the same tile.
            if let Some(single) = k.algo.single() {
                let s = single.kernel().expect("a concrete kernel");
                let (c, sc) = (k.config, s.config);
                assert_eq!((sc.bm, sc.bn, sc.bk, sc.threads()), (c.bm, c.bn, c.bk, c.threads()), "{}", k.label);
                assert_eq!(s.precision, k.precision, "{}", k.label);
            }
            match k.host {
                GroupedHost::Tma { finished, .. } => {
                    assert!(k.config.persistent && k.config.tma && k.config.sm90a, "{}", k.label);
                    assert_eq!(finished.0, format!("{}_finished", k.entry), "{}", k.label);
                }
                GroupedHost::PointersF32 { by_rows, .. } => {
                    assert!(!k.config.tma && !k.config.sm90a && by_rows.0 == format!("{}_by_rows", k.entry), "{}", k.label)
                }
                GroupedHost::Pointers16(_) => assert!(!k.config.tma && !k.config.sm90a && !k.config.split_k, "{}", k.label),
            }
            assert!(k.config.shared_bytes <= MAX_SHARED, "{}", k.label);
            assert_eq!(GroupedAlgo::from_label(k.label), Some(k.algo));
            assert_eq!(k.algo.kernel().map(|l| l.entry), Some(k.entry));
        }
        assert!(GroupedAlgo::Auto.kernel().is_none());
    }
}
