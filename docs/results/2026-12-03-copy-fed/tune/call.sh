mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
# 0. GPU parity: kernel 23 (new), kernels 16 and 22 (their producer moved behind a Feed), Auto
for f in copyfeed matmul_persistent streamk-tma matmul_auto; do timeout 70 .gpu/tests/tests-gpu_parity $f > $R/parity-$f.log 2>&1; grep "test result" $R/parity-$f.log; done
# 1. tuning set: kernel 23 beside kernel 16 (same tiles), Auto and cuBLAS: rows off a sector (n % 16 == 8) and aligned
T=1000,3000,5000,7000,1024,3008,4096,1000x4096x4096,4096x1000x1000,64x4104x4104
timeout 150 .gpu/bin/scorecard --precisions bf16 --kernels copyfeed-bf16-128x256,copyfeed-bf16-128x192,copyfeed-bf16-128x128,copyfeed-bf16-64x128,persistent-bf16-128x256,persistent-bf16-128x192,persistent-bf16-128x128,persistent-bf16-64x128,tma-bf16-64x128,auto-bf16 --sizes $T --plots none --vec-len 0 --out $R/tune-bf16 > $R/tune-bf16.log 2>&1; tail -1 $R/tune-bf16.log
timeout 60 .gpu/bin/scorecard --precisions fp16 --kernels copyfeed-f16-128x256,copyfeed-f16-64x128,persistent-f16-128x256,persistent-f16-64x128,auto-fp16 --sizes 1000,5000,4096 --plots none --vec-len 0 --out $R/tune-f16 > $R/tune-f16.log 2>&1; tail -1 $R/tune-f16.log
# 2. compute-sanitizer on kernel 23, four tools
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='copyfeed-bf16-128x256|copyfeed-f16-64x128' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=120 timeout 130 bash .gpu/gpu-run.sh > $R/san.log 2>&1; grep -cE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" $R/san/tools.log
cd $OUT && tar czf r.tgz r && rm -rf r
