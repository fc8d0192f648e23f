#!/usr/bin/env bash
# (a later session, 2026-11-25 evening) the kernel is kept as 51-matmul_fast_ws.cl.txt and the amp-bench `ws` column as 51-bench-ws.diff; neither was kept in the tree
# run 51: matmul_fast_ws (matmul_fast's 8 x 8 register tile fed by producer warps, mbarriers per
# buffer instead of a tile barrier) against matmul_fast, float and double; registers; cuBLAS in the same run
B=build-gpu
export PATH=$PATH:/usr/local/cuda/bin
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
echo "== registers"
/tmp/regs kernels_cl/matmul_fast_ws.cl "-DT=float" "-DT=float -DSTAGES=2" "-DT=float -DTS_K=16 -DSTAGES=4" "-DT=float -DPRODUCERS=2" "-DT=double -DTS_M=64 -DTS_N=128 -DTS_K=8 -DBW=2" "-DT=double -DTS_M=64 -DTS_N=128 -DTS_K=16 -DBW=2" 2>&1 | grep -E "^==|Used|spill|error" | head -30
m() { echo "-- $1 $2 [$3]"; timeout 120 $ab --workload matmul --impl $1 --types $2 --sizes $4 --repeats 3 ${3:+--fast-opts "$3"} 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"; }
echo "== float"
m fast float "" 1000,3000,4096,8192
m ws float "" 1000,1031,3000,4096,8192
m ws float "-DSTAGES=2" 4096,8192
m ws float "-DSTAGES=4" 4096,8192
m ws float "-DTS_K=16 -DSTAGES=4" 4096,8192
m ws float "-DPRODUCERS=2" 4096,8192
m ws float "-DPRODUCERS=2 -DSTAGES=4" 4096,8192
echo "== double"
m fast double "" 1000,4096,8192
m ws double "-DTS_M=64 -DTS_N=128 -DTS_K=8 -DBW=2" 1000,1031,4096,8192
m ws double "-DTS_M=64 -DTS_N=128 -DTS_K=16 -DBW=2" 4096,8192
m ws double "-DTS_M=64 -DTS_N=128 -DTS_K=8 -DBW=2 -DSTAGES=4" 4096,8192
m ws double "-DTS_M=128 -DTS_N=64 -DTS_K=8 -DBW=2" 4096,8192
m ws double "-DTS_M=64 -DTS_N=128 -DTS_K=8 -DBW=2 -DPRODUCERS=2" 4096,8192
echo "== cuBLAS"
timeout 200 python3 bench/cuda_reference.py --only gemm --gemm-sizes 1000,3000,4096,8192 --repeats 5 2>&1 | tail -14
