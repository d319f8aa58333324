#!/usr/bin/env bash
# Next session's FP8 call (written in session 58; not run). Bundle: bin/fp8 + tests/tests-fp8 from branch
# s58-fp8-order (kernel 25's promoted entries, consumer warpgroup 1 issuing each K-step after warpgroup 0
# has issued it; on main d1a451a, whose cluster barrier LLVM can no longer copy into a thread-0 branch),
# old/fp8 from main. Build: `cargo build --release -p tessera-scorecard --bin fp8` and `cargo test
# --release -p tessera-tests --test fp8 --no-run` on each, strip, as in callA.sh.
# 1. The FP8 suite on the branch (a cold machine needs ~110 s for the odd-shapes test).
# 2. The branch and main interleaved on issue 35's four shapes and 6 random shapes (seed 58001), --verbose.
# 3. compute-sanitizer's four tools on every FP8 entry at one small odd shape.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh d58
run 150 .gpu/tests/tests-fp8 > $R/fp8-tests.log 2>&1; echo "fp8 tests rc=$? $(left)s left"; grep -E "K = 16384|test result|FAIL|panic" $R/fp8-tests.log | head -8
P=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
for i in 1 2; do
  run 75 .gpu/bin/fp8 --verbose --format e4m3 --shapes $P --random 6 --seed 58001 --out $R/new-$i.jsonl > /dev/null 2> $R/new-$i.log; echo "new $i rc=$? $(left)s left"; tail -1 $R/new-$i.log
  run 75 .gpu/old/fp8 --format e4m3 --shapes $P --random 6 --seed 58001 --out $R/main-$i.jsonl > /dev/null 2> $R/main-$i.log; echo "main $i rc=$? $(left)s left"
done
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/fp8 --format e4m3 --shapes 130x264x272 --repeat 1 --out $R/san-$tool.jsonl > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $R/san-$tool.log | head -2
done
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
