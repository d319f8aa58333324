mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
timeout 120 .gpu/tests/tests-gpu_parity "matmul_(small|widened)" > $R/parity-cuda-cores.log 2>&1; tail -2 $R/parity-cuda-cores.log
timeout 120 .gpu/tests/tests-gpu_parity matmul_small > $R/parity-small.log 2>&1; tail -2 $R/parity-small.log
timeout 120 .gpu/tests/tests-gpu_parity matmul_auto > $R/parity-auto.log 2>&1; tail -2 $R/parity-auto.log
TR=88x86x214,48x2x1178,104x6x224,2x219x466,16x40x784,1008x1171x1,5147x210x16,3205x155x84,1216x253x88,322x541x128,64x80x105,28x1564x144,1008x8x252,24x537x108,4x16x98,27x80x45,13x5x550,238x3x9975,32x16x1818,115x48x960,7860x32x48,2x2x368,3x8x496,228x144x306,619x193x461,504x52x4323,1199x776x112,3792x16x384,8288x19x112,256x256x256,500x300x700,1000x64x1000,64x1000x2000,300x3000x100,4096x16x64,160x160x4000,40x40x40
timeout 240 .gpu/bin/scorecard --precisions bf16,fp16 --kernels widened-bf16-64x64,widened-bf16-128x32,widened-bf16-32x128,small-bf16-16x16,small-f16-16x16,auto-bf16,auto-fp16 --sizes $TR --plots none --vec-len 0 --out $R/train > $R/train.log 2>&1
tail -2 $R/train.log
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='small' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=200 timeout 210 bash .gpu/gpu-run.sh > $R/san.log 2>&1; grep -cE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" $R/san/tools.log
timeout 60 ncu --clock-control none -k regex:"small" --launch-count 1 --section SpeedOfLight --section WarpStateStats --metrics gpu__time_duration.sum .gpu/bin/scorecard --precisions bf16 --sizes 88x86x214 --kernels small-bf16-16x16 --plots none --vec-len 0 --repeat 1 --cpu-max-flops 0 --out /tmp/x > $R/ncu-small.txt 2>&1
timeout 100 ncu --clock-control none -k regex:"persistent|tma|pad" --launch-count 3 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --metrics gpu__time_duration.sum .gpu/bin/scorecard --precisions bf16 --sizes 9601x3525x64 --kernels auto-bf16 --plots none --vec-len 0 --repeat 1 --cpu-max-flops 0 --out /tmp/x > $R/ncu-short-k.txt 2>&1
cd $OUT && tar czf r.tgz r && rm -rf r
