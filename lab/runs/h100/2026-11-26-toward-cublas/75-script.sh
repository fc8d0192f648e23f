#!/usr/bin/env bash
# run 75: matmul_tf32 with A read 4 bytes at a time into its mma operand positions, the mma's own k
# order, and swizzles that keep those reads conflict-free (-DA_SCALAR=1, candidate default) against
# the committed reads (A_SCALAR=0): the GPU tests, then TFLOP/s at 4096 / 8192 for the 9.x shape and
# the defaults, cuBLAS TF32 in the same run, and Nsight Compute's instruction count
R=docs/perf/h100/2026-11-26
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench test_kernels_tensor test_gemm_choice test_gemm_tf32 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
echo "== GPU tests"
for t in kernels_tensor gemm_choice gemm_tf32; do [ -x $B/tests/test_$t ] && AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0 timeout 200 $B/tests/test_$t 2>&1 | tail -1 | sed "s/^/$t: /"; done
W="-DBN=256 -DWN=64 -DBK=32 -DSTAGES=3"
for o in "$W -DA_SCALAR=0" "$W -DA_SCALAR=1" "-DA_SCALAR=0" "-DA_SCALAR=1" "$W -DA_SCALAR=0" "$W -DA_SCALAR=1"; do
  echo "-- tf32 [$o]"; timeout 90 $ab --workload matmul --impl tf32 --types float --sizes 4096,8192 --repeats 5 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
echo "== tf32 through amp_blas_gemm_ex at every size (its own shapes)"
timeout 150 $ab --workload matmul --impl tf32 --types float --sizes 1000,1024,2048,3000,4096,5000,8192 --repeats 5 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-types float --gemm-sizes 1000,1024,2048,3000,4096,5000,8192 --tf32 --repeats 5 2>&1 | grep -E "TF32"
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump kernels_cl/matmul_tf32.cl "$W" /tmp/tf.ptx || exit 1
sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/' /tmp/tf.ptx
M="--metrics smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
timeout 200 /usr/local/cuda/bin/ncu --kernel-name matmul_tf32 --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/tf.ptx float 4096 128 256 8 32 matmul_tf32 2>&1 | grep -E "^\s+(smsp|sm__|l1tex)|through" | sed -E 's/ {2,}/  /g'
