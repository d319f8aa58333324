mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R
cat .gpu/COMMIT > $R/commit.txt
# 1. GPU parity of kernels 11-13, 20 (the narrow copies) and Auto
timeout 200 .gpu/tests/tests-gpu_parity matmul_mma > $R/parity-mma.log 2>&1; tail -2 $R/parity-mma.log
timeout 100 .gpu/tests/tests-gpu_parity matmul_auto > $R/parity-auto.log 2>&1; tail -2 $R/parity-auto.log
# 2. tuning set: rows 8-byte (BF16) / 4-byte (TF32) aligned, every in-place kernel
BF=8x11340x1420,64x4100x4100,16x14340x4092,500x1004x2052,1500x1500x1500,300x2052x300,2x9996x4100,129x3004x1028,2500x700x1204,40x6004x764
timeout 200 .gpu/bin/scorecard --precisions bf16 --kernels mma-naive-bf16,mma-shared-bf16,mma-pipe-bf16-128x128,mma-pipe-bf16-128x256,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,persistent-bf16-64x128,persistent-bf16-128x128,auto-bf16 --sizes $BF --plots none --vec-len 0 --out $R/narrow-bf16 > $R/narrow-bf16.log 2>&1
TF=777x777x777,2001x1999x333,31x5001x3001,9x12001x997,300x2051x301,1500x1501x1499,64x4099x4101
timeout 150 .gpu/bin/scorecard --precisions tf32 --kernels mma-naive-tf32,mma-shared-tf32,mma-pipe-tf32-128x128,mma-splitk-tf32-16x128,mma-splitk-tf32-64x128,persistent-tf32-64x128,auto-tf32 --sizes $TF --plots none --vec-len 0 --out $R/narrow-tf32 > $R/narrow-tf32.log 2>&1
# 3. rows off a sector: where the time goes (3000³ against 3008³, kernel 16's 128×192 tile)
for s in 3000 3008; do
timeout 60 ncu --clock-control none -k regex:persistent --launch-skip 3 --launch-count 1 --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors.sum,lts__t_requests.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed --csv .gpu/bin/scorecard --precisions bf16 --sizes $s --kernels persistent-bf16-128x192 --plots none --vec-len 0 --repeat 1 --out /tmp/x > $R/ncu-pitch-$s.csv 2>&1
done
# 4. sanitizer on the changed kernels (serial)
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='mma.(shared|pipe|splitk)' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=280 timeout 290 bash .gpu/gpu-run.sh > $R/san.log 2>&1; tail -3 $R/san.log
cd $OUT && tar czf r.tgz r && rm -rf r
