#!/usr/bin/env bash
# Call 1 (session 49), one lease:
#  t: narrow_register_rate (0b1c51f) checked on the GPU: 13 random TF32 shapes of several rounds whose
#     pick moved from kernel 16's 128x128 tile to a 256-wide one, every candidate by name (callT.sh).
#  g: issue 36's batches and grouped products, BF16 with C in BF16 too (what torch writes) beside torch;
#     FP32 batches beside cuBLAS strided-batched.
#  r: TF32 Auto on a fresh seed (20271256), 32 random shapes.
set -u
source .gpu/gpu-call.sh s49c1
S=11412x2115x1135,8772x2403x1459,6120x1469x6025,1122x1240x2017,1225x11140x1082,4747x2984x855,3372x2375x3829,2860x2060x860,9242x1024x6281,7628x1353x2403,1432x6326x6723,7000x2000x4000,3626x2653x694
K="--kernels auto,persistent-tf32-128x128,persistent-tf32-128x256,tma-tf32-128x256,streamk-tma-tf32-128x256 --precisions tf32 --plots none --vec-len 0 --cpu-max-flops 0 --sizes $S"
run 200 .gpu/bin/scorecard $K --out $R/t-by-name > $R/t-by-name.log 2>&1; echo "t by name rc=$? $(left)s left"
BATCHED=64x512x512x64,256x128x128x128,8x2048x2048x2048,20x640x640x80,6x3000x1000x704
GROUPED=8x16384x4096x7168,64x16384x4096x7168,8x16384x7168x2048,64x16384x7168x2048
run 150 .gpu/bin/grouped --precision bf16 --batched $BATCHED --grouped $GROUPED --out $R/grouped-bf16.jsonl > /dev/null 2> $R/grouped-bf16.log; echo "grouped bf16 rc=$? $(left)s left"
run 60 python3 .gpu/bin/grouped_torch_anchor.py --precision bf16 --batched $BATCHED --grouped $GROUPED > $R/grouped-torch-bf16.jsonl 2>> $R/grouped-bf16.log; echo "grouped torch bf16 rc=$?"
run 90 .gpu/bin/grouped --precision f32 --batched $BATCHED --grouped "" --out $R/grouped-f32.jsonl > /dev/null 2> $R/grouped-f32.log; echo "grouped f32 rc=$? $(left)s left"
run 50 python3 .gpu/bin/grouped_torch_anchor.py --precision f32 --batched $BATCHED --grouped "" > $R/grouped-torch-f32.jsonl 2>> $R/grouped-f32.log; echo "grouped torch f32 rc=$?"
run 200 .gpu/bin/scorecard --kernels auto --precisions tf32 --seed 20271256 --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/rand-20271256-tf32 > $R/rand-20271256-tf32.log 2>&1; echo "rand tf32 rc=$? $(left)s left"
cd $OUT && tar czf s49c1.tgz s49c1 && rm -rf s49c1
