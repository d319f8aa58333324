# session 30, call 6: the TMA store epilogue (2004287) — parity of every TMA family and Auto, sanitizer on four TMA entries, the shallow-K tuning set and large squares beside the stores of 6d02423 (shallow-6d02423)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $R/gpu.txt
rm -rf .gpu && mkdir -p .gpu && tar xJf .gpu1/bundle-6.tar.xz -C .gpu; cat .gpu/COMMIT > $R/commit.txt
for f in matmul_tma- matmul_persistent- matmul_cluster- matmul_streamk-tma matmul_auto; do
  timeout 60 .gpu/tests/tests-gpu_parity $f > $R/parity-$f.log 2>&1; echo "$f: $(grep 'test result' $R/parity-$f.log)"
done
K=auto,tma-bf16-128x256,tma-bf16-128x128,tma-bf16-64x128,persistent-bf16-128x256,persistent-bf16-128x128,persistent-bf16-64x128,persistent-bf16-64x256,cluster-bf16-128x192,cluster-bf16-192x192,cluster-bf16-64x128,mma-pipe-bf16-128x128,mma-pipe-bf16-128x256,mma-splitk-bf16-64x128,mma-splitk-bf16-128x32,widened-bf16-64x64,wgmma-bf16-128x128
T=2000x3000x32,4096x512x64,1000x6000x24,8000x300x128,300x5000x40,12000x64x96,3000x3000x16,700x7000x200,5000x1000x48,2500x2500x104,4000x2000x40,1600x5000x56
timeout 200 .gpu/bin/scorecard --precisions bf16 --kernels $K --sizes $T --plots none --vec-len 0 --out $R/shallow > $R/shallow.log 2>&1; tail -1 $R/shallow.log
K2=auto,persistent-bf16-128x256,cluster-bf16-128x256,cluster-bf16-128x192,cluster-sk-bf16-128x256,tma-bf16-128x256
timeout 120 .gpu/bin/scorecard --precisions bf16 --kernels $K2 --sizes 2816,4096,5120,8192,8192x4096x4096 --plots none --vec-len 0 --out $R/large > $R/large.log 2>&1; tail -1 $R/large.log
OUT=$R/san RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=1 SANITIZER_FILTER='^(tma-bf16-128x256|persistent-bf16-64x128|cluster-bf16-128x192|persistent-tf32-128x128)$' SANITIZER_PADDED=0 SANITIZER_EXTRAS=0 SANITIZER_GEMM=0 STAGE_TIMEOUT=100 timeout 110 bash .gpu/gpu-run.sh > $R/san.log 2>&1; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $R/san.log | sort | uniq -c
cd $OUT && tar czf r.tgz r && rm -rf r
