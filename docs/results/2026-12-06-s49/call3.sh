#!/usr/bin/env bash
# Call 3 (session 49): kernel 28's new 128x128x8 batch tile (two blocks per SM). GPU parity of every
# batch and group trial, then FP32 batches by name beside cuBLAS strided-batched and torch.bmm (issue
# 36's three, session 42's other four, six more), then the four compute-sanitizer tools on the FP32
# batch trials (every kernel 28 tile, both row widths, strided and pointers).
set -u
source .gpu/gpu-call.sh s49c3
run 90 .gpu/tests-grouped > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep -E "test result|FAIL" $R/parity.log | head -5
B=64x512x512x64,256x128x128x128,8x2048x2048x2048,20x640x640x80,6x3000x1000x704,160x96x96x256,512x64x64x64,32x256x256x256,100x200x300x96,12x1024x768x512,48x384x384x64,16x1000x1000x100,128x96x160x48
run 100 .gpu/bin/grouped --precision f32 --batched $B --grouped "" --out $R/grouped-f32.jsonl > /dev/null 2> $R/grouped-f32.log; echo "grouped f32 rc=$? $(left)s left"
run 45 python3 .gpu/bin/grouped_torch_anchor.py --precision f32 --batched $B --grouped "" > $R/grouped-torch-f32.jsonl 2>> $R/grouped-f32.log; echo "torch f32 rc=$?"
for tool in memcheck racecheck synccheck initcheck; do
  run 45 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests-grouped f32_match > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
cd $OUT && tar czf s49c3.tgz s49c3 && rm -rf s49c3
