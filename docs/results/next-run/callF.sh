#!/usr/bin/env bash
# Session 40's last call: Auto's fused pick after FUSED_SERIAL 1.10 (d36e6a0) on issue 36's shapes and 3000x5000x2000
# beside torch; Auto with a 16-bit C at 512 x 64^3 alone (24.1 us against its pick's 5.9 by name in start-h100); on an
# H200, issue 34's report as far as time allows (32 random shapes of a fresh seed, squares).
set -u
R=$OUT/f; mkdir -p $R
T0=$(date +%s)
left() { echo $(( ${BUDGET:-320} - ($(date +%s) - T0) )); }
run() { local lim=$1; shift; local l; l=$(left); [ "$l" -lt 15 ] && { echo "SKIPPED (no time): $*" | tee -a $R/skipped.txt; return 99; }; [ "$lim" -gt "$l" ] && lim=$l; timeout --kill-after=5 "$lim" "$@"; }
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
F=8192x4096x4096,8192x14336x4096,3000x5000x2000
run 90 .gpu/bin/fused --kernels fused-bf16-128x256,pingpong-bf16-128x128 --shapes $F --out $R/fused.jsonl > /dev/null 2> $R/fused.log; echo "fused rc=$? $(left)s left"
run 40 python3 .gpu/bin/fused_torch_anchor.py --shapes $F > $R/fused-torch.jsonl 2>> $R/fused.log; echo "fused torch rc=$?"
for i in 1 2; do run 30 .gpu/bin/grouped --precision bf16 --batched 512x64x64x64 --grouped "" --out $R/grouped-512-$i.jsonl > /dev/null 2> $R/grouped-512-$i.log; echo "grouped 512 rc=$?"; done
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  SC="--plots none --vec-len 0"
  run 160 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed 20271216 $SC --out $R/rand-20271216 > $R/rand-20271216.log 2>&1; echo "rand rc=$? $(left)s left"; tail -1 $R/rand-20271216.log
  run 110 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes 512,768,1000,1400,2000,2500,3000,3500,4096,4500,5000,6000,7000,8192 $SC --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
fi
cd $OUT && tar czf f.tgz f && rm -rf f
