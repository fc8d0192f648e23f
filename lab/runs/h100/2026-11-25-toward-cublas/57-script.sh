#!/usr/bin/env bash
# run 57: matmul_fast with step 11 (FMA_ORDER: rows serpentine for float, columns for double) as the
# default: GPU tests of the matmul kernels and GEMM, SGEMM at every size of the table and DGEMM
# (portable kernel) beside cuBLAS in the same run
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench test_kernels_matmul test_gemm_choice test_dm_gemm 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
echo "== GPU tests"
for t in kernels_matmul gemm_choice dm_gemm; do AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0 timeout 120 $B/tests/test_$t 2>&1 | tail -1 | sed "s/^/$t: /"; done
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32" "-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2" 2>&1 | grep -E "^==|Used|spill"
echo "== SGEMM, fast (amp_blas_gemm's shapes) and gemm"
timeout 150 $ab --workload matmul --impl fast,gemm --types float --sizes 1000,1024,2048,3000,4096,5000,8192 --repeats 5 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror"
echo "== DGEMM, the portable kernel"
timeout 90 $ab --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 3 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror"
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 1000,1024,2048,3000,4096,5000,8192 --gemm-types float --repeats 5 2>&1 | grep -E "SGEMM"
