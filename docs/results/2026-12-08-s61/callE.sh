#!/usr/bin/env bash
# The experiments' call (written in session 60, which got no device; not run), chained after call H on
# the same warm machine: (1) the TMA read probe on main (old/tma-probe: rows on and off a sector in
# kernel 15's A box, a decode B by strips and by whole rows, beside the copy rate), its GPU tests and
# the four sanitizers; (2) patches/s61-decode-tiles.patch (bin/, tests/): kernel 20's 16×32 and 64×32
# decoding tiles (and session 61's 16×256 / 16×512: longer runs of each row of B) by name at 1–16 K slices on a decode tuning set (session 49's: none of issue
# 34's shapes), its TF32 128×64 tile by name on few-column TF32 shapes (none of the seeds'), and their
# GPU parity; whole squares on and off a sector by tile. About 470 s. Bundle: scripts/next-run-bundles.sh → .gpu/e.tar.xz. If the tiles win, fit
# their constants (scripts/fit-tc-small.py) on these runs and report on issue 34's shapes.
set -u
export CUDA_CACHE_PATH=/tmp/jit
F="--plots none --cpu-max-flops 0 --model-only"
source .gpu/gpu-call.sh e61
nvidia-smi --query-gpu=name --format=csv,noheader
TUNE=4x5120x5120,24x5120x5120,64x5120x5120,4x11008x4096,48x11008x4096,4x4096x11008,48x4096x11008,32x8192x2048
# In order of what matters most, so that a short budget cuts the least (run skips what does not fit).
# The TMA's loads alone (main's tma-probe): rows on and off a sector, decode B by strips and whole rows.
run 40 .gpu/old/tma-probe --out $R/tma-probe.jsonl > $R/tma-probe.log 2>&1; echo "tma-probe rc=$? $(left)s left"; tail -18 $R/tma-probe.log
# Whole products on and off a sector (session 61): squares whose BF16 rows start 16 bytes off a 32-byte
# sector (1080, 1160, 2200, 3000) beside the next size on one (1088, 1168, 2208, 3008: the same tile
# counts), every tile Auto weighs there by name — is the loss the pick or every tile's loads?
run 80 .gpu/bin/scorecard --kernels auto,cluster-bf16-128x160,cluster-bf16-128x192,cluster-bf16-128x128,cluster-bf16-192x192,cluster-sk-bf16-128x256,persistent-bf16-128x256,persistent-bf16-128x192,persistent-bf16-128x128 --precisions bf16 --vec-len 0 --sizes 1080,1088,1160,1168,2200,2208,3000,3008 $F --out $R/sector-squares > $R/sector-squares.log 2>&1; echo "sector squares rc=$? $(left)s left"
run 150 .gpu/bin/slices --shapes $TUNE --kernels mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-16x32,mma-splitk-bf16-64x32,mma-splitk-bf16-16x256,mma-splitk-bf16-16x512,persistent-bf16-64x256 --slices 1,2,4,8,16 --sampled-rows 2 --out $R/decode-slices.jsonl > $R/decode-slices.out 2> $R/decode-slices.log; echo "slices rc=$? $(left)s left"
for f in -16x32_ -64x32_ -16x256_ -16x512_ -tf32-128x64_; do run 40 .gpu/tests/gpu_parity --test-threads 1 -- $f > $R/parity$f.log 2>&1; echo "parity $f rc=$? $(left)s left"; grep -E "test result|FAIL" $R/parity$f.log | head -5; done
run 30 .gpu/old/tests-tma-probe > $R/tests-tma-probe.log 2>&1; echo "tma-probe tests rc=$? $(left)s left"; grep -E "test result|FAIL" $R/tests-tma-probe.log | head -3
for tool in memcheck racecheck synccheck initcheck; do
  run 30 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/old/tma-probe --probes 96x40:32x16:1:11:2,1000x300:64x128:0:5:4 --repeat 1 --out $R/san-probe-$tool.jsonl > $R/san-probe-$tool.log 2>&1; echo "probe sanitizer $tool rc=$? $(left)s left"
done
# TF32 few columns over a large A (a tuning set: none of the seeds' shapes): the new 128×64 tile by name.
run 45 .gpu/bin/scorecard --kernels mma-splitk-tf32-128x64,mma-splitk-tf32-128x32,mma-splitk-tf32-64x128,persistent-tf32-128x128,auto --precisions tf32 --vec-len 0 --sizes 8000x48x4000,12000x40x3001,6000x60x8192,20000x36x2048,3000x56x12000,9000x64x5000 $F --out $R/tf32-cols64 > $R/tf32-cols64.log 2>&1; echo "tf32 cols64 rc=$? $(left)s left"
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
