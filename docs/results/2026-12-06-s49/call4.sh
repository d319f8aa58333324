#!/usr/bin/env bash
# Call 4 (session 49): is kernel 26's 16-bit C slower than its f32 C on 8 groups (call 1: 1482 against
# 1293 µs at 16384x4096x7168), or is it the clocks? Each grouped product twice in one process (every
# f32 run, cuBLAS's loop, then every 16-bit run, then all of it again), the SM clock, power and
# temperature sampled every 200 ms beside it.
set -u
source .gpu/gpu-call.sh s49c4
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 200 > $R/clocks.csv 2>&1 &
SMI=$!
G=8x16384x4096x7168,8x16384x7168x2048,8x16384x4096x7168,8x16384x7168x2048
run 200 .gpu/bin/grouped --precision bf16 --batched "" --grouped $G --out $R/grouped-bf16.jsonl > /dev/null 2> $R/grouped-bf16.log; echo "grouped rc=$? $(left)s left"
kill $SMI
cd $OUT && tar czf s49c4.tgz s49c4 && rm -rf s49c4
