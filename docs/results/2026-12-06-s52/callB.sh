#!/usr/bin/env bash
# Session 52, call B (bundle: main at 2f410cc as bin/scorecard; branch s52-chain-k18-20 at ef49fc1 as
# bin/scorecard-k1820 and tests/tests-fused-k1820 — kernels 18, 19 and 20 chained too): the chained
# test with kernels 18-20's f32 chain and two sanitizer tools on its small chain, then Auto, model only,
# on fresh seeds with main's chain off (`split`), on (`all`), and the branch (`all`): seed 20271258 BF16/FP16,
# 20271259 TF32, 20271260 FP32.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s52b
run 90 .gpu/tests/tests-fused-k1820 chained_ > $R/chained-k1820.log 2>&1; echo "chained k1820 rc=$? $(left)s left"; grep -E "test result|FAIL|panick" $R/chained-k1820.log | head -5
for tool in memcheck racecheck; do
  run 90 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-fused-k1820 chained_small --test-threads 1 > $R/san-k1820-$tool.log 2>&1; echo "sanitizer k1820 $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-k1820-$tool.log | head -2
done
go() { # binary mode precision seed
  TESSERA_DEPENDENT_LAUNCH=$2 run 60 .gpu/bin/$1 --kernels auto --precisions $3 --seed $4 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/$4-$1-$2 > $R/$4-$1-$2.log 2>&1; echo "$4 $1 $2 rc=$? $(left)s left"
}
for p in "bf16,fp16 20271258" "tf32 20271259" "fp32 20271260"; do
  set -- $p
  go scorecard split $1 $2; go scorecard all $1 $2; go scorecard-k1820 all $1 $2
done
cd $OUT && tar czf s52b.tgz s52b && rm -rf s52b
