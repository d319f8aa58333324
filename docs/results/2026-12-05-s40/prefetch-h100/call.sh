#!/usr/bin/env bash
# Session 40: kernel 27's finishing store with each chunk's column biases loaded during the chunk before (new: bin/fused)
# beside the store as it was (old/fused: eccab10), interleaved, on issue 36's shapes and two held out; torch's fused
# GEMM in the same lease; then issue 34's report (random shapes of a fresh seed, squares, decode) as far as time allows.
set -u
R=$OUT/h; mkdir -p $R
T0=$(date +%s)
left() { echo $(( ${BUDGET:-560} - ($(date +%s) - T0) )); }
run() { local lim=$1; shift; local l; l=$(left); [ "$l" -lt 15 ] && { echo "SKIPPED (no time): $*" | tee -a $R/skipped.txt; return 99; }; [ "$lim" -gt "$l" ] && lim=$l; timeout --kill-after=5 "$lim" "$@"; }
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
run 90 .gpu/tests/tests-fused > $R/tests-fused.log 2>&1; echo "tests-fused rc=$? $(left)s left"; grep -E "^test result|FAILED|panicked" $R/tests-fused.log | head -3
F=8192x4096x4096,8192x14336x4096,6144x6144x3072,3000x5000x2000,4096x4096x4096,2048x8192x1024
K=fused-bf16-128x256,fused-cluster-bf16-128x192,pingpong-bf16-128x128
for i in 1 2; do
  run 70 .gpu/old/fused --kernels $K --shapes $F --out $R/fused-old-$i.jsonl > /dev/null 2> $R/fused-old-$i.log; echo "old $i rc=$? $(left)s left"
  run 70 .gpu/bin/fused --kernels $K --shapes $F --out $R/fused-new-$i.jsonl > /dev/null 2> $R/fused-new-$i.log; echo "new $i rc=$? $(left)s left"
done
run 50 python3 .gpu/bin/fused_torch_anchor.py --shapes $F > $R/fused-torch.jsonl 2>> $R/fused-old-1.log; echo "torch rc=$?"
SC="--plots none --vec-len 0"
run 160 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed 20271216 $SC --out $R/rand-20271216 > $R/rand-20271216.log 2>&1; echo "rand rc=$? $(left)s left"; tail -1 $R/rand-20271216.log
SQ=512,768,1000,1400,2000,2500,3000,3500,4096,4500,5000,6000,7000,8192,8192x4096x4096,8192x14336x4096,8192x4096x14336
run 110 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $SQ $SC --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
cd $OUT && tar czf h.tgz h && rm -rf h
