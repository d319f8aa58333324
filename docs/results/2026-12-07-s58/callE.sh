#!/usr/bin/env bash
# Session 58, call E (the last 134 s of device time): does branch s58-fp8-order at 2bc24a0 (the order
# barriers, on main's convergent cluster barrier) run its paired entries now? One shape, --verbose,
# then main's binary at the same shape.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh e58
run 22 .gpu/bin/fp8 --verbose --repeat 3 --shapes 4096x4096x4096 --out $R/new-1.jsonl > /dev/null 2> $R/new-1.log; echo "new rc=$? $(left)s left"; tail -3 $R/new-1.log
run 14 .gpu/old/fp8 --repeat 3 --shapes 4096x4096x4096 --out $R/main-1.jsonl > /dev/null 2> $R/main-1.log; echo "main rc=$? $(left)s left"; tail -1 $R/main-1.log
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
