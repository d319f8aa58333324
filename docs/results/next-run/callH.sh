#!/usr/bin/env bash
# Issue 34's acceptance call (written in session 60, which got no device; not run): on an H200, main
# (old/scorecard) — decode + LLM shapes (BF16 and FP16, with the copy rate for the roofline), two fresh seeds of
# 32 random shapes (BF16, FP16, TF32), squares 512–8192 (BF16, FP16) — and kernel 20's 16×32 and
# 64×32 decoding tiles (patches/s60-thin-tiles.patch) by name at 1, 2 and 4 K slices on a decode
# tuning set (session 49's: none of issue 34's shapes), its TF32 128×64 tile by name on few-column
# TF32 shapes (none of the seeds'), with their GPU parity.
# Build: old/scorecard = main's `cargo build --release -p tessera-scorecard --bin scorecard`; then
#   git checkout -b s60-thin-tiles && git apply docs/results/next-run/patches/s60-thin-tiles.patch &&
#   scripts/ptx.sh && touch host/ptx/*.ptx host/src/module.rs && cargo build --release -p
#   tessera-scorecard --bin slices --bin scorecard && cargo test --release -p tessera-tests --test gpu_parity --no-run
# → bin/slices, bin/scorecard, tests/gpu_parity (the deps executable); strip all four, with scripts/gpu-call.sh, this
# script and a COMMIT line, into one tar.xz (≈ 11 MB). If the tiles win, fit their constants
# (scripts/fit-tc-small.py on decode-slices.jsonl) and report on issue 34's decode shapes.
set -u
export CUDA_CACHE_PATH=/tmp/jit
F="--plots none --cpu-max-flops 0 --model-only"
OLD=.gpu/old/scorecard
source .gpu/gpu-call.sh h61
nvidia-smi --query-gpu=name --format=csv,noheader
run 60 $OLD --kernels auto --precisions bf16,fp16 --sizes 1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,4096x4096x4096,8192x8192x8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 $F --out $R/decode-llm > $R/decode-llm.log 2>&1; echo "decode rc=$? $(left)s left"
TUNE=4x5120x5120,24x5120x5120,64x5120x5120,4x11008x4096,48x11008x4096,4x4096x11008,48x4096x11008,32x8192x2048
run 90 .gpu/bin/slices --shapes $TUNE --kernels mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-16x32,mma-splitk-bf16-64x32,persistent-bf16-64x256 --slices 1,2,4 --sampled-rows 2 --out $R/decode-slices.jsonl > /dev/null 2> $R/decode-slices.log; echo "slices rc=$? $(left)s left"
# TF32 few columns over a large A (a tuning set: none of the seeds' shapes): the new 128×64 tile by name.
run 45 .gpu/bin/scorecard --kernels mma-splitk-tf32-128x64,mma-splitk-tf32-128x32,mma-splitk-tf32-64x128,persistent-tf32-128x128,auto --precisions tf32 --vec-len 0 --sizes 8000x48x4000,12000x40x3001,6000x60x8192,20000x36x2048,3000x56x12000,9000x64x5000 $F --out $R/tf32-cols64 > $R/tf32-cols64.log 2>&1; echo "tf32 cols64 rc=$? $(left)s left"
for f in -16x32_ -64x32_ -tf32-128x64_; do run 40 .gpu/tests/gpu_parity --test-threads 1 -- $f > $R/parity$f.log 2>&1; echo "parity $f rc=$? $(left)s left"; grep -E "test result|FAIL" $R/parity$f.log | head -5; done
for s in 20271300 20271301; do
  run 80 $OLD --kernels auto --precisions bf16,fp16,tf32 --vec-len 0 --seed $s $F --sizes 1024 --random-shapes 32 --out $R/rand-$s > $R/rand-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
done
run 130 $OLD --sweep --precisions bf16,fp16 --vec-len 0 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2200,2500,3000,3500,4096,5000,6144,7000,8192 $F --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
python3 scripts/issue34-check.py --squares $R/squares --random $R/rand-20271300 $R/rand-20271301 --decode $R/decode-llm --llm $R/decode-llm 2>&1 | tee $R/issue34-check.md | tail -25
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
