#!/usr/bin/env bash
# The commands run inline on the H200 leases of session 46 (each after `tar xJf .gpu/l.tar.xz -C .gpu`;
# the bundle as named). Kept as they ran; the templates for a next run are docs/results/next-run/.
set -u
stage=${1:?usage: callH200.sh r1|r2|q|r3}
source .gpu/gpu-call.sh $stage
SC="--plots none --vec-len 0 --sizes 4096 --random-shapes 32"
case $stage in
r1) # bundle 97856fe, right after callK3 on the same machine
  run 540 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271250 $SC --out $R/rand-20271250-16 > $R/rand-20271250-16.log 2>&1 ;;
r2) # bundle 97856fe, warm
  run 200 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271251 $SC --out $R/rand-20271251-16 > $R/rand-20271251-16.log 2>&1
  for S in 20271250 20271251; do run 150 .gpu/bin/scorecard --kernels auto --precisions tf32 --seed $S $SC --out $R/rand-$S-tf32 > $R/rand-$S-tf32.log 2>&1; done ;;
q) # bundle 97856fe, warm: squares and decode
  SQ=512,640,768,1000,1400,2000,2500,3000,3584,4096,5000,6144,7000,8192
  run 300 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $SQ --plots none --vec-len 0 --cpu-max-flops 0 --out $R/squares > $R/squares.log 2>&1
  D=""; for m in 1 8 16 32 64; do D="$D,${m}x4096x4096,${m}x14336x4096,${m}x4096x14336"; done
  run 150 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes ${D#,} --plots none --vec-len 0 --cpu-max-flops 0 --out $R/decode > $R/decode.log 2>&1 ;;
r3) # bundle d1836bb, right after callK5 on the same machine (timed out at 169 of 198 rows: rows.jsonl holds those done)
  run 240 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271251 $SC --out $R/rand-20271251-16 > $R/rand-20271251-16.log 2>&1 ;;
esac
cd $OUT && tar czf $stage.tgz $stage && rm -rf $stage
