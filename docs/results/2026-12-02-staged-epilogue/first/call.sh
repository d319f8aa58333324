mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
for f in matmul_tma matmul_persistent matmul_auto; do timeout 150 .gpu/tests/tests-gpu_parity $f > $R/parity-$f.log 2>&1; tail -1 $R/parity-$f.log; done
# 1. the epilogue's tuning set: short/medium K, large outputs, N of each alignment; the TMA kernels forced and Auto
ST=12540x4297x16,12540x4296x16,12540x4298x16,9601x3525x64,9600x3524x64,2108x7759x90,2108x7758x90,6000x6001x32,8000x3000x8,3000x9001x128,5000x5000x256
timeout 200 .gpu/bin/scorecard --precisions bf16,tf32 --kernels persistent-bf16-128x256,persistent-bf16-128x128,tma-bf16-128x256,tma-bf16-128x128,persistent-tf32-128x256,auto-bf16,auto-tf32 --sizes $ST --plots none --vec-len 0 --out $R/store > $R/store.log 2>&1; tail -1 $R/store.log
# 2. the large shapes (no store-bound case): Auto in each precision, against session 19's figures
timeout 200 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096,8192,8192x4096x4096,8192x14336x4096,8192x4096x14336,1024,1536,2048,3000 --plots none --vec-len 0 --out $R/large > $R/large.log 2>&1; tail -1 $R/large.log
# 3. compute-sanitizer on five TMA entries (staged epilogue in shared memory: racecheck, synccheck)
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='persistent-bf16-128x256|persistent-bf16-128x128|persistent-tf32-64x256|tma-f16-64x128|tma-tf32-128x256' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=200 timeout 210 bash .gpu/gpu-run.sh > $R/san.log 2>&1; grep -cE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" $R/san/tools.log
timeout 60 ncu --clock-control none -k regex:"persistent|tma|pad" --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics gpu__time_duration.sum,dram__bytes_write.sum .gpu/bin/scorecard --precisions bf16 --sizes 12540x4297x16 --kernels auto-bf16 --plots none --vec-len 0 --repeat 1 --cpu-max-flops 0 --out /tmp/x > $R/ncu-12540x4297x16.txt 2>&1
cd $OUT && tar czf r.tgz r && rm -rf r
