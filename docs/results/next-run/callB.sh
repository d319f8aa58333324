#!/usr/bin/env bash
# Session 40's second call (same lease): issue 34's report — 32 random shapes of two seeds drawn this session (tuned on
# none) in TF32, BF16, FP16; squares 512–8192 and the LLM shapes in BF16 and FP16; decode in BF16 with the copy rate.
set -u
R=$OUT/b; mkdir -p $R
T0=$(date +%s)
left() { echo $(( ${BUDGET:-560} - ($(date +%s) - T0) )); }
run() { local lim=$1; shift; local l; l=$(left); [ "$l" -lt 15 ] && { echo "SKIPPED (no time): $*" | tee -a $R/skipped.txt; return 99; }; [ "$lim" -gt "$l" ] && lim=$l; timeout --kill-after=5 "$lim" "$@"; }
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
SC="--plots none --vec-len 0"
for S in ${SEEDS:-20271216 20271217}; do run 160 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed $S $SC --out $R/rand-$S > $R/rand-$S.log 2>&1; echo "rand $S rc=$? $(left)s left"; tail -1 $R/rand-$S.log; done
SQ=512,768,1000,1400,2000,2500,3000,3500,4096,4500,5000,6000,7000,8192,8192x4096x4096,8192x14336x4096,8192x4096x14336
run 110 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $SQ $SC --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
run 80 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $DEC --plots none --out $R/decode > $R/decode.log 2>&1; echo "decode rc=$? $(left)s left"
cd $OUT && tar czf b.tgz b && rm -rf b
