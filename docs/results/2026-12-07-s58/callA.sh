#!/usr/bin/env bash
# Session 58, call A. Bundle: bin/fp8 + tests/tests-fp8 = branch s58-fp8-order (kernel 25's promoted
# entries: consumer warpgroup 1 issues each K-step after warpgroup 0 has issued it); old/* = main af3eb7a.
# The FP8 suite (GPU parity, K = 16384 rule) on the branch, then FP8 new and main interleaved
#   (new, main, new, main) on issue 35's four shapes and 6 random shapes (seed 58001), cuBLASLt beside each.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh a58
run 100 .gpu/tests/tests-fp8 > $R/fp8-tests.log 2>&1; echo "fp8 tests rc=$? $(left)s left"; grep -E "K = 16384|test result|FAIL|panic" $R/fp8-tests.log | head -8
P=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
for i in 1 2; do
  run 75 .gpu/bin/fp8 --format e4m3 --shapes $P --random 6 --seed 58001 --out $R/new-$i.jsonl > /dev/null 2> $R/new-$i.log; echo "new $i rc=$? $(left)s left"
  run 75 .gpu/old/fp8 --format e4m3 --shapes $P --random 6 --seed 58001 --out $R/main-$i.jsonl > /dev/null 2> $R/main-$i.log; echo "main $i rc=$? $(left)s left"
done
python3 -c '
import json,glob,sys
for f in sorted(glob.glob(sys.argv[1]+"/*-[12].jsonl")):
    print(f.split("/")[-1], " ".join("%dx%dx%d:%.1f/%.1f" % (r["m"],r["n"],r["k"],r.get("tessera_auto_us") or 0,r.get("cublaslt_us") or 0) for r in map(json.loads, open(f))))
' $R
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
