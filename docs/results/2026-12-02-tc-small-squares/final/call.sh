mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R
cat .gpu/COMMIT > $R/commit.txt
# 1. every GPU parity trial
timeout 240 .gpu/tests/tests-gpu_parity > $R/parity.log 2>&1; grep -E "test result|FAILED" $R/parity.log | tail -3
# 2. compute-sanitizer on pad_b16's vector paths: Auto BF16 on products whose operands it packs
.gpu/tests/tests-gpu_parity --list 2>/dev/null | grep -E "auto-(bf16|f16)" | head -40 > $R/auto-tests.txt
for t in $(grep -E "auto-bf16_(1000x|3x9x13|65x263x37)" $R/auto-tests.txt | sed 's/: test$//' | head -4); do
  for tool in memcheck racecheck synccheck initcheck; do
    echo "=== $tool $t" >> $R/sanitizer-pad.log
    timeout 120 compute-sanitizer --tool $tool --kernel-name regex:pad_b16 .gpu/tests/tests-gpu_parity $t --exact >> $R/sanitizer-pad.log 2>&1
  done
done
grep -E "^===|SUMMARY" $R/sanitizer-pad.log | tail -8
# 3. report shapes: squares, decode/LLM, narrow rows, two fresh random runs (Auto and cuBLAS)
SQ=512,640,768,896,1000,1024,1280,1536,1792,2000,2304,2560,3000,3008,4096,5000,6144,8192
timeout 200 .gpu/bin/scorecard --sweep --precisions tf32,bf16,fp16 --sizes $SQ --plots none --vec-len 0 --out $R/squares > $R/squares.log 2>&1
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,8192x4096x4096,8192x14336x4096,8192x4096x14336
timeout 150 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes $DEC --plots none --out $R/decode > $R/decode.log 2>&1
NAR=8x11332x1424,24x8196x2052,200x3004x3004,1004x1004x1004,3x5004x7004,1001x1001x1001,17x9999x2047,612x1236x4100
timeout 120 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes $NAR --plots none --vec-len 0 --out $R/narrow > $R/narrow.log 2>&1
for seed in 8675309 5551212; do
timeout 150 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed $seed --plots none --vec-len 0 --out $R/rand-$seed > $R/rand-$seed.log 2>&1
done
cd $OUT && tar czf r.tgz r && rm -rf r
