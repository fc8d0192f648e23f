#!/usr/bin/env bash
# run 93: after reading the whole change again (dead pointers of step 6 left out of step 13's build,
# a redundant #error term dropped): the GPU tests that run step 13 and its speed, with cuBLAS
# in the same run, on the H100
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target test_kernels_matmul test_gemm_choice 2>&1 | grep -E " error|warning:"
export AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0
timeout 300 $B/tests/test_kernels_matmul 2>&1 | grep -E "ring|passed|MISMATCH|FAIL"
for t in "gemm_choice" "gemm_choice double"; do
  set -- $t; AMP_BLAS_CPU=opencl timeout 200 $B/tests/test_$1 ${2:-} 2>&1 | tail -1 | sed "s/^/$t: /"
done
unset AMP_DEFAULT_ACCELERATOR
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E " error|warning:"
$B/bench/amp-bench --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
$B/bench/amp-bench --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 3 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "SGEMM \("
