#!/usr/bin/env bash
# Session 48, the lease's second call: call C (kernel 18's FP32 rows of the calibration table, H200 only),
# then call F's first half (Auto before/after session 47's model on the cells whose pick moved), then
# call K18r's timing by name (kernel 18's 8-row entries beside the 16-row ones).
T00=$(date +%s)
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then BUDGET=200 bash .gpu/callC.sh; else echo "not an H200: call C skipped"; fi
echo "callC done after $(( $(date +%s) - T00 )) s"
sed -n '1,/moved new rc/p' .gpu/callF.sh > .gpu/callF1.sh; echo 'cd $OUT && tar czf f.tgz f && rm -rf f' >> .gpu/callF1.sh
BUDGET=170 bash .gpu/callF1.sh
echo "callF moved cells done after $(( $(date +%s) - T00 )) s"
grep -v "tests-gpu_parity\|^for tool\|^  run 70 compute" .gpu/callK18r.sh > .gpu/callK18t.sh
BUDGET=$(( 570 - ($(date +%s) - T00) )) bash .gpu/callK18t.sh
echo "all done after $(( $(date +%s) - T00 )) s"
