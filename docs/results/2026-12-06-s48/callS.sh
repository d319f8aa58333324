#!/usr/bin/env bash
# Call S (session 48): split-K slices that take turns (kernels 18 and 20: slice 0 stores, the others add
# after it through per-warp counters; no memset of C). .gpu/new: the working tree on main 8677090 with
# the change; .gpu/bin/scorecard: main 8677090 (every split-K launch zeroes C first).
# 1. GPU parity of kernels 18 and 20 (all their entries; the new trials put C at NaN and run twice).
# 2. compute-sanitizer memcheck, racecheck, synccheck, initcheck on the same trials, serially.
# 3. Auto and the split kernels by name, old then new, on decode shapes and the small split lows.
# 4. Kernel 18's f32 entry by name: old, new (taking turns) and fb (branch s48-f32-zeroed d51369e: the f32
#    entry adds into a zeroed C as before; its PTX differs from main's cosmetically).
# 5. A fresh random seed (20271255), Auto, BF16 and FP32, new then old.
set -u
source .gpu/gpu-call.sh s
P=.gpu/new/tests-gpu_parity
for f in few-rows mma-splitk; do
  run 90 $P matmul_$f --test-threads 4 > $R/parity-$f.log 2>&1; echo "parity $f rc=$? $(left)s left"; grep -E "test result" $R/parity-$f.log; done
for tool in memcheck racecheck synccheck initcheck; do
  run 45 compute-sanitizer --tool $tool --error-exitcode 3 $P ordered_slices --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
DEC=1x4096x4096,4x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,32x14336x4096,1x4096x14336,8x4096x14336,32x4096x14336,64x4096x14336
LOWS=8x1712x1000,2x1697x8912,96x71x2772,192x1931x64,12484x32x8832,4x4357x544,10x2427x888,43x432x126,2x64x188,75x992x7016,1342x26x444,592x8x1184,49x16x13906
A="--kernels auto --plots none --vec-len 0 --cpu-max-flops 0 --sizes $DEC,$LOWS"
for v in old new; do b=.gpu/bin/scorecard; [ $v = new ] && b=.gpu/new/scorecard
  run 90 $b $A --precisions bf16,fp16,tf32,fp32 --out $R/auto-$v > $R/auto-$v.log 2>&1; echo "auto $v rc=$? $(left)s left"; done
K="--kernels few-rows-bf16,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-128x32 --precisions bf16 --plots none --vec-len 0 --cpu-max-flops 0 --sizes $DEC,$LOWS"
for v in old new; do b=.gpu/bin/scorecard; [ $v = new ] && b=.gpu/new/scorecard
  run 80 $b $K --out $R/byname-$v > $R/byname-$v.log 2>&1; echo "by name $v rc=$? $(left)s left"; done
F="--kernels few-rows --precisions fp32 --plots none --vec-len 0 --cpu-max-flops 0 --sizes 8x1712x1000,2x1697x8912,4x4357x544,10x2427x888,2x64x188,1x4096x4096,8x4096x4096,16x4096x4096,8x341x96,12x4x7724,12x62x13842,16x11421x3513"
for v in old new fb; do b=.gpu/bin/scorecard; [ $v = new ] && b=.gpu/new/scorecard; [ $v = fb ] && b=.gpu/fb/scorecard
  run 40 $b $F --out $R/f32-$v > $R/f32-$v.log 2>&1; echo "f32 few-rows $v rc=$? $(left)s left"; done
RS="--kernels auto --precisions bf16,fp32 --plots none --vec-len 0 --cpu-max-flops 0 --sizes 4096 --random-shapes 32 --seed 20271255"
run 100 .gpu/new/scorecard $RS --out $R/rand-new > $R/rand-new.log 2>&1; echo "rand new rc=$? $(left)s left"
run 100 .gpu/bin/scorecard $RS --out $R/rand-old > $R/rand-old.log 2>&1; echo "rand old rc=$? $(left)s left"
cd $OUT && tar czf s.tgz s && rm -rf s
