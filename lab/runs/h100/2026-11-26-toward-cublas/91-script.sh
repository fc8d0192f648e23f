#!/usr/bin/env bash
# run 91: after a review of step 13: kernels_matmul's ring shapes at four more interior sizes
# (no partial K tile; 2 and 3 full K tiles, fewer than the 4-stage ring's stages) and gemm_choice
# with expectations that hold on NVIDIA GPUs other than 9.x, on the H100
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target test_kernels_matmul test_gemm_choice 2>&1 | grep -E " error|warning:"
export AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0
timeout 300 $B/tests/test_kernels_matmul 2>&1 | grep -E "ring|passed|MISMATCH|FAIL"
for t in "gemm_choice" "gemm_choice double"; do
  set -- $t; AMP_BLAS_CPU=opencl timeout 200 $B/tests/test_$1 ${2:-} 2>&1 | tail -1 | sed "s/^/$t: /"
done
