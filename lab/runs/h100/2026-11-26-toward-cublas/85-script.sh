#!/usr/bin/env bash
# run 85: step 13 in the tree (matmul_fast -DASYNC_STAGES, amp_blas_gemm's float plan on 9.x and
# double fallback): the GPU tests that run it (kernels_matmul's ring shapes, gemm_choice float
# and double, dm_gemm double), then the ring's stages and K tiles around the chosen ones,
# against K tiles of 32 through registers in the same run
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
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DBW=2"
m() { echo "-- $1 [$2]"; timeout 120 $ab --workload matmul --impl fast --types $1 --sizes $3 --repeats ${4:-5} ${2:+--fast-opts "$2"} 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"; }
echo "== float"
m float "" 4096,8192
m float "-DTS_K=32" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=4" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=5" 4096,8192
m float "" 4096,8192
echo "== double"
m double "" 4096,8192 3
m double "$D -DTS_K=8" 4096,8192 3
m double "$D -DTS_K=16 -DASYNC_STAGES=4" 4096,8192 3
m double "$D -DTS_K=32 -DASYNC_STAGES=3" 4096,8192 3
m double "$D -DTS_K=32 -DASYNC_STAGES=2" 4096,8192 3
m double "" 4096,8192 3
