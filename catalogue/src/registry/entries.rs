//! Every entry of the two PTX modules, with the launch bound the PTX link step (tessera-builder) writes into it: the `sm_90`
//! module (every kernel that runs on any GPU from sm_90 on) and the `sm_90a` module (kernels with
//! Hopper-only instructions, loaded on compute capability 9.0 only).
use tessera_kernels::{epilogue, fp8, iterated_fma, mma_rate, pack, tma_read, vec_add, vec_add_vec4, wgmma_rate, zero_fill};

use crate::registry::algo::MATMUL_KERNELS;

/// One `.entry` of the PTX module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub name: &'static str,
    /// Threads per block the host launches.
    pub threads: u32,
    /// The launch bound (`.maxntid threads` + `.minnctapersm`), 0 for none.
    pub min_blocks_per_sm: u32,
    /// Blocks per cluster along `x` (`.reqnctapercluster`), 1 for none.
    pub cluster: u32,
    /// In the `sm_90a` module (Hopper-only instructions) rather than the `sm_90` one.
    pub sm90a: bool,
}

/// The kernels other than matmul: entry name and threads per block.
const OTHER_KERNELS: [(&str, u32); 25] = [
    ("vec_add", vec_add::BLOCK),
    ("vec_add_vec4", vec_add_vec4::BLOCK),
    ("zero_f32", zero_fill::BLOCK),
    ("iterated_fma", iterated_fma::BLOCK),
    ("diagnostic_trap", 1),
    ("mma_rate_tf32", mma_rate::BLOCK),
    ("mma_rate_bf16", mma_rate::BLOCK),
    ("mma_rate_f16", mma_rate::BLOCK),
    ("tf32_round", pack::BLOCK.0 * pack::BLOCK.1),
    ("tf32_transpose_round", pack::BLOCK.0 * pack::BLOCK.1),
    ("pack_b32", pack::BLOCK.0 * pack::BLOCK.1),
    ("pack_b16", pack::BLOCK.0 * pack::BLOCK.1),
    ("pack_b8", pack::BLOCK.0 * pack::BLOCK.1),
    ("pad_b16", pack::BLOCK.0 * pack::BLOCK.1),
    ("copy_padded_f32", pack::BLOCK.0 * pack::BLOCK.1),
    ("gemm_epilogue", epilogue::BLOCK.0 * epilogue::BLOCK.1),
    ("gemm_scale", epilogue::BLOCK.0 * epilogue::BLOCK.1),
    ("gemm_finish_f32", epilogue::BLOCK.0 * epilogue::BLOCK.1),
    ("gemm_finish_bf16", epilogue::BLOCK.0 * epilogue::BLOCK.1),
    ("gemm_finish_f16", epilogue::BLOCK.0 * epilogue::BLOCK.1),
    ("f32_to_e4m3", fp8::BLOCK),
    ("f32_to_e5m2", fp8::BLOCK),
    ("bf16_to_e4m3", fp8::BLOCK),
    ("bf16_to_e5m2", fp8::BLOCK),
    ("tma_read", tma_read::BLOCK),
];

/// The kernels other than matmul in the `sm_90a` module: entry name and threads per block.
const OTHER_SM90A_KERNELS: [(&str, u32); 5] = [
    ("wgmma_rate_bf16", wgmma_rate::BLOCK),
    ("wgmma_rate_f16", wgmma_rate::BLOCK),
    ("wgmma_rate_tf32", wgmma_rate::BLOCK),
    ("wgmma_rate_e4m3", wgmma_rate::BLOCK),
    ("wgmma_rate_e5m2", wgmma_rate::BLOCK),
];

/// Every PTX entry: the matmul kernels of [`MATMUL_KERNELS`] (with their by-rows twins), kernel 26's
/// ([`crate::registry::grouped`]), then the others (`sm_90` ones, then
/// `sm_90a` ones).
pub fn entries() -> Vec<Entry> {
    // Each kernel's entry, then its by-rows twin (same launch) where it has one.
    let matmul = MATMUL_KERNELS.iter().flat_map(|k| {
        let names = core::iter::once(k.entry).chain(k.by_rows.map(|twin| twin.entry));
        names.map(|name| Entry {
            name,
            threads: k.config.threads(),
            min_blocks_per_sm: k.config.min_blocks_per_sm,
            cluster: k.config.cluster,
            sm90a: k.config.sm90a,
        })
    });
    let other = OTHER_KERNELS.iter().map(|&(name, threads)| Entry { name, threads, min_blocks_per_sm: 0, cluster: 1, sm90a: false });
    let other_sm90a =
        OTHER_SM90A_KERNELS.iter().map(|&(name, threads)| Entry { name, threads, min_blocks_per_sm: 0, cluster: 1, sm90a: true });
    // Kernel 26's, 28's and 30's entries (and 28's by-rows twins, 26's finishing twins), with their launch.
    let grouped = crate::registry::grouped::GROUPED_KERNELS.iter().flat_map(|k| {
        core::iter::once(k.entry).chain(k.host.twin()).chain(k.host.finished()).map(|name| Entry {
            name,
            threads: k.config.threads(),
            min_blocks_per_sm: k.config.min_blocks_per_sm,
            cluster: k.config.cluster,
            sm90a: k.config.sm90a,
        })
    });
    matmul.chain(grouped).chain(other).chain(other_sm90a).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_kernels::tf32_operands;

    #[test]
    fn entry_names_are_unique_and_match_the_kernel_functions() {
        let names: Vec<_> = entries().iter().map(|e| e.name).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "duplicate entry names in {names:?}");
        // The element-wise names are written by hand: check them against the host builds' symbols.
        assert!(std::any::type_name_of_val(&vec_add::vec_add).ends_with("::vec_add"));
        assert!(std::any::type_name_of_val(&vec_add_vec4::vec_add_vec4).ends_with("::vec_add_vec4"));
        assert!(std::any::type_name_of_val(&zero_fill::zero_f32).ends_with("::zero_f32"));
        assert!(std::any::type_name_of_val(&iterated_fma::iterated_fma).ends_with("::iterated_fma"));
        assert!(std::any::type_name_of_val(&tma_read::tma_read).ends_with("::tma_read"));
        assert!(std::any::type_name_of_val(&pack::pack_b32).ends_with("::pack_b32"));
        assert!(std::any::type_name_of_val(&pack::pack_b16).ends_with("::pack_b16"));
        assert!(std::any::type_name_of_val(&pack::pack_b8).ends_with("::pack_b8"));
        assert!(std::any::type_name_of_val(&pack::pad_b16).ends_with("::pad_b16"));
        assert!(std::any::type_name_of_val(&pack::copy_padded_f32).ends_with("::copy_padded_f32"));
        assert!(std::any::type_name_of_val(&tf32_operands::tf32_round).ends_with("::tf32_round"));
        assert!(std::any::type_name_of_val(&tf32_operands::tf32_transpose_round).ends_with("::tf32_transpose_round"));
        assert!(std::any::type_name_of_val(&epilogue::gemm_epilogue).ends_with("::gemm_epilogue"));
        assert!(std::any::type_name_of_val(&epilogue::gemm_scale).ends_with("::gemm_scale"));
        assert!(std::any::type_name_of_val(&epilogue::gemm_finish_f32).ends_with("::gemm_finish_f32"));
        assert!(std::any::type_name_of_val(&epilogue::gemm_finish_bf16).ends_with("::gemm_finish_bf16"));
        assert!(std::any::type_name_of_val(&epilogue::gemm_finish_f16).ends_with("::gemm_finish_f16"));
        assert!(std::any::type_name_of_val(&fp8::f32_to_e4m3).ends_with("::f32_to_e4m3"));
        assert!(std::any::type_name_of_val(&fp8::f32_to_e5m2).ends_with("::f32_to_e5m2"));
        assert!(std::any::type_name_of_val(&fp8::bf16_to_e4m3).ends_with("::bf16_to_e4m3"));
        assert!(std::any::type_name_of_val(&fp8::bf16_to_e5m2).ends_with("::bf16_to_e5m2"));
        assert!(std::any::type_name_of_val(&wgmma_rate::wgmma_rate_bf16).ends_with("::wgmma_rate_bf16"));
        assert!(std::any::type_name_of_val(&wgmma_rate::wgmma_rate_f16).ends_with("::wgmma_rate_f16"));
        assert!(std::any::type_name_of_val(&wgmma_rate::wgmma_rate_tf32).ends_with("::wgmma_rate_tf32"));
        assert!(std::any::type_name_of_val(&wgmma_rate::wgmma_rate_e4m3).ends_with("::wgmma_rate_e4m3"));
        assert!(std::any::type_name_of_val(&wgmma_rate::wgmma_rate_e5m2).ends_with("::wgmma_rate_e5m2"));
    }

    #[test]
    fn launch_bounds_come_from_the_tile_configs() {
        let all = entries();
        let entry = |name: &str| *all.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("no entry {name}"));
        let dbuf = entry("matmul_dbuf_64x64x16");
        assert_eq!((dbuf.threads, dbuf.min_blocks_per_sm, dbuf.cluster), (128, 4, 1));
        assert_eq!(entry("matmul_naive").min_blocks_per_sm, 0);
        let cluster = entry("matmul_cluster_bf16_128x256");
        assert_eq!((cluster.threads, cluster.min_blocks_per_sm, cluster.cluster, cluster.sm90a), (384, 1, 2, true));
    }
}
