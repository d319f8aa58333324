mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
# 1. the shapes of earlier runs whose pick the store rate changed (Auto before: those runs' JSON)
CH=1008x1171x1,1199x776x112,120x2160x4,13092x72x19,16x9976x18,252x5144x12,256x2400x6,256x3752x348,287x5052x4,304x5688x4,4438x50x4,4440x116x8,5147x210x16,57x9872x3,8288x19x112,9912x244x3
timeout 150 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes $CH --plots none --vec-len 0 --out $R/changed > $R/changed.log 2>&1; tail -1 $R/changed.log
# 2. the store rate's tuning shapes (report/held-out), Auto now
HO=9912x244x3,287x5052x4,13092x72x19,16x9976x18,2500x700x24,6000x300x40,3000x1000x8,777x2222x33,1500x1500x12,400x9000x20
timeout 120 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes $HO --plots none --vec-len 0 --out $R/held-out > $R/held-out.log 2>&1; tail -1 $R/held-out.log
# 3. short K not tuned on: every in-place BF16 candidate's pick against cuBLAS
SK=5000x2000x16,2222x3333x8,700x6000x28,9000x500x12,1800x1800x20,333x7777x30
timeout 120 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes $SK --plots none --vec-len 0 --out $R/short-k > $R/short-k.log 2>&1; tail -1 $R/short-k.log
# 4. a fresh random seed
timeout 170 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed 606060 --plots none --vec-len 0 --out $R/rand-606060 > $R/rand-606060.log 2>&1; tail -1 $R/rand-606060.log
cd $OUT && tar czf r.tgz r && rm -rf r
