mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
R=$OUT/r; mkdir -p $R
for s in 88x86x214 1008x1171x1; do
for kern in widened-bf16-64x64 splitk-64x64x16; do
P=bf16; [[ $kern == splitk* ]] && P=fp32
timeout 100 ncu --clock-control none -k regex:"widened|splitk" --launch-count 2 --section SpeedOfLight --section LaunchStats --section WarpStateStats --section Occupancy --section SourceCounters --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum .gpu/bin/scorecard --precisions $P --sizes $s --kernels $kern --plots none --vec-len 0 --repeat 1 --cpu-max-flops 0 --out /tmp/x > $R/ncu-$kern-$s.txt 2>&1
done; done
cd $OUT && tar czf r.tgz r && rm -rf r
