#!/usr/bin/env bash
# run 72: amp_blas_gemm in double with the new choice on 9.x (matmul_dmma_bulk, 128 x 64 blocks
# where C has too few 128 x 128 ones) at every size beside the bulk kernel's defaults and cuBLAS,
# after the GPU tests of the GEMM choice and the tensor-core kernels
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench test_gemm_choice test_dm_gemm test_kernels_tensor 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
echo "== GPU tests"
for t in gemm_choice dm_gemm kernels_tensor; do AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0 timeout 200 $B/tests/test_$t 2>&1 | tail -1 | sed "s/^/$t: /"; done
Z=512,768,1000,1024,1536,2048,3000,4096,5000,8192
timeout 250 $ab --workload matmul --impl gemm,bulk --types double --sizes $Z --repeats 5 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
timeout 200 python3 bench/cuda_reference.py --only gemm --gemm-sizes $Z --gemm-types double --repeats 5 2>&1 | grep -E "DGEMM"
