#!/usr/bin/env bash
# throwaway: SGEMM shapes with two tiles per SM, DMMA rate at the GEMM kernel's occupancy, clocks
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build $B -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
gcc -O1 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.applications.graphics,power.limit --format=csv
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 200 > $OUT/clocks.csv &
SMI=$!
mark() { echo "## $(date +%H:%M:%S.%N) $*"; echo "## $(date +%Y/%m/%d\ %H:%M:%S.%N) $*" >> $OUT/clocks.csv; }
mark probe; $B/bench/ptx-probe
mark sgemm
for o in "-DTS_K=32" \
         "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=32" \
         "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16" \
         "-DTS_M=128 -DTS_N=64 -DWPT_M=8 -DWPT_N=8 -DTS_K=32" \
         "-DTS_M=64 -DTS_N=64 -DWPT_M=8 -DWPT_N=8 -DTS_K=32" \
         "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=64"; do
  mark "float [$o]"; /tmp/regs kernels_cl/matmul_fast.cl "-DT=float $o" | grep ptxas
  $B/bench/amp-bench --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 3 --fast-opts "$o" 2>&1 | grep -E 'kernel .*GFLOP|FAIL|rror'
done
mark dgemm-tensor; $B/bench/amp-bench --workload matmul --impl tensor --types double --sizes 8192 --repeats 3 2>&1 | grep -E 'kernel .*GFLOP|FAIL|rror'
mark nbody; $B/bench/amp-bench --workload nbody --impl fast --sizes 262144 --steps 2 --repeats 3 2>&1 | grep -E 'interact|FAIL|rror' | head
mark cuda; python3 bench/cuda_reference.py --only gemm,nbody --gemm-sizes 4096,8192 2>&1 | tail -20
mark end
kill $SMI
