#!/usr/bin/env bash
# (kept as a record) the kernel change this run measured is 87-tail-db.diff; it was not kept in the tree
# run 87: around step 13. (1) The tiles on C's edges and the last, partial K tile of interior
# tiles took a single buffer with a barrier on each side; a throwaway -DMF_TAIL_DB=1 gives them
# step 6's double buffer instead: float and double at the sizes with edge tiles. (2) The ring for
# the 64 x 128 float shape amp_blas_gemm runs at 1000-1024. (3) Double shapes with more warps now
# that the ring needs no staging registers (8 x 4 per thread in 128 registers: two tiles per SM),
# and the row order of the multiply-adds. Against the tree's step 13 in the same run
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E " error|warning:"
ab=$B/bench/amp-bench
F="-DTS_K=32 -DASYNC_STAGES=4"
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3"
F64="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4"
X="-cl-nv-maxrregcount=128 -DTILE_SHAPE=0"
m() { echo "-- $1 [$2]"; timeout 120 $ab --workload matmul --impl fast --types $1 --sizes $3 --repeats ${4:-5} --fast-opts "$2" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"; }
echo "== (1) edges"
m float "$F" 1031,2048,3000,5000,4096,8192
m float "$F -DMF_TAIL_DB=1" 1031,2048,3000,5000,4096,8192
m float "$F" 3000,5000
m double "$D" 1000,1031,2048,3000,5000 3
m double "$D -DMF_TAIL_DB=1" 1000,1031,2048,3000,5000 3
echo "== (2) 64 x 128 float"
m float "$F64" 1000,1024
m float "$F64 -DASYNC_STAGES=3" 1000,1024
m float "$F64 -DASYNC_STAGES=4" 1000,1024
m float "$F64 -DTS_K=32 -DASYNC_STAGES=3" 1000,1024
m float "$F64 -DTS_K=32" 1000,1024
echo "== (3) double shapes"
m double "$D" 4096,8192 3
m double "$D -DFMA_ORDER=1" 4096,8192 3
m double "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4 -DBW=2 -DTS_K=16 -DASYNC_STAGES=3 $X" 4096,8192 3
m double "-DTS_M=128 -DTS_N=64 -DWPT_M=8 -DWPT_N=4 -DBW=2 -DTS_K=16 -DASYNC_STAGES=3 $X" 4096,8192 3
m double "-DTS_M=128 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DBW=2 -DTS_K=16 -DASYNC_STAGES=3" 4096,8192 3
m double "$D" 4096,8192 3
