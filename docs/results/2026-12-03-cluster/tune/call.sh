mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $R/gpu.txt
# 0. GPU parity: kernel 24 (all six entries), the TF32 entries whose PTX moved (128x256 of kernels 15, 16, 22)
for f in cluster; do timeout 120 .gpu/tests/tests-gpu_parity $f > $R/parity-$f.log 2>&1; grep "test result" $R/parity-$f.log; done
# 1. tune: kernel 24 beside kernel 16's tiles, kernel 22 and cuBLAS; off-sector sizes and aligned partners (not the report's)
T=1304,1296,2504,2512,3016,3008,4424,4416,6152,6144,4096,8192,1304x4424x3016,8192x4096x4096
timeout 200 .gpu/bin/scorecard --precisions bf16 --kernels cluster-bf16-128x256,cluster-bf16-128x192,cluster-bf16-128x128,persistent-bf16-128x256,persistent-bf16-128x192,persistent-bf16-128x128,streamk-tma-bf16-128x256 --sizes $T --plots none --vec-len 0 --out $R/tune > $R/tune.log 2>&1; tail -1 $R/tune.log
# 2. compute-sanitizer on kernel 24, four tools
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='cluster-bf16-128x256|cluster-f16-128x192' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=120 timeout 150 bash .gpu/gpu-run.sh > $R/san.log 2>&1; grep -cE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" $R/san/tools.log
cd $OUT && tar czf r.tgz r && rm -rf r
