/// Declares a monomorphic entry of [`mma_gemm`](super::mma_tile::mma_gemm) and its launch (a
/// `TileConfig` constant named `$config`): operand kind `$kind` on `$elem` inputs, block tile
/// `$bm × $bn × $bk`, `$wm × $wn` warps, `$s` stages, swizzled or not, the launch bound
/// `min_blocks` blocks per SM (0 = none), and `split_k`: K divided over `gridDim.z` (kernel 20).
macro_rules! mma_entry {
    ($name:ident, $config:ident, $kind:ident, $elem:ty, $bm:literal x $bn:literal x $bk:literal, warps $wm:literal x $wn:literal,
     stages $s:literal, swizzle $sw:literal, $doc:literal) => {
        mma_entry!($name, $config, $kind, $elem, $bm x $bn x $bk, warps $wm x $wn, stages $s, swizzle $sw, min_blocks 0, split false, $doc);
    };
    ($name:ident, $config:ident, $kind:ident, $elem:ty, $bm:literal x $bn:literal x $bk:literal, warps $wm:literal x $wn:literal,
     stages $s:literal, swizzle $sw:literal, min_blocks $mb:literal, $doc:literal) => {
        mma_entry!($name, $config, $kind, $elem, $bm x $bn x $bk, warps $wm x $wn, stages $s, swizzle $sw, min_blocks $mb, split false, $doc);
    };
    ($name:ident, $config:ident, $kind:ident, $elem:ty, $bm:literal x $bn:literal x $bk:literal, warps $wm:literal x $wn:literal,
     stages $s:literal, swizzle $sw:literal, split_k, $doc:literal) => {
        mma_entry!($name, $config, $kind, $elem, $bm x $bn x $bk, warps $wm x $wn, stages $s, swizzle $sw, min_blocks 0, split true, $doc);
    };
    ($name:ident, $config:ident, $kind:ident, $elem:ty, $bm:literal x $bn:literal x $bk:literal, warps $wm:literal x $wn:literal,
     stages $s:literal, swizzle $sw:literal, min_blocks $mb:literal, split $split:literal, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: crate::launch::TileConfig = crate::launch::TileConfig::new(
            $bm,
            $bn,
            $bk,
            32 * $wm * $wn,
            super::mma_tile::shared_bytes(
                $bm,
                $bn,
                $bk,
                $s,
                core::mem::size_of::<$elem>() as u32,
                <super::mma_ops::$kind as super::mma_ops::MmaKind>::B_PAD,
            ),
        )
        .min_blocks_per_sm($mb)
        .split_k_if($split)
        .narrow_copies();

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            /// As [`mma_gemm`](super::mma_tile::mma_gemm), with the launch its `TileConfig` constant
            /// states.
            pub unsafe fn $name(a: *const $elem, b: *const $elem, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe {
                    super::mma_tile::mma_gemm::<
                        super::mma_ops::$kind,
                        $bm,
                        $bn,
                        $bk,
                        $wm,
                        $wn,
                        { $bm / ($wm * 16) },
                        { $bn / ($wn * 8) },
                        $s,
                        $sw,
                        { 32 * $wm * $wn },
                        { ($bm * $bk * core::mem::size_of::<$elem>()) / (16 * 32 * $wm * $wn) },
                        { ($bk * $bn * core::mem::size_of::<$elem>()) / (16 * 32 * $wm * $wn) },
                        $split,
                    >(a, b, c, m, n, k)
                }
            }
        }
    };
}
