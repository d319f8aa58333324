mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
# 0. GPU parity: kernel 22 (now a data-parallel + stream-K hybrid), kernel 23, Auto (TF32's tiny products now in FP32)
for f in streamk-tma copyfeed matmul_auto rounds_each_operand; do timeout 60 .gpu/tests/tests-gpu_parity $f > $R/parity-$f.log 2>&1; grep "test result" $R/parity-$f.log; done
# 1. kernel 22 hybrid beside kernel 16's tiles, Auto and cuBLAS (the shapes of the last run of kernel 22)
SK=1536,2500,5000,1000x1037x519,1024x1024x8192,2048x2048x8192,768x3072x4096,4096x4096x512,6144,7168x7168x2048
timeout 80 .gpu/bin/scorecard --precisions bf16 --kernels streamk-tma-bf16-128x256,persistent-bf16-128x256,persistent-bf16-128x192,persistent-bf16-128x128,auto-bf16 --sizes $SK --plots none --vec-len 0 --out $R/sk-bf16 > $R/sk-bf16.log 2>&1; tail -1 $R/sk-bf16.log
timeout 70 .gpu/bin/scorecard --precisions tf32 --kernels streamk-tma-tf32-128x256,persistent-tf32-128x256,persistent-tf32-128x128,auto-tf32 --sizes $SK --plots none --vec-len 0 --out $R/sk-tf32 > $R/sk-tf32.log 2>&1; tail -1 $R/sk-tf32.log
# 2. report: fresh random seeds (the acceptance's generator), TF32/BF16/FP16, Auto only
for s in 20261203 31337; do timeout 90 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed $s --plots none --vec-len 0 --out $R/rand-$s > $R/rand-$s.log 2>&1; tail -1 $R/rand-$s.log; done
# 3. report: squares 512..8192 (most not powers of two), BF16/FP16
timeout 100 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes 512,768,1000,1400,1800,2200,2600,3000,3400,4200,5000,6200,7000,7800,8192 --plots none --vec-len 0 --out $R/squares > $R/squares.log 2>&1; tail -1 $R/squares.log
# 4. decode: M in 1..64 against LLM weights, BF16
D=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
timeout 60 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $D --plots none --vec-len 0 --out $R/decode > $R/decode.log 2>&1; tail -1 $R/decode.log
# 5. compute-sanitizer on kernel 22 (hybrid walk), four tools
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='streamk-tma-bf16-128x256|streamk-tma-tf32-128x256' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=120 timeout 130 bash .gpu/gpu-run.sh > $R/san.log 2>&1; grep -cE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" $R/san/tools.log
cd $OUT && tar czf r.tgz r && rm -rf r
