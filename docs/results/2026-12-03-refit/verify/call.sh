mkdir -p .gpu && tar xJf .gpu1/bundle-v.tar.xz -C .gpu
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $R/gpu.txt
for f in matmul_auto cluster; do timeout 120 .gpu/tests/tests-gpu_parity $f > $R/parity-$f.log 2>&1; grep "test result" $R/parity-$f.log; done
# TF32 squares the report moved, with kernels 16 (as now planned: at most 2 slices) and 22 beside
timeout 150 .gpu/bin/scorecard --precisions tf32 --kernels auto,persistent-tf32-128x256,persistent-tf32-128x128,streamk-tma-tf32-128x256 --sizes 2600,3000,4200,5000,6200 --plots none --vec-len 0 --out $R/tf32 > $R/tf32.log 2>&1; tail -1 $R/tf32.log
# decode, BF16, Auto (the acceptance's 15 shapes)
D=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
timeout 80 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $D --plots none --vec-len 0 --out $R/decode > $R/decode.log 2>&1; tail -1 $R/decode.log
cd $OUT && tar czf r.tgz r && rm -rf r
