mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
# 1. every GPU parity trial
timeout 240 .gpu/tests/tests-gpu_parity > $R/parity.log 2>&1; grep -E "test result|FAILED" $R/parity.log | tail -3
# 2. held-out check of kernel 21's constants: short-K shapes not tuned on
HO=9912x244x3,287x5052x4,13092x72x19,16x9976x18,2500x700x24,6000x300x40,3000x1000x8,777x2222x33,1500x1500x12,400x9000x20
timeout 150 .gpu/bin/scorecard --precisions bf16,fp16 --kernels widened-bf16-64x64,widened-bf16-128x32,widened-bf16-32x128,auto-bf16,auto-fp16 --sizes $HO --plots none --vec-len 0 --out $R/held-out > $R/held-out.log 2>&1; tail -1 $R/held-out.log
# 3. two fresh random seeds, Auto and cuBLAS in each precision
for seed in 31415926 2718281; do
timeout 170 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed $seed --plots none --vec-len 0 --out $R/rand-$seed > $R/rand-$seed.log 2>&1; tail -1 $R/rand-$seed.log
done
cd $OUT && tar czf r.tgz r && rm -rf r
