mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
# 1. parity of Auto and the TMA kernels (the padded copies)
for f in matmul_auto matmul_tma matmul_persistent; do timeout 120 .gpu/tests/tests-gpu_parity $f > $R/parity-$f.log 2>&1; tail -1 $R/parity-$f.log; done
# 2. rows of an even length (4-byte units), Auto and cuBLAS, checked against the reference
EV=6448x64x10074,70x138x42,1000x1002x998,3000x3002x2998,2108x7758x90,500x10002x4094
timeout 150 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $EV --plots none --vec-len 0 --out $R/even-rows > $R/even-rows.log 2>&1; tail -1 $R/even-rows.log
# 3. compute-sanitizer on pad_b16's 4-byte path (serial)
for tool in memcheck racecheck synccheck initcheck; do
echo "=== $tool" >> $R/sanitizer.log
timeout 90 compute-sanitizer --tool $tool --kernel-name kns=pad_b16 .gpu/bin/scorecard --kernels auto-bf16 --precisions bf16 --sizes 70x138x42 --plots none --vec-len 0 --repeat 1 --cpu-max-flops 0 --out /tmp/s-$tool >> $R/sanitizer.log 2>&1
done
grep -E "^===|SUMMARY|rror" $R/sanitizer.log | head -20
cd $OUT && tar czf r.tgz r && rm -rf r
