mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
for tool in memcheck racecheck synccheck initcheck; do
echo "=== $tool" >> $R/sanitizer-1000x1002x998.log
timeout 100 compute-sanitizer --tool $tool --kernel-name kns=pad_b16 --print-limit 20 .gpu/bin/scorecard --kernels auto-bf16 --precisions bf16 --sizes 1000x1002x998 --plots none --vec-len 0 --repeat 1 --cpu-max-flops 0 --out /tmp/s-$tool >> $R/sanitizer-1000x1002x998.log 2>&1
done
timeout 60 ncu --clock-control none -k regex:"pad_b16" --launch-count 2 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum .gpu/bin/scorecard --precisions bf16 --sizes 1000x1002x998 --kernels auto-bf16 --plots none --vec-len 0 --repeat 1 --cpu-max-flops 0 --out /tmp/x > $R/ncu-pad-1000x1002x998.txt 2>&1
grep -E "^===|SUMMARY" $R/sanitizer-1000x1002x998.log; grep -E "pad_b16|duration" $R/ncu-pad-1000x1002x998.txt | head -4
cd $OUT && tar czf r.tgz r && rm -rf r
