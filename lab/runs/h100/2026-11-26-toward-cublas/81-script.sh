#!/usr/bin/env bash
# run 81: gemm_choice's new exact fallback check (amp__gemm_refused_plans) on a GPU that builds
# the tensor-core plans: none refused, float and double
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target test_gemm_choice 2>&1 | grep -E "error|warning"
export AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0
for t in "gemm_choice" "gemm_choice double"; do
  set -- $t; AMP_BLAS_CPU=opencl timeout 200 $B/tests/test_$1 ${2:-} 2>&1 | tail -3 | sed "s/^/$t: /"
done
