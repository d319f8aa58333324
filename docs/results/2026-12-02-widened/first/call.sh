mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
# 1. GPU parity: kernel 21 and Auto
timeout 120 .gpu/tests/tests-gpu_parity matmul_widened > $R/parity-widened.log 2>&1; tail -2 $R/parity-widened.log
timeout 120 .gpu/tests/tests-gpu_parity matmul_auto > $R/parity-auto.log 2>&1; tail -2 $R/parity-auto.log
# 2. tuning set: small 16-bit products, kernel 21's three tiles, Auto and cuBLAS
TR=88x86x214,48x2x1178,104x6x224,2x219x466,16x40x784,1008x1171x1,5147x210x16,3205x155x84,1216x253x88,322x541x128,64x80x105,28x1564x144,1008x8x252,24x537x108,4x16x98,27x80x45,13x5x550,238x3x9975,32x16x1818,115x48x960,7860x32x48,2x2x368,3x8x496,228x144x306,619x193x461,504x52x4323,1199x776x112,3792x16x384,8288x19x112
timeout 200 .gpu/bin/scorecard --precisions bf16,fp16 --kernels widened-bf16-64x64,widened-bf16-128x32,widened-bf16-32x128,widened-f16-64x64,auto-bf16,auto-fp16 --sizes $TR --plots none --vec-len 0 --out $R/train > $R/train.log 2>&1
tail -3 $R/train.log
# 3. compute-sanitizer on kernel 21 (serial)
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='widened' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=200 timeout 210 bash .gpu/gpu-run.sh > $R/san.log 2>&1; tail -3 $R/san.log; grep -c "ERROR SUMMARY: 0 errors" $R/san/tools.log
cd $OUT && tar czf r.tgz r && rm -rf r
