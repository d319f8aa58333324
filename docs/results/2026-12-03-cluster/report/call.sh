mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $R/gpu.txt
# 0. GPU parity: Auto (now choosing kernel 24 where the model prices it best)
timeout 120 .gpu/tests/tests-gpu_parity matmul_auto > $R/parity-auto.log 2>&1; grep "test result" $R/parity-auto.log
# 1. report: squares 512..8192 (most not powers of two), BF16/FP16, Auto; kernel 24 and 16 beside it in BF16
S=512,768,1000,1400,1800,2200,2600,3000,3400,4200,5000,6200,7000,7800,8192
timeout 110 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $S --plots none --vec-len 0 --out $R/squares > $R/squares.log 2>&1; tail -1 $R/squares.log
timeout 150 .gpu/bin/scorecard --precisions bf16 --kernels cluster-bf16-128x256,cluster-bf16-128x192,cluster-bf16-128x128,persistent-bf16-128x256,persistent-bf16-128x192 --sizes 1000,2200,3000,5000,7000 --plots none --vec-len 0 --out $R/kernels > $R/kernels.log 2>&1; tail -1 $R/kernels.log
# 2. report: large and LLM shapes, Auto
timeout 80 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes 4096,8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 --plots none --vec-len 0 --out $R/large > $R/large.log 2>&1; tail -1 $R/large.log
# 3. report: fresh random seeds (the acceptance's generator), TF32/BF16/FP16, Auto only
for s in 20261204 4242; do timeout 90 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed $s --plots none --vec-len 0 --out $R/rand-$s > $R/rand-$s.log 2>&1; tail -1 $R/rand-$s.log; done
cd $OUT && tar czf r.tgz r && rm -rf r
