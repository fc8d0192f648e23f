#!/usr/bin/env bash
# (kept as a record) the kernel change this run measured is 77-async-ring.diff; it was not kept in the tree
# run 77: step 13 candidate of matmul_fast, -DASYNC_STAGES=S: interior tiles fed by cp.async
# through a ring of S K tiles with no staging registers, A transposed on the way by 4-byte (float)
# or 8-byte (double) copies, a warp's copies covering 4 rows x 8 columns (conflict-free writes).
# Run 15 kept A untransposed; this one keeps the same tile_static layout and FFMA loop as
# matmul_fast. Registers; float and double against the unchanged kernel in the same run; edge
# sizes for correctness (amp-bench checks every result against OpenBLAS); cuBLAS in the same run
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
echo "== registers"
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32" "-DTS_K=32 -DASYNC_STAGES=2" "-DTS_K=16 -DASYNC_STAGES=3" "-DTS_K=16 -DASYNC_STAGES=4" "-DTS_K=32 -DASYNC_STAGES=3" "-DTS_K=8 -DASYNC_STAGES=4" "-DT=double $D" "-DT=double $D -DASYNC_STAGES=3" "-DT=double $D -DASYNC_STAGES=4" "-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3" 2>&1 | grep -E "^==|Used|spill|rror"
m() { echo "-- $1 [$2]"; timeout 90 $ab --workload matmul --impl fast --types $1 --sizes $3 --repeats ${4:-5} --fast-opts "$2" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"; }
echo "== float"
m float "-DTS_K=32" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=2" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=3" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=4" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=3" 4096,8192
m float "-DTS_K=8 -DASYNC_STAGES=4" 4096,8192
m float "-DTS_K=32" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=3" 1000,1031,3000,2048 3
echo "== double"
m double "$D" 4096,8192 3
m double "$D -DASYNC_STAGES=2" 4096,8192 3
m double "$D -DASYNC_STAGES=3" 4096,8192 3
m double "$D -DASYNC_STAGES=4" 4096,8192 3
m double "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3" 4096,8192 3
m double "$D -DASYNC_STAGES=3" 1000,1031,3000 3
m double "$D" 4096,8192 3
echo "== cuBLAS"
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --repeats 5 2>&1 | grep -E "GEMM"
