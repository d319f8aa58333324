mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,8192x4096x4096,8192x14336x4096,8192x4096x14336,11512x64x5584,5600x69x672
timeout 150 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes $DEC --plots none --out $R/decode > $R/decode.log 2>&1
timeout 150 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed 97531 --plots none --vec-len 0 --out $R/rand-97531 > $R/rand-97531.log 2>&1
cd $OUT && tar czf r.tgz r && rm -rf r
