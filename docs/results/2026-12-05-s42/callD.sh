#!/usr/bin/env bash
# Fourth call (same lease), experiments: K slices by name (`slices`, GemmParams::k_slices) on the tiny outputs with a
# long K that run kernel 16 in tc_model::MAX_SPLITS = 6 slices on a few SMs (184x37x15336: 0.64-0.69 of cuBLAS) and
# on outputs of 10^5-10^6 elements where the cap was measured; ncu's source view of kernel 27's 128x256 tile (where
# its finishing store's CTA-barrier stalls are).
set -u
source .gpu/gpu-call.sh d
SH=184x37x15336,512x6x1568,128x128x16384,72x16x3923,120x152x1786,1200x1200x6000,3000x256x12000
run 150 .gpu/bin/slices --shapes $SH --kernels persistent-bf16-64x128,persistent-bf16-128x128,mma-splitk-bf16-128x32,widened-bf16-64x64 --slices 1,2,4,6,8,12,16,24,32,48 --out $R/slices.jsonl > /dev/null 2> $R/slices.log; echo "slices rc=$? $(left)s left"
run 90 ncu --clock-control none -k regex:"matmul_fused_bf16_128x256$" -c 1 --section WarpStateStats --section SourceCounters --page source --print-source sass \
  .gpu/bin/fused --kernels fused-bf16-128x256 --shapes 8192x4096x4096 --repeat 1 --out /tmp/ncu-f.jsonl > $R/ncu-fused-128x256-source.txt 2>&1; echo "ncu rc=$?"
cd $OUT && tar czf d.tgz d && rm -rf d
