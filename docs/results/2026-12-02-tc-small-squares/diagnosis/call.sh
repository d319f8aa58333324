set -x
mkdir -p .gpu && tar xJf .gpu1/bundle.tar.xz -C .gpu
R=$OUT/r; mkdir -p $R
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
SH=1x4096x4096,16x4096x4096,64x4096x4096,16x14336x4096,16x4096x14336,512x512x512,640x640x640,896x896x896,1000x1000x1000,1024x1024x1024,1280x1280x1280,1536x1536x1536,2000x2000x2000,3000x3000x3000,3008x3008x3008,5000x5000x5000
# 1. cuBLAS kernels under ncu (plain timing first, without ncu)
python3 .gpu1/cublas_kernels.py $SH > $R/torch-times.txt 2>&1
timeout 200 ncu --clock-control none --nvtx --nvtx-include "mm */" --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv python3 .gpu1/cublas_kernels.py $SH > $R/ncu-cublas.csv 2> $R/ncu-cublas.err
# 2. every BF16 kernel on the shapes
timeout 240 .gpu/bin/scorecard --precisions bf16 --sizes $SH --plots none --vec-len 67108864 --out $R/every > $R/every.log 2>&1
# 3. our decode kernels under ncu
for kern in persistent-bf16-64x128 mma-splitk-bf16-16x128 mma-splitk-bf16-64x128; do
timeout 90 ncu --clock-control none -k regex:"persistent|splitk|memset|zero" --launch-skip 6 --launch-count 4 --metrics gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum --csv .gpu/bin/scorecard --precisions bf16 --sizes 16x4096x4096 --kernels $kern --plots none --vec-len 0 --repeat 1 --out /tmp/x > $R/ncu-$kern.csv 2>&1
done
cd $OUT && tar czf r.tgz r && rm -rf r
