mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $R/gpu.txt
# tuning set of this refit (none of the report's shapes): aligned / off-sector pairs and rectangles, every
# 128-row tile of kernels 16 and 24, kernel 22, cuBLAS
T=3584,3592,5120,5128,7168,7176,6144x3072x4096,3072x6144x8192,12288x2048x3072,2048x12288x4096
timeout 230 .gpu/bin/scorecard --precisions bf16 --kernels cluster-bf16-128x256,cluster-bf16-128x192,cluster-bf16-128x128,persistent-bf16-128x256,persistent-bf16-128x192,persistent-bf16-128x128,streamk-tma-bf16-128x256 --sizes $T --plots none --vec-len 0 --out $R/tune > $R/tune.log 2>&1; tail -1 $R/tune.log
timeout 90 .gpu/bin/scorecard --precisions tf32 --kernels persistent-tf32-128x256,streamk-tma-tf32-128x256 --sizes 3584,5120,7168,6144x3072x4096,2048x12288x4096 --plots none --vec-len 0 --out $R/tf32 > $R/tf32.log 2>&1; tail -1 $R/tf32.log
timeout 80 .gpu/bin/scorecard --precisions fp16 --kernels cluster-f16-128x256,cluster-f16-128x192,persistent-f16-128x256,persistent-f16-128x192,streamk-tma-f16-128x256 --sizes 3592,5128,7176 --plots none --vec-len 0 --out $R/fp16 > $R/fp16.log 2>&1; tail -1 $R/fp16.log
# decode candidates: every kernel that takes a few rows, BF16
D=8x4096x4096,32x4096x4096,64x4096x4096,16x14336x4096,64x4096x14336
timeout 90 .gpu/bin/scorecard --precisions bf16 --kernels auto,persistent-bf16-64x256,persistent-bf16-64x128,copyfeed-bf16-64x128,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,widened-bf16-32x128 --sizes $D --plots none --vec-len 0 --out $R/decode > $R/decode.log 2>&1; tail -1 $R/decode.log
cd $OUT && tar czf r.tgz r && rm -rf r
