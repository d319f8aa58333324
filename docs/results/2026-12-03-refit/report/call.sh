# A: the refit's report (bundle 07327ad); B: kernel 25 (bundle 4919798)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv > $R/gpu.txt
mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu; A=$R/report; mkdir -p $A; cat .gpu/COMMIT > $A/commit.txt
timeout 120 .gpu/tests/tests-gpu_parity matmul_auto > $A/parity-auto.log 2>&1; grep "test result" $A/parity-auto.log
S=512,768,1000,1400,1800,2200,2600,3000,3400,4200,5000,6200,7000,7800,8192
timeout 110 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $S --plots none --vec-len 0 --out $A/squares > $A/squares.log 2>&1; tail -1 $A/squares.log
timeout 100 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16,tf32 --sizes 4096,8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 --plots none --vec-len 0 --out $A/large > $A/large.log 2>&1; tail -1 $A/large.log
timeout 100 .gpu/bin/scorecard --precisions tf32 --kernels auto,persistent-tf32-128x256,streamk-tma-tf32-128x256 --sizes 2600,3000,4200,5000,6200,8192,8192x4096x14336 --plots none --vec-len 0 --out $A/moved-tf32 > $A/moved-tf32.log 2>&1; tail -1 $A/moved-tf32.log
timeout 100 .gpu/bin/scorecard --precisions bf16 --kernels cluster-bf16-128x256,persistent-bf16-128x256,persistent-bf16-128x192,streamk-tma-bf16-128x256 --sizes 5000,6200,7000,7800,8192x4096x14336 --plots none --vec-len 0 --out $A/moved-bf16 > $A/moved-bf16.log 2>&1; tail -1 $A/moved-bf16.log
for s in 20261205 777; do timeout 90 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed $s --plots none --vec-len 0 --out $A/rand-$s > $A/rand-$s.log 2>&1; tail -1 $A/rand-$s.log; done
cd $OUT && tar czf r.tgz r && rm -rf r
