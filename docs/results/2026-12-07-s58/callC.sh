#!/usr/bin/env bash
# Session 58, call C. Call A's branch binary (order barriers: warpgroup 1 issues each K-step after
# warpgroup 0) stalled at 4096^3 on an H100. Bundle: ord/fp8 = that kernel (s58-fp8-order 7c1d…, with
# --verbose), nap/fp8 = warpgroup 1 sleeps ~100 ns before each piece's first step (no barrier), old/fp8 = main af3eb7a.
# 1. Where the ordered binary stalls: --verbose at a one-piece shape (64 tiles), a two-piece shape, 4096^3.
# 2. nap and main interleaved on issue 35's four shapes and 6 random shapes (seed 58001).
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh c58
for s in 1024x1024x4096 2048x2048x512 4096x4096x4096; do
  run 25 .gpu/ord/fp8 --verbose --repeat 1 --shapes $s --out $R/ord-$s.jsonl > /dev/null 2> $R/ord-$s.log; echo "ord $s rc=$? $(left)s left"; tail -2 $R/ord-$s.log
done
P=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
for i in 1 2; do
  run 75 .gpu/nap/fp8 --verbose --format e4m3 --shapes $P --random 6 --seed 58001 --out $R/new-$i.jsonl > /dev/null 2> $R/new-$i.log; echo "nap $i rc=$? $(left)s left"; grep -v ": tessera\|: cublas" $R/new-$i.log | tail -3
  run 75 .gpu/old/fp8 --format e4m3 --shapes $P --random 6 --seed 58001 --out $R/main-$i.jsonl > /dev/null 2> $R/main-$i.log; echo "main $i rc=$? $(left)s left"
done
python3 -c '
import json,glob,sys
for f in sorted(glob.glob(sys.argv[1]+"/*-[12].jsonl")):
    print(f.split("/")[-1], " ".join("%dx%dx%d:%.1f/%.1f" % (r["m"],r["n"],r["k"],r.get("tessera_auto_us") or 0,r.get("cublaslt_us") or 0) for r in map(json.loads, open(f))))
' $R
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
