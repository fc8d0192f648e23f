#!/usr/bin/env bash
# run 71: after step 6, matmul_dmma_bulk (128 x 128) beat matmul_dmma at 1000 and 1024 in run 70,
# where amp_blas_gemm still picks matmul_dmma (too few 128 x 128 blocks for the SMs). Both kernels
# at small sizes, and the bulk kernel with 128 x 64 blocks (4 consumer warps: two tiles of
# threads per SM, no register cap below 255) at every size, to set the choice
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
/tmp/regs kernels_cl/matmul_dmma_bulk.cl "" "-DBN=64" "-DBN=64 -DPRODUCERS=2" 2>&1 | grep -E "^==|Used|spill"
Z=256,512,768,1000,1024,1536,2048
timeout 200 $ab --workload matmul --impl bulk,tensor --types double --sizes $Z --repeats 5 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
for o in "-DBN=64" "-DBN=64 -DPRODUCERS=2"; do
  echo "-- bulk [$o]"; timeout 200 $ab --workload matmul --impl bulk --types double --sizes $Z,3000,4096,5000,8192 --repeats 5 --fast-opts "$o" 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
timeout 200 python3 bench/cuda_reference.py --only gemm --gemm-sizes $Z,3000,4096,5000,8192 --gemm-types double --repeats 5 2>&1 | grep -E "DGEMM"
