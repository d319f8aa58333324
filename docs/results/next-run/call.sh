#!/usr/bin/env bash
# Session 38's fourth GPU call: Auto after the refits — the fused pick (kernel 31's 128x128 units in Auto) on
# the issue's two shapes and two held out, and batches on kernel 30's measured share, with 16-bit C beside torch;
# kernel 31's pairs (clusters of two sharing B) in the fused and plain products; FP8 Auto with kernel 25's pairs on
# 12 random shapes of a fresh seed.
set -u
R=$OUT/r4; mkdir -p $R
T0=$(date +%s)
left() { echo $(( ${BUDGET:-540} - ($(date +%s) - T0) )); }
run() { local lim=$1; shift; local l; l=$(left); [ "$l" -lt 15 ] && { echo "SKIPPED (no time): $*" | tee -a $R/skipped.txt; return 99; }; [ "$lim" -gt "$l" ] && lim=$l; timeout --kill-after=5 "$lim" "$@"; }
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
# Kernel 31's pairs run on the GPU first in tests-fused: if that fails or hangs, the fused bin leaves them out.
run 45 .gpu/tests/tests-fused > $R/tests-fused.log 2>&1; TF=$?; echo "tests-fused rc=$TF"; grep -E "^test result|FAILED|panicked" $R/tests-fused.log | head -4
KER=(); [ $TF = 0 ] || KER=(--kernels fused-bf16-128x256,fused-bf16-128x192,fused-bf16-128x128,pingpong-bf16-128x128)
FUSED=8192x4096x4096,8192x14336x4096,6144x6144x3072,3000x5000x2000
run 180 .gpu/bin/fused "${KER[@]}" --shapes $FUSED --out $R/fused.jsonl > /dev/null 2> $R/fused.log; echo "fused rc=$? $(left)s left"
run 50 python3 .gpu/bin/fused_torch_anchor.py --shapes $FUSED > $R/fused-torch.jsonl 2>> $R/fused.log; echo "fused torch rc=$?"
BATCHED=64x512x512x64,256x128x128x128,8x2048x2048x2048,512x64x64x64,16x96x1000x200,96x200x328x64
run 130 .gpu/bin/grouped --precision bf16 --batched $BATCHED --grouped 2x256x256x256 --out $R/grouped-bf16.jsonl > /dev/null 2> $R/grouped.log; echo "grouped rc=$? $(left)s left"
run 50 python3 .gpu/bin/grouped_torch_anchor.py --precision bf16 --batched $BATCHED --grouped 2x256x256x256 > $R/grouped-torch-bf16.jsonl 2>> $R/grouped.log; echo "grouped torch rc=$?"
for t in tests-grouped; do run 60 .gpu/tests/$t > $R/$t.log 2>&1; echo "$t rc=$?"; grep -E "^test result|FAILED|panicked" $R/$t.log | head -4; done
run 100 .gpu/bin/scorecard --precisions bf16 --kernels auto-bf16,persistent-bf16-128x256,cluster-bf16-128x256,pingpong-plain-bf16-128x128,pingpong-plain-pairs-bf16-128x128 --sizes 4096,8192x14336x4096 --plots none --vec-len 0 --out $R/plain > $R/plain.log 2>&1; echo "plain rc=$? $(left)s left"
run 90 .gpu/bin/fp8 --format e4m3 --shapes "" --random 12 --seed 20271207 --out $R/fp8-random.jsonl > /dev/null 2> $R/fp8-random.log; echo "fp8 random rc=$? $(left)s left"
for tool in memcheck racecheck synccheck initcheck; do for e in pingpong-pairs-bf16-128x128 pingpong-plain-pairs-f16-128x128; do
  run 30 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_${e}_ --skip 1024 --skip 4096 --skip 1000x --skip 260x --skip 512x --skip 2048 --test-threads 1 > $R/san-$tool-$e.log 2>&1; echo "sanitizer $tool $e rc=$?"; grep -E "SUMMARY|test result" $R/san-$tool-$e.log | head -2; done; done
cd $OUT && tar czf r4.tgz r4 && rm -rf r4
