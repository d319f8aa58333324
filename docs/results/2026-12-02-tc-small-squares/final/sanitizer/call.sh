mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
# compute-sanitizer on pad_b16's vector paths (8-byte units: 130×132×36's A and B; 16-byte units: the
# off-sector rows of 1000×1032×520 and 260×1028×516 where the model packs them), with the TMA kernels.
for t in matmul_tma-bf16-64x128_130x132x36 matmul_tma-bf16-64x128_1000x1032x520 matmul_persistent-bf16-128x128_260x1028x516 matmul_auto-bf16_260x1028x516; do
  for tool in memcheck racecheck synccheck initcheck; do
    echo "=== compute-sanitizer --tool $tool .gpu/tests/tests-gpu_parity $t --exact" >> $R/tools.log
    timeout 120 compute-sanitizer --tool $tool --print-limit 20 .gpu/tests/tests-gpu_parity $t --exact >> $R/tools.log 2>&1
  done
done
grep -E "^===|SUMMARY|test result" $R/tools.log
cd $OUT && tar czf r.tgz r && rm -rf r
