#!/usr/bin/env bash
# run 88: step 13 after a review: copies past the last full K tile (which move 0 bytes) now take
# K tile 0's addresses instead of addresses past the end of A and B, and tiles on C's edges issue
# none. The GPU tests that run it and the speed of both plans, against run 85-86's
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench test_kernels_matmul test_gemm_choice test_dm_gemm 2>&1 | grep -E " error|warning:"
export AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0
echo "== GPU tests"
timeout 200 $B/tests/test_kernels_matmul 2>&1 | grep -E "ring|passed|MISMATCH|FAIL"
for t in "gemm_choice" "gemm_choice double" "dm_gemm double"; do
  set -- $t; AMP_BLAS_CPU=opencl timeout 200 $B/tests/test_$1 ${2:-} 2>&1 | tail -1 | sed "s/^/$t: /"
done
unset AMP_DEFAULT_ACCELERATOR
ab=$B/bench/amp-bench
m() { echo "-- $1 [$2]"; timeout 120 $ab --workload matmul --impl fast --types $1 --sizes $3 --repeats ${4:-5} ${2:+--fast-opts "$2"} 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"; }
m float "" 2048,3000,4096,5000,8192
m float "-DTS_K=32" 4096,8192
m double "" 3000,4096,8192 3
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "GEMM"
