#!/usr/bin/env bash
# Session 40's first call, from a cold machine: the GPU trials built with each kernel loaded alone on first launch
# (`ptx_pieces`, this bundle) and then built loading both modules whole (old/: 838b8c1), each stage's wall time; the
# new fused entries in clusters (kernel 27 on kernel 24's walk) in the GPU trials; issue 36's fused epilogue and
# batches (kernel 26's batch walk, 113f1a2) beside torch in the same lease.
set -u
R=$OUT/a; mkdir -p $R
T0=$(date +%s)
left() { echo $(( ${BUDGET:-560} - ($(date +%s) - T0) )); }
run() { local lim=$1; shift; local l; l=$(left); [ "$l" -lt 15 ] && { echo "SKIPPED (no time): $*" | tee -a $R/skipped.txt; return 99; }; [ "$lim" -gt "$l" ] && lim=$l; timeout --kill-after=5 "$lim" "$@"; }
timed() { local name=$1; shift; local s0; s0=$(date +%s%N); run "$@" > $R/$name.log 2>&1; local rc=$?; echo "$name rc=$rc wall $(( ($(date +%s%N) - s0) / 1000000 )) ms" | tee -a $R/walls.txt; grep -E "^test result|FAILED|panicked" $R/$name.log | head -3; }
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
timed pieces-tests-grouped 150 .gpu/tests/tests-grouped
timed whole-tests-grouped 150 .gpu/old/tests-grouped
timed pieces-tests-fused 90 .gpu/tests/tests-fused
FUSED=8192x4096x4096,8192x14336x4096,6144x6144x3072,3000x5000x2000
run 150 .gpu/bin/fused --kernels fused-cluster-bf16-128x256,fused-cluster-bf16-128x192,fused-cluster-bf16-128x128,fused-bf16-128x256,pingpong-bf16-128x128 --shapes $FUSED --out $R/fused.jsonl > /dev/null 2> $R/fused.log; echo "fused rc=$? $(left)s left"
run 50 python3 .gpu/bin/fused_torch_anchor.py --shapes $FUSED > $R/fused-torch.jsonl 2>> $R/fused.log; echo "fused torch rc=$?"
BATCHED=64x512x512x64,256x128x128x128,8x2048x2048x2048,20x640x640x80,160x96x96x256,6x3000x1000x704,512x64x64x64
GROUPED=8x16384x4096x7168,64x16384x4096x7168,8x16384x7168x2048,64x16384x7168x2048
run 150 .gpu/bin/grouped --precision bf16 --batched $BATCHED --grouped $GROUPED --out $R/grouped-bf16.jsonl > /dev/null 2> $R/grouped-bf16.log; echo "grouped rc=$? $(left)s left"
run 60 python3 .gpu/bin/grouped_torch_anchor.py --precision bf16 --batched $BATCHED --grouped $GROUPED > $R/grouped-torch-bf16.jsonl 2>> $R/grouped-bf16.log; echo "grouped torch rc=$?"
cd $OUT && tar czf a.tgz a && rm -rf a
