#!/usr/bin/env bash
# run 76: the GPU tests of the GEMM choice and the double GEMM, each for float and for double (runs
# 72 and 75 ran them without the `double` argument, so for float only: the double variant is the
# one that exercises the new 128 x 64 bulk plan), and the tensor-core kernels, on the final tree
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target test_gemm_choice test_dm_gemm test_kernels_tensor test_kernels_matmul 2>&1 | grep -E "error|warning"
export AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0
for t in "gemm_choice" "gemm_choice double" "dm_gemm" "dm_gemm double" "kernels_tensor" "kernels_matmul"; do
  set -- $t; timeout 200 $B/tests/test_$1 ${2:-} 2>&1 | tail -1 | sed "s/^/$t: /"
done
