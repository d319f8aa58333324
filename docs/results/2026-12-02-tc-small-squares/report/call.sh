mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R
cat .gpu/COMMIT > $R/commit.txt; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $R/commit.txt
# 1. GPU parity of kernel 15's entries (new small tiles and the old) and Auto
timeout 150 .gpu/tests/tests-gpu_parity matmul_tma > $R/parity-tma.log 2>&1; tail -3 $R/parity-tma.log
timeout 150 .gpu/tests/tests-gpu_parity matmul_auto > $R/parity-auto.log 2>&1; tail -3 $R/parity-auto.log
# 2. compute-sanitizer on the new entries
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='tma.(bf16|f16).(64|128)x128|tma.tf32.64x128' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 timeout 200 bash .gpu/gpu-run.sh > $R/san.log 2>&1; tail -4 $R/san.log
# 3. report shapes: squares (sweep: Auto and cuBLAS), decode and LLM shapes
SQ=512,640,768,896,1000,1024,1280,1536,1792,2000,2304,2560,3000,3008,4096,5000,6144,8192
timeout 200 .gpu/bin/scorecard --sweep --precisions tf32,bf16,fp16 --sizes $SQ --plots none --vec-len 0 --out $R/squares > $R/squares.log 2>&1
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,8192x4096x4096,8192x14336x4096,8192x4096x14336
timeout 150 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes $DEC --plots none --out $R/decode > $R/decode.log 2>&1
# 4. two fresh random runs, Auto and cuBLAS
for seed in 424242 171717; do
timeout 150 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed $seed --plots none --vec-len 0 --out $R/rand-$seed > $R/rand-$seed.log 2>&1
done
# 5. which cuBLAS kernel runs 1000³ and 3000³ (and their aligned neighbours)
timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x --csv python3 .gpu1/cublas_kernels.py 1000x1000x1000,1008x1008x1008,3000x3000x3000,3008x3008x3008,16x4096x4096 > $R/ncu-cublas.csv 2>&1
cd $OUT && tar czf r.tgz r && rm -rf r
