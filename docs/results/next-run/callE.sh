#!/usr/bin/env bash
# Call E (rewritten after session 61, which ran the TMA read probe and the decoding tiles: results in
# ../2026-12-08-s61): (1) BF16 squares on and off a 32-byte sector by tile, now with kernel 15's tiles
# (Auto's pick at 1088 and 1168, priced 4.6 µs dearer off a sector and never timed at 1080/1160);
# (2) patches/s61-tf32-128x64.patch (bin/, tests/): kernel 20's TF32 128×64 tile by name on few-column
# TF32 shapes (a tuning set: none of the seeds'), never timed (session 61's run used another bundle's
# scorecard), and its GPU parity. About 150 s. Bundle: scripts/next-run-bundles.sh → .gpu/e.tar.xz;
# unpack only this bundle into .gpu/ (the bundles share bin/ and COMMIT). If the tile wins, fit its
# constants (scripts/fit-tc-small.py --kernels mma-splitk-tf32-128x64) on these runs and report on
# issue 34's seeds.
set -u
export CUDA_CACHE_PATH=/tmp/jit
F="--plots none --cpu-max-flops 0 --model-only"
source .gpu/gpu-call.sh e62
nvidia-smi --query-gpu=name --format=csv,noheader
run 90 .gpu/bin/scorecard --kernels auto,tma-bf16-128x128,tma-bf16-64x128,cluster-bf16-128x160,cluster-bf16-128x192,cluster-bf16-128x128,cluster-bf16-192x192,cluster-sk-bf16-128x256,persistent-bf16-128x128,persistent-bf16-128x192 --precisions bf16 --vec-len 0 --sizes 1080,1088,1160,1168,2200,2208,3000,3008 $F --out $R/sector-squares > $R/sector-squares.log 2>&1; echo "sector squares rc=$? $(left)s left"
run 45 .gpu/bin/scorecard --kernels mma-splitk-tf32-128x64,mma-splitk-tf32-128x32,mma-splitk-tf32-64x128,persistent-tf32-128x128,auto --precisions tf32 --vec-len 0 --sizes 8000x48x4000,12000x40x3001,6000x60x8192,20000x36x2048,3000x56x12000,9000x64x5000 $F --out $R/tf32-cols64 > $R/tf32-cols64.log 2>&1; echo "tf32 cols64 rc=$? $(left)s left"; grep -c "128x64" $R/tf32-cols64.log
run 40 .gpu/tests/gpu_parity --test-threads 1 -- -tf32-128x64_ > $R/parity-tf32-128x64.log 2>&1; echo "parity rc=$? $(left)s left"; grep -E "test result|FAIL" $R/parity-tf32-128x64.log | head -5
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
