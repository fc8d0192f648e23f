#!/usr/bin/env bash
# run 73: ptxas does not know matmul_fast's tile size (the kernel takes any launch shape's
# RTS_M x RTS_N tile at run time, unchecked). -DTILE_SHAPE=1 declares it (AMP_TILE_SHAPE, OpenCL's
# reqd_work_group_size, which PTX passes on as .reqntid): does ptxas schedule the loop
# differently? Float K 32 and K 16, the double shape, 64 x 128 at 1000-1024, each beside
# TILE_SHAPE=0 in the same run; registers
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32" "-DTS_K=32 -DTILE_SHAPE=1" "-DTS_K=16 -DTILE_SHAPE=1" "-DT=double $D" "-DT=double $D -DTILE_SHAPE=1" 2>&1 | grep -E "^==|Used|spill"
for o in "-DTS_K=32" "-DTS_K=32 -DTILE_SHAPE=1" "-DTS_K=16" "-DTS_K=16 -DTILE_SHAPE=1" "-DTS_K=32" "-DTS_K=32 -DTILE_SHAPE=1"; do
  echo "-- float [$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
for o in "" "-DTILE_SHAPE=1"; do
  echo "-- float 64x128 8x4 at 1000,1024 [$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 1000,1024 --repeats 5 --fast-opts "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4 $o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
for o in "$D" "$D -DTILE_SHAPE=1" "$D" "$D -DTILE_SHAPE=1"; do
  echo "-- double [$o]"; timeout 60 $ab --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 3 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 1000,1024,4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "SGEMM"
