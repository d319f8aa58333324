#!/usr/bin/env bash
# Session 52, call D (bundle: call C's — main 2f410cc as bin/scorecard, branch s52-chain-k18-20 at
# ef49fc1 as bin/scorecard-k1820): call C's main ÷ branch A/B again, alternating (the TF32 loss at
# 100×2018×384 one run, noise or not), then Nsight Compute on rows off a sector: kernel 24's 192×192
# tile and cuBLAS (its kernel at 3000³ is 192×192 on pairs too) at 3000³ against 3008³, the memory
# sections; cuBLAS's kernel names and grids at 1400³ and 1800³.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s52d
go() { # binary precision seed
  run 50 .gpu/bin/$1 --kernels auto --precisions $2 --seed $3 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $R/$3-$1-$RANDOM > $R/$3-$1.log 2>&1; echo "$3 $1 rc=$? $(left)s left"
}
for b in scorecard-k1820 scorecard scorecard-k1820 scorecard; do go $b tf32 20271259; done
for b in scorecard-k1820 scorecard; do go $b fp32 20271260; go $b bf16,fp16 20271258; done
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section LaunchStats"
for s in 3000 3008; do
  run 60 ncu --clock-control none -k regex:cluster_bf16_192x192 --launch-skip 3 --launch-count 1 $S .gpu/bin/scorecard --precisions bf16 --sizes $s --kernels cluster-bf16-192x192 --plots none --vec-len 0 --cpu-max-flops 0 --repeat 1 --out /tmp/x > $R/ncu-k24-192-$s.txt 2>&1; echo "ncu k24 $s rc=$? $(left)s left"
  run 60 ncu --clock-control none -k regex:nvjet --launch-skip 3 --launch-count 1 $S .gpu/bin/scorecard --precisions bf16 --sizes $s --kernels cluster-bf16-192x192 --plots none --vec-len 0 --cpu-max-flops 0 --repeat 1 --out /tmp/x > $R/ncu-cublas-$s.txt 2>&1; echo "ncu cublas $s rc=$? $(left)s left"
done
for s in 1400 1800; do
  run 40 ncu --clock-control none -k regex:nvjet --launch-skip 3 --launch-count 1 --section LaunchStats --section SpeedOfLight .gpu/bin/scorecard --precisions bf16 --sizes $s --kernels cluster-bf16-128x128 --plots none --vec-len 0 --cpu-max-flops 0 --repeat 1 --out /tmp/x > $R/ncu-cublas-$s.txt 2>&1; echo "ncu cublas $s rc=$? $(left)s left"
done
cd $OUT && tar czf s52d.tgz s52d && rm -rf s52d
