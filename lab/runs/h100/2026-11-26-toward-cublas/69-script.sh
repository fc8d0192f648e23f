#!/usr/bin/env bash
# run 69: run 68's A_SCALAR (A read 8 bytes at a time into its operand position, rows padded by 4)
# took matmul_dmma_bulk from 45.7 / 42.0 to 51.8 / 47.7 TFLOP/s, and to 54.9 / 51.3 with K tiles
# of 16 and 3 stages. Shapes around that, then the best at every size beside cuBLAS, and ncu
R=docs/perf/h100/2026-11-26
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
S="-DA_SCALAR=1 -DAPAD=4 -DBPAD=4"
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
/tmp/regs kernels_cl/matmul_dmma_bulk.cl "$S -DBK=16 -DSTAGES=3" "$S -DBK=16 -DSTAGES=4" "$S -DBK=8 -DSTAGES=4" 2>&1 | grep -E "^==|Used|spill"
for o in "$S -DBK=16 -DSTAGES=3" "$S -DBK=16 -DSTAGES=4" "$S -DBK=16 -DSTAGES=2" "-DA_SCALAR=1 -DBK=16 -DSTAGES=3" \
         "$S -DBK=32 -DSTAGES=3" "$S -DBK=8 -DSTAGES=4" "$S -DBK=8 -DSTAGES=6" "$S -DBK=16 -DSTAGES=3 -DGROUP_M=16" \
         "$S -DBK=16 -DSTAGES=3 -DGROUP_M=4" "$S -DBK=16 -DSTAGES=3"; do
  echo "-- bulk [$o]"; timeout 90 $ab --workload matmul --impl bulk --types double --sizes 4096,8192 --repeats 5 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
echo "== every size: bulk defaults, bulk [$S -DBK=16 -DSTAGES=3], tensor"
timeout 200 $ab --workload matmul --impl bulk,tensor --types double --sizes 1000,1024,2048,3000,4096,5000,8192 --repeats 5 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
timeout 200 $ab --workload matmul --impl bulk --types double --sizes 1000,1024,2048,3000,4096,5000,8192 --repeats 5 --fast-opts "$S -DBK=16 -DSTAGES=3" 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
timeout 200 python3 bench/cuda_reference.py --only gemm --gemm-sizes 1000,1024,2048,3000,4096,5000,8192 --gemm-types double --repeats 5 2>&1 | grep -E "DGEMM"
