mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
for f in matmul_tma matmul_persistent; do timeout 150 .gpu/tests/tests-gpu_parity $f > $R/parity-$f.log 2>&1; grep "test result" $R/parity-$f.log; done
# 1. the epilogue's tuning set (as call 1), wgmma no longer serialised
ST=12540x4297x16,12540x4296x16,12540x4298x16,9601x3525x64,9600x3524x64,2108x7759x90,2108x7758x90,6000x6001x32,8000x3000x8,3000x9001x128,5000x5000x256
timeout 200 .gpu/bin/scorecard --precisions bf16,tf32 --kernels persistent-bf16-128x256,persistent-bf16-128x128,tma-bf16-128x256,tma-bf16-128x128,persistent-tf32-128x256,auto-bf16,auto-tf32 --sizes $ST --plots none --vec-len 0 --out $R/store > $R/store.log 2>&1; tail -1 $R/store.log
# 2. the large shapes: Auto in each precision
timeout 200 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096,8192,8192x4096x4096,8192x14336x4096,8192x4096x14336,1024,1536,2048,3000 --plots none --vec-len 0 --out $R/large > $R/large.log 2>&1; tail -1 $R/large.log
# 3. the calibration table's 16 shapes, every TMA kernel (catalogue/tests/data/tc-calibration.csv)
CAL=512,640,1024,2048,3000,4096,8192,1000x1037x519,1536x1536x6144,2048x8192x1024,256x4096x4096,4096x4096x256,777x1234x999,8192x128x8192,8192x256x4096,128x8192x8192
timeout 170 .gpu/bin/scorecard --precisions tf32 --kernels tma-tf32-128x256,tma-tf32-64x128,persistent-tf32-128x256,persistent-tf32-128x128,persistent-tf32-64x128,persistent-tf32-64x256 --sizes $CAL --plots none --vec-len 0 --out $R/cal-tf32 > $R/cal-tf32.log 2>&1; tail -1 $R/cal-tf32.log
for p in bf16 f16; do q=$p; [ $p = f16 ] && q=fp16
timeout 170 .gpu/bin/scorecard --precisions $q --kernels tma-$p-128x256,tma-$p-128x128,tma-$p-64x128,persistent-$p-128x256,persistent-$p-128x128,persistent-$p-128x192,persistent-$p-64x128,persistent-$p-64x256 --sizes $CAL --plots none --vec-len 0 --out $R/cal-$p > $R/cal-$p.log 2>&1; tail -1 $R/cal-$p.log; done
cd $OUT && tar czf r.tgz r && rm -rf r
