# Call S2 (session 48, the same warm H100 right after call S, BUDGET=470): call S's Auto runs again (its
# first pass had timed out on the cold machine) and the random seed's new half.
set -u
source .gpu/gpu-call.sh s2
DEC=1x4096x4096,4x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,32x14336x4096,1x4096x14336,8x4096x14336,32x4096x14336,64x4096x14336
LOWS=8x1712x1000,2x1697x8912,96x71x2772,192x1931x64,12484x32x8832,4x4357x544,10x2427x888,43x432x126,2x64x188,75x992x7016,1342x26x444,592x8x1184,49x16x13906
A="--kernels auto --plots none --vec-len 0 --cpu-max-flops 0 --sizes $DEC,$LOWS --precisions bf16,fp16,tf32,fp32"
run 130 .gpu/new/scorecard $A --out $R/auto-new > $R/auto-new.log 2>&1; echo "auto new rc=$? $(left)s left"
run 130 .gpu/bin/scorecard $A --out $R/auto-old > $R/auto-old.log 2>&1; echo "auto old rc=$? $(left)s left"
RS="--kernels auto --precisions bf16,fp32 --plots none --vec-len 0 --cpu-max-flops 0 --sizes 4096 --random-shapes 32 --seed 20271255"
run 150 .gpu/new/scorecard $RS --out $R/rand-new > $R/rand-new.log 2>&1; echo "rand new rc=$? $(left)s left"
cd $OUT && tar czf s2.tgz s2 && rm -rf s2
