#!/usr/bin/env bash
# Session 52, call A (bundle: main at 2f410cc — every TMA launch chained; plus bin/scorecard-late, branch
# s52-late-trigger: kernels 16/22/23/24/26 let their dependents start after their first main loop, not at
# setup). First the checks session 51 could not run on the chain (the chained-products test, the four
# compute-sanitizer tools on the small chain, GPU parity), then main ÷ late on the squares and small
# shapes (the 1400³ loss), then Nsight Compute on the rows-off-a-sector question: kernel 24's 192×192
# tile and cuBLAS at 3000³ against 3008³.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s52a
run 60 .gpu/tests/tests-fused chained_ > $R/chained.log 2>&1; echo "chained rc=$? $(left)s left"; grep -E "test result|FAIL|panick" $R/chained.log | head -5
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-fused chained_small --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2
done
AB=512x512x512,640x640x640,768x768x768,1000x1000x1000,1400x1400x1400,2048x2048x2048,4096x4096x4096,1024x1024x256,256x4096x4096,333x1111x777,3000x3000x3000,5000x5000x5000,1800x1800x1800
for b in scorecard scorecard-late scorecard scorecard-late; do
  run 70 .gpu/bin/$b --kernels auto --precisions bf16 --sizes $AB --model-only --plots none --cpu-max-flops 0 --vec-len 0 --out $R/ab-$b-$RANDOM > $R/ab.log 2>&1; echo "ab $b rc=$? $(left)s left"
done
M=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors.sum,lts__t_requests.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_sectors.sum,smsp__average_warp_latency_issue_stalled_barrier
for s in 3000 3008; do
  for k in cluster-bf16-192x192; do
    run 60 ncu --clock-control none -k regex:${k//-/_} --launch-skip 3 --launch-count 1 --metrics $M --csv .gpu/bin/scorecard --precisions bf16 --sizes $s --kernels $k --plots none --vec-len 0 --cpu-max-flops 0 --repeat 1 --out /tmp/x > $R/ncu-$k-$s.csv 2>&1; echo "ncu $k $s rc=$? $(left)s left"
  done
  run 60 ncu --clock-control none -k regex:nvjet --launch-skip 3 --launch-count 1 --metrics $M --csv .gpu/bin/scorecard --precisions bf16 --sizes $s --kernels cluster-bf16-192x192 --plots none --vec-len 0 --cpu-max-flops 0 --repeat 1 --out /tmp/x > $R/ncu-cublas-$s.csv 2>&1; echo "ncu cublas $s rc=$? $(left)s left"
done
run 200 .gpu/tests/tests-gpu_parity matmul_ --skip 4096 --skip 2048 > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep -E "test result" $R/parity.log; grep -c "\.\.\. ok" $R/parity.log; grep -c "FAILED" $R/parity.log
cd $OUT && tar czf s52a.tgz s52a && rm -rf s52a
