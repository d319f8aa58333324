/// Declares a monomorphic entry of [`mma_gemm`](super::mma_tile::mma_gemm) and its launch (a
/// `TileConfig` constant named `$config`): operand kind `$kind` on `$elem` inputs, block tile
/// `$bm × $bn × $bk`, `$wm × $wn` warps, `$s` stages, swizzled or not, the launch bound
/// `min_blocks` blocks per SM (0 = none), and `split_k`: K divided over `gridDim.z` (kernel 20), or
/// `batched`: one matrix of a batch per `blockIdx.z` (kernel 30, [`batch_member`](super::batch_member)),
/// its tile stored through shared memory in whole rows, in the type its `out` argument names.
macro_rules! mma_entry {
    // The launch constant.
    (@config $name:ident, $config:ident, $kind:ident, $elem:ty, $bm:literal x $bn:literal x $bk:literal, warps $wm:literal x $wn:literal,
     stages $s:literal, min_blocks $mb:literal, split $split:literal) => {
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
        .narrow_copies()
        .chained();
    };
    // The body's call, on (a, b, c, m, n, k).
    (@gemm $kind:ident, $elem:ty, $bm:literal x $bn:literal x $bk:literal, warps $wm:literal x $wn:literal, stages $s:literal,
     swizzle $sw:literal, split $split:literal, staged $staged:literal, $a:ident, $b:ident, $c:ident, $m:ident, $n:ident, $k:ident, $out:expr) => {
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
            $staged,
        >($a, $b, $c, $m, $n, $k, $out)
    };
    ($name:ident, $config:ident, $kind:ident, $elem:ty, $bm:literal x $bn:literal x $bk:literal, warps $wm:literal x $wn:literal,
     stages $s:literal, swizzle $sw:literal, batched, $doc:literal) => {
        mma_entry!(@config $name, $config, $kind, $elem, $bm x $bn x $bk, warps $wm x $wn, stages $s, min_blocks 0, split false);

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            /// For every `i < gridDim.z`, matrix `i`'s operands (`table` null: `a + i·stride_a`, `b +
            /// i·stride_b`, `c + i·stride_c`; else the table's `3·gridDim.z` addresses, A's, B's, then
            /// `C`'s) as [`mma_gemm`](super::mma_tile::mma_gemm) takes them, A and B 16-byte aligned,
            /// each `C` of `m·n` elements of `out`'s type (`k27_fused::out`; `stride_c` counts them),
            /// the outputs of different `i` apart; the launch its `TileConfig` constant states, with
            /// `gridDim.z` matrices.
            #[allow(clippy::too_many_arguments)] // the entry's parameters are its ABI, one per launch argument
            pub unsafe fn $name(
                a: *const $elem,
                b: *const $elem,
                c: *mut f32,
                m: u32,
                n: u32,
                k: u32,
                stride_a: usize,
                stride_b: usize,
                stride_c: usize,
                table: *const u64,
                out: u32,
            ) {
                // SAFETY: forwarded contract (the table's addresses), then for this block's matrix.
                unsafe {
                    let c_bytes = super::k27_fused::out::bytes(out);
                    let (a, b, c) = super::batch_member(a, b, c, (stride_a, stride_b, stride_c), c_bytes, table);
                    mma_entry!(@gemm $kind, $elem, $bm x $bn x $bk, warps $wm x $wn, stages $s, swizzle $sw, split false, staged true, a, b, c, m, n, k, out)
                }
            }
        }
    };
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
        mma_entry!(@config $name, $config, $kind, $elem, $bm x $bn x $bk, warps $wm x $wn, stages $s, min_blocks $mb, split $split);

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            /// As [`mma_gemm`](super::mma_tile::mma_gemm), with the launch its `TileConfig` constant
            /// states.
            pub unsafe fn $name(a: *const $elem, b: *const $elem, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe {
                    mma_entry!(@gemm $kind, $elem, $bm x $bn x $bk, warps $wm x $wn, stages $s, swizzle $sw, split $split, staged false, a, b, c, m, n, k, super::k27_fused::out::F32)
                }
            }
        }
    };
}
