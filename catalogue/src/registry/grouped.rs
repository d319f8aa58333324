//! Kernel 26's entries — many products in one launch, strided-batched or grouped — one line each,
//! and [`GroupedAlgo`], which names them (or `Auto`).
use tessera_kernels::device::tma::TensorMap;
use tessera_kernels::launch::TileConfig;
use tessera_kernels::matmul::k26_grouped as k26;

use crate::precision::Precision::{self, Bf16, Fp16};

/// The host build of a kernel-26 entry: `(map_a, map_b, c, m, n, k, offsets, count, a_batched,
/// b_batched, c_stride)` (`k26_grouped::grouped_gemm`'s contract); A's and B's maps are 3-D.
pub type GroupedMatmulFn = unsafe fn(*const TensorMap, *const TensorMap, *mut f32, u32, u32, u32, *const u32, u32, u32, u32, usize);

/// One kernel-26 entry.
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
    pub host: GroupedMatmulFn,
}

macro_rules! grouped_catalogue {
    ($( $(#[$doc:meta])* $variant:ident = $entry:ident, $label:literal, $precision:ident, $config:ident; )*) => {
        /// Which kernel runs a batch or groups of products ([`crate::plan::grouped`]): one of kernel
        /// 26's tiles, or `Auto` (the model's pick, [`crate::select::tc_model::predict_products_us`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum GroupedAlgo {
            $( $(#[$doc])* $variant, )*
            /// The tile of least predicted time for the products.
            #[default]
            Auto,
        }

        /// Every kernel-26 entry.
        pub static GROUPED_KERNELS: [GroupedKernel; [$(stringify!($variant)),*].len()] = [
            $( GroupedKernel {
                algo: GroupedAlgo::$variant,
                entry: stringify!($entry),
                label: $label,
                precision: $precision,
                config: k26::$config,
                host: k26::$entry,
            }, )*
        ];
    };
}

grouped_catalogue! {
    /// BF16, 128×128 tiles.
    Bf16 = matmul_grouped_bf16_128x128, "grouped-bf16-128x128", Bf16, GROUPED_BF16_128X128;
    /// BF16, 128×256 tiles.
    Bf16Wide = matmul_grouped_bf16_128x256, "grouped-bf16-128x256", Bf16, GROUPED_BF16_128X256;
    /// BF16, 64×128 tiles.
    Bf16Rows64 = matmul_grouped_bf16_64x128, "grouped-bf16-64x128", Bf16, GROUPED_BF16_64X128;
    /// FP16, 128×128 tiles.
    F16 = matmul_grouped_f16_128x128, "grouped-f16-128x128", Fp16, GROUPED_F16_128X128;
    /// FP16, 128×256 tiles.
    F16Wide = matmul_grouped_f16_128x256, "grouped-f16-128x256", Fp16, GROUPED_F16_128X256;
    /// FP16, 64×128 tiles.
    F16Rows64 = matmul_grouped_f16_64x128, "grouped-f16-64x128", Fp16, GROUPED_F16_64X128;
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
            assert!(k.entry.starts_with("matmul_grouped_"), "{}", k.entry);
            assert!(k.label.contains(&format!("{}x{}", k.config.bm, k.config.bn)), "{}: {:?}", k.label, k.config);
            assert!(k.config.persistent && k.config.tma && k.config.sm90a && k.config.shared_bytes <= MAX_SHARED, "{}", k.label);
            assert_eq!(GroupedAlgo::from_label(k.label), Some(k.algo));
            assert_eq!(k.algo.kernel().map(|l| l.entry), Some(k.entry));
        }
        assert!(GroupedAlgo::Auto.kernel().is_none());
    }
}
