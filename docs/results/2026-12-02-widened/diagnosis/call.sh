mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
R=$OUT/r; mkdir -p $R; cat .gpu/COMMIT > $R/commit.txt
timeout 120 ncu --clock-control none -k regex:"persistent|tma|pad|widened|zero|memset" --launch-count 6 --section SpeedOfLight --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum .gpu/bin/scorecard --precisions bf16 --sizes 6448x64x10074 --kernels auto-bf16 --plots none --vec-len 0 --repeat 1 --cpu-max-flops 0 --out /tmp/x > $R/ncu-6448x64x10074.txt 2>&1
timeout 120 ncu --clock-control none -k regex:"persistent|tma|pad|widened" --launch-count 3 --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum .gpu/bin/scorecard --precisions bf16 --sizes 12540x4297x16 --kernels auto-bf16 --plots none --vec-len 0 --repeat 1 --cpu-max-flops 0 --out /tmp/x > $R/ncu-12540x4297x16.txt 2>&1
cd $OUT && tar czf r.tgz r && rm -rf r
