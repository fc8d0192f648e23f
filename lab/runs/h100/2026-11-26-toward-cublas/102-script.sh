#!/usr/bin/env bash
# run 102: kernels_matmul with the step 13 ring shapes now also run for int (the float shapes:
# 16-byte B vectors of four 4-byte elements), on the H100
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target test_kernels_matmul 2>&1 | grep -E " error|warning:"
export AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0
timeout 300 $B/tests/test_kernels_matmul 2>&1 | grep -E "ring|passed|MISMATCH|FAIL"
