mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
# 0. GPU parity: kernel 22 (new), kernel 16 (its body now generic over the walk), Auto
for f in streamk-tma matmul_persistent matmul_auto; do timeout 60 .gpu/tests/tests-gpu_parity $f > $R/parity-$f.log 2>&1; grep "test result" $R/parity-$f.log; done
# 1. kernel 22 forced beside kernel 16's tiles, Auto and cuBLAS: squares and shapes of few tiles / a poor last round
SK=1536,2500,5000,1000x1037x519,1024x1024x8192,2048x2048x8192,768x3072x4096,4096x4096x512,6144,7168x7168x2048
timeout 80 .gpu/bin/scorecard --precisions bf16 --kernels streamk-tma-bf16-128x256,persistent-bf16-128x256,persistent-bf16-128x192,persistent-bf16-128x128,auto-bf16 --sizes $SK --plots none --vec-len 0 --out $R/sk-bf16 > $R/sk-bf16.log 2>&1; tail -1 $R/sk-bf16.log
timeout 60 .gpu/bin/scorecard --precisions tf32 --kernels streamk-tma-tf32-128x256,persistent-tf32-128x256,persistent-tf32-128x128,auto-tf32 --sizes $SK --plots none --vec-len 0 --out $R/sk-tf32 > $R/sk-tf32.log 2>&1; tail -1 $R/sk-tf32.log
# 2. held out: short/medium K with large outputs, shapes no constant was fitted on
HO=11003x5001x24,7777x6666x48,4099x12001x72,15000x2050x12,3333x9998x100,6002x7001x40,20000x1500x32,5555x4444x8,13092x72x19,287x5052x4,5147x210x16
timeout 90 .gpu/bin/scorecard --precisions tf32,bf16,fp16 --kernels auto --sizes $HO --plots none --vec-len 0 --out $R/held-out > $R/held-out.log 2>&1; tail -1 $R/held-out.log
# 3. fresh random seeds (the acceptance's generator), TF32/BF16/FP16
for s in 424242 8675309; do timeout 90 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed $s --plots none --vec-len 0 --out $R/rand-$s > $R/rand-$s.log 2>&1; tail -1 $R/rand-$s.log; done
# 4. squares 512..8192, BF16/FP16
timeout 90 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes 512,768,1000,1280,1792,2500,2944,3500,4000,5000,6000,7000,8192 --plots none --vec-len 0 --out $R/squares > $R/squares.log 2>&1; tail -1 $R/squares.log
# 5. compute-sanitizer on kernel 22 (BF16, TF32), four tools
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='streamk-tma-bf16-128x256|streamk-tma-tf32-128x256' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=120 timeout 130 bash .gpu/gpu-run.sh > $R/san.log 2>&1; grep -cE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" $R/san/tools.log
