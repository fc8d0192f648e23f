#!/usr/bin/env bash
# run 106: burst against sustained. The bench's cells (5 launches after 1 warm-up) run before the
# 700 W cap bites (runs 94-96). Here the same GEMMs at 8192, 100 timed launches after 20 warm-ups
# (about 5 s per cell), ours (amp-bench: fast = matmul_fast's 9.x ring plans, gemm =
# amp_blas_gemm: the ring for float, matmul_dmma_bulk for double) and cuBLAS's (CuPy), with the SM
# clock and power sampled over each; then the burst cells again in the same run
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
sample() { nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader,nounits -lms 100 > /tmp/clk.csv & SMI=$!; sleep 0.3; }
report() { kill $SMI; awk -F', ' '$2 > 400 {c += $1; p += $2; k++; if (!lo || $1 < lo) lo = $1} END {if (k) printf "   %d samples over 400 W: SM clock mean %.0f MHz (lowest %d), power %.0f W\n", k, c / k, lo, p / k}' /tmp/clk.csv; sleep 3; }
for t in float double; do
  for rep in 1 2; do
    echo "-- ours, $t, sustained"; sample
    timeout 200 $ab --workload matmul --impl fast,gemm --types $t --sizes 8192 --repeats 100 --warmup 20 2>&1 | grep -E "^\[|kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
    report
    echo "-- cuBLAS, $t, sustained"; sample
    timeout 200 python3 bench/cuda_reference.py --only gemm --gemm-sizes 8192 --gemm-types $t --repeats 100 --warmup 20 2>&1 | grep -E "GEMM "
    report
  done
done
echo "-- burst: ours"
timeout 200 $ab --workload matmul --impl fast,gemm --types float,double --sizes 8192 --repeats 5 2>&1 | grep -E "^\[|kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
sleep 3
echo "-- burst: cuBLAS"
timeout 200 python3 bench/cuda_reference.py --only gemm --gemm-sizes 8192 --gemm-types float,double --repeats 5 2>&1 | grep -E "GEMM "
