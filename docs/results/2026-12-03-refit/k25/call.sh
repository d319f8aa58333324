R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $R/gpu.txt
rm -rf .gpu && mkdir -p .gpu && tar xJf .gpu1/bundle-k25.tar.xz -C .gpu; B=$R/k25; mkdir -p $B; cat .gpu/COMMIT > $B/commit.txt
for f in warpk mma cluster; do timeout 150 .gpu/tests/tests-gpu_parity $f > $B/parity-$f.log 2>&1; grep "test result" $B/parity-$f.log; done
D=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
timeout 120 .gpu/bin/scorecard --precisions bf16 --kernels warpk-bf16-16x32-s4,warpk-bf16-16x32-s2,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,persistent-bf16-64x128,copyfeed-bf16-64x128 --sizes $D --plots none --vec-len 0 --out $B/decode > $B/decode.log 2>&1; tail -1 $B/decode.log
T=2x4096x4096,4x11008x4096,8x4096x11008,12x3000x7000,16x8192x8192,24x5120x5120,32x2048x8192,48x4096x4096,96x4096x4096,128x8192x4096,8x1024x4096,16x2048x2048
timeout 120 .gpu/bin/scorecard --precisions bf16 --kernels warpk-bf16-16x32-s4,warpk-bf16-16x32-s2,mma-splitk-bf16-16x128 --sizes $T --plots none --vec-len 0 --out $B/train > $B/train.log 2>&1; tail -1 $B/train.log
timeout 60 .gpu/bin/scorecard --precisions fp16 --kernels warpk-f16-16x32-s4,warpk-f16-16x32-s2,mma-splitk-f16-16x128 --sizes 8x4096x4096,16x14336x4096,32x4096x14336 --plots none --vec-len 0 --out $B/fp16 > $B/fp16.log 2>&1; tail -1 $B/fp16.log
OUT=$B/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='warpk-bf16-16x32-s4|warpk-f16-16x32-s2' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=120 timeout 150 bash .gpu/gpu-run.sh > $B/san.log 2>&1; grep -cE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" $B/san/tools.log
cd $OUT && tar czf r.tgz r && rm -rf r
