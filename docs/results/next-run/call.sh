#!/usr/bin/env bash
# Session 37's GPU call: kernel 31 (both unit shapes), kernel 25's pairs, kernels 26/30 on batches.
set -u
R=$OUT/r; mkdir -p $R
T0=$(date +%s)
left() { echo $(( ${BUDGET:-525} - ($(date +%s) - T0) )); }
run() { local lim=$1; shift; local l; l=$(left); [ "$l" -lt 15 ] && { echo "SKIPPED (no time): $*" | tee -a $R/skipped.txt; return 99; }; [ "$lim" -gt "$l" ] && lim=$l; timeout --kill-after=5 "$lim" "$@"; }
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
export TESSERA_SCORECARD_BIN=$PWD/.gpu/bin/scorecard
FUSED=8192x4096x4096,8192x14336x4096,4096x4096x4096
FP8=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
BATCHED=64x512x512x64,256x128x128x128,8x2048x2048x2048,512x64x64x64,128x256x256x128,32x1024x1024x256,16x96x1000x200,48x384x384x96,96x200x328x64,24x768x256x512,4x4096x1024x1024
run 100 .gpu/bin/fused --shapes $FUSED --out $R/fused.jsonl > /dev/null 2> $R/fused.log; echo "fused rc=$? $(left)s left"
run 60 python3 .gpu/bin/fused_torch_anchor.py --shapes $FUSED > $R/fused-torch.jsonl 2>> $R/fused.log; echo "fused torch rc=$?"
run 100 .gpu/bin/fp8 --format e4m3 --shapes $FP8 --out $R/fp8-e4m3.jsonl > /dev/null 2> $R/fp8.log; echo "fp8 rc=$? $(left)s left"
run 60 python3 .gpu/bin/fp8_torch_anchor.py --format e4m3 --shapes $FP8 > $R/fp8-torch-e4m3.jsonl 2>> $R/fp8.log; echo "fp8 torch rc=$?"
for t in tests-fused tests-fp8 tests-grouped; do run 75 .gpu/tests/$t > $R/$t.log 2>&1; echo "$t rc=$?"; grep -E "^test result|FAILED|panicked" $R/$t.log | head -4; done
run 110 .gpu/bin/grouped --precision bf16 --batched $BATCHED --out $R/grouped-bf16.jsonl > /dev/null 2> $R/grouped.log; echo "grouped rc=$? $(left)s left"
run 60 python3 .gpu/bin/grouped_torch_anchor.py --precision bf16 --batched $BATCHED > $R/grouped-torch-bf16.jsonl 2>> $R/grouped.log; echo "grouped torch rc=$?"
run 90 .gpu/bin/scorecard --precisions bf16 --kernels auto-bf16,persistent-bf16-128x256,persistent-bf16-128x128,pingpong-plain-bf16-64x256,pingpong-plain-bf16-128x128 --sizes 4096,8192,8192x14336x4096,8192x4096x14336 --plots none --vec-len 0 --out $R/plain > $R/plain.log 2>&1; echo "plain rc=$? $(left)s left"
grep -h '^\[' $R/*.log | tail -30
cd $OUT && tar czf r.tgz r && rm -rf r
