#!/usr/bin/env bash
# Session 61's follow-up on the same warm H100 after call E (whose decode run hit its 150 s limit after
# four of its eight shapes): the other four shapes of the decode tuning set, kernel 20's tiles by name
# at 1, 4 and 16 K slices (e.tar.xz's bin/slices: main + patches/s61-decode-tiles.patch). Run as:
mkdir -p .gpu && tar xJf .gpu/e.tar.xz -C .gpu; R=$OUT/e61b; mkdir -p $R; timeout 170 .gpu/bin/slices --shapes 4x4096x11008,48x4096x11008,32x8192x2048,48x11008x4096 --kernels mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-16x32,mma-splitk-bf16-64x32,mma-splitk-bf16-16x256,mma-splitk-bf16-16x512 --slices 1,4,16 --sampled-rows 2 --out $R/decode-slices.jsonl > $R/decode-slices.out 2> $R/decode-slices.log; echo rc=$?; tail -5 $R/decode-slices.log
