//! Small matrix-vector products (N = 1) go to kernel 19's 16-bit entries, whose one-column body
//! reads `A` once in one launch (`docs/ladder/k19-few-cols.md`): measured on an H100 at 3.0–4.9 µs
//! where cuBLAS took 4.0–6.8 and the tensor-core kernels `Auto` took before, 7–12.
use tessera_catalogue::registry::algo::Algo;
use tessera_catalogue::select::model_choice;
use tessera_catalogue::{MatmulShape, Precision, Target};

#[test]
fn auto_takes_kernel_19_on_small_matrix_vector_products() {
    for (m, k) in [(584, 368), (855, 1512), (96, 13184), (4000, 4096)] {
        let shape = MatmulShape { m, n: 1, k };
        for (precision, entries) in
            [(Precision::Bf16, [Algo::FewColsBf16, Algo::FewColsKsplitBf16]), (Precision::Fp16, [Algo::FewColsF16, Algo::FewColsKsplitF16])]
        {
            let pick = model_choice(shape, precision, Target::H200).kernel();
            assert!(entries.contains(&pick), "{m}×1×{k} {precision:?}: Auto took {}", pick.label());
        }
    }
}

/// Where K is odd, kernel 19's loop streams `A`'s unaligned rows at 1.6–2.0 TB/s (H200, d1836bb:
/// `docs/results/2026-12-06-s46/k5-d1836bb`); `Auto` priced them at the 820 GB/s odd-rows floor of the
/// kernels measured element by element and took a tensor-core tile at twice the time (1505×4×13967
/// BF16: 46–50 µs measured, kernel 19 23). Large few-column products with odd K go to kernel 19.
#[test]
fn auto_takes_kernel_19_on_few_columns_with_odd_k() {
    for (m, n, k) in [(1505, 4, 13967), (14104, 4, 2161), (1245, 1, 5839)] {
        let shape = MatmulShape { m, n, k };
        for (precision, entries) in
            [(Precision::Bf16, [Algo::FewColsBf16, Algo::FewColsKsplitBf16]), (Precision::Fp16, [Algo::FewColsF16, Algo::FewColsKsplitF16])]
        {
            let pick = model_choice(shape, precision, Target::H200).kernel();
            assert!(entries.contains(&pick), "{m}×{n}×{k} {precision:?}: Auto took {}", pick.label());
        }
    }
}
