#!/usr/bin/env bash
# Session 40, third call of the first H100 lease (bundle eccab10, warm): bias + GELU into BF16 on seven shapes held out of
# every fused fit, Auto and three tiles (the clusters' 128x256 and 128x192, kernel 31's 128x128), torch in the same lease.
R=$OUT/d; mkdir -p $R; F=4096x4096x4096,2048x8192x1024,5000x3000x4000,3072x7168x2048,1536x6144x4096,6000x2500x3000,2500x9000x1500; timeout 150 .gpu/bin/fused --kernels fused-cluster-bf16-128x256,fused-cluster-bf16-128x192,pingpong-bf16-128x128 --shapes $F --out $R/fused.jsonl > /dev/null 2> $R/fused.log; echo "fused rc=$?"; timeout 60 python3 .gpu/bin/fused_torch_anchor.py --shapes $F > $R/fused-torch.jsonl 2>> $R/fused.log; echo "torch rc=$?"; cd $OUT && tar czf d.tgz d && rm -rf d
