#!/usr/bin/env bash
# Call D (session 47, a fresh lease; BUDGET=540). Bundle s47-k18 (02fe438) as in calls A-C.
# 1. Kernel 18's 16-bit entries on a training set drawn for the refit (seed 47018: M 1-16, N 256-16384,
#    K 128-14336 log-uniform, N and K each rounded to a multiple of 64 half the time) and on call A's
#    12 shapes again (held out of the fit).
# 2. Every BF16 TMA kernel by name (and three in-place ones) on squares none of the reports use (576-4608),
#    beside Auto and cuBLAS: which tile is fastest where, against the model's price.
# 3. The driver's JIT cache of this run, packed, so a later lease can start warm (CUDA_CACHE_PATH).
set -u
export CUDA_CACHE_PATH=/tmp/jit CUDA_CACHE_MAXSIZE=4294967296
source .gpu/gpu-call.sh d
TRAIN=2x10013x4434,2x280x5258,5x1216x6016,2x12608x512,3x1152x2240,1x1811x5376,2x1178x2099,4x12160x832,15x561x3189,14x768x192,6x12784x3774,1x564x192,10x4096x1344,2x256x448,7x384x1920,7x13131x448,2x6262x159,1x7934x1280,1x1528x177,8x535x9712,2x6806x576,2x373x1024,2x3072x256,5x704x256,6x477x4096,3x749x672,3x7376x10450,15x896x5568
HELD=8x6411x124,16x1280x412,4x796x350,8x4097x4095,16x11421x3513,1x11421x3514,3x999x1001,13x5003x777,2x6320x560,16x4096x4096,4x14336x4096,8x3000x1004
K16="--precisions bf16,fp16 --kernels few-rows-bf16,few-rows-f16 --plots none --vec-len 0 --cpu-max-flops 0"
run 150 .gpu/bin/scorecard $K16 --sizes $TRAIN --out $R/k18-train > $R/k18-train.log 2>&1; echo "k18 train rc=$? $(left)s left"
run 60 .gpu/bin/scorecard $K16 --sizes $HELD --out $R/k18-held > $R/k18-held.log 2>&1; echo "k18 held rc=$? $(left)s left"
SQ=576,832,1088,1280,1664,2304,2688,3328,4608
KS=auto,tma-bf16-128x256,tma-bf16-128x128,tma-bf16-64x128,persistent-bf16-128x256,persistent-bf16-128x128,persistent-bf16-128x192,persistent-bf16-64x128,persistent-bf16-64x256,streamk-tma-bf16-128x256,cluster-bf16-128x256,cluster-bf16-128x192,cluster-bf16-192x192,cluster-bf16-64x128,cluster-bf16-64x256,cluster-bf16-128x128,cluster-bf16-128x160,cluster-bf16-128x224,cluster-bf16-192x160,cluster-sk-bf16-128x256,cluster-sk-bf16-128x192,pingpong-plain-bf16-64x256,pingpong-plain-bf16-128x128,pingpong-plain-pairs-bf16-128x128,widened-bf16-64x64,widened-bf16-128x128,mma-splitk-bf16-128x64
run 300 .gpu/bin/scorecard --precisions bf16 --kernels $KS --sizes $SQ --plots none --vec-len 0 --cpu-max-flops 0 --out $R/squares-by-name > $R/squares-by-name.log 2>&1; echo "squares rc=$? $(left)s left"
du -sh /tmp/jit 2>/dev/null
cd $OUT && tar czf d.tgz d && rm -rf d
tar cf - -C /tmp jit 2>/dev/null | xz -T16 -3 > $OUT/jit.tar.xz; ls -la $OUT/jit.tar.xz
[ $(stat -c %s $OUT/jit.tar.xz) -gt 16000000 ] && { split -b 15M $OUT/jit.tar.xz $OUT/jit.tar.xz.part-; rm $OUT/jit.tar.xz; ls -la $OUT; }
