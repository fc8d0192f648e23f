#!/usr/bin/env bash
# run 68: run 67 found matmul_dmma_bulk's consumers moving registers, not multiplying: 10 IMAD.MOV
# per DMMA and spills (STL/LDL) in the loop, because each 16-byte read of A holds operand
# positions 0 and 2 of an mma (DMMA wants positions 0-3 in consecutive registers), and the
# 384-thread tile caps ptxas at 168 registers; and 2-way bank conflicts on those reads.
# Candidate: -DA_SCALAR=1, A read 8 bytes at a time straight into its operand position, natural k
# order, rows padded by 4 doubles (APAD, BPAD) so the 8-byte reads of A and B are conflict-free;
# with 4 and 2 producers. Registers, the GPU test, speed beside the defaults, ncu of the best
R=docs/perf/h100/2026-11-26
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench test_kernels_tensor 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
echo "== GPU test of the tensor-core kernels"
AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0 timeout 200 $B/tests/test_kernels_tensor 2>&1 | grep -E "bulk|passed|FAIL" | head -20
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
S="-DA_SCALAR=1 -DAPAD=4 -DBPAD=4"
set -- "" "$S" "$S -DPRODUCERS=2" "-DAPAD=4 -DBPAD=4" "-DA_SCALAR=1" "-DPRODUCERS=2" "$S -DBK=16 -DSTAGES=3" "$S -DBK=16 -DSTAGES=3 -DPRODUCERS=2"
/tmp/regs kernels_cl/matmul_dmma_bulk.cl "$@" 2>&1 | grep -E "^==|Used|spill"
for o in "$@" "" "$S" "$S -DPRODUCERS=2"; do
  echo "-- bulk [$o]"; timeout 90 $ab --workload matmul --impl bulk --types double --sizes 4096,8192 --repeats 5 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types double --repeats 5 2>&1 | grep -E "DGEMM"
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
M="--metrics regex:smsp__average_warps_issue_stalled_(barrier|dispatch_stall|long_scoreboard|math_pipe_throttle|mio_throttle|no_instruction|not_selected|selected|short_scoreboard|wait)_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
for v in "4:$S" "2:$S -DPRODUCERS=2"; do
  np=${v%%:*}; o=${v#*:}
  /tmp/ptxdump kernels_cl/matmul_dmma_bulk.cl "$o" /tmp/b.ptx || continue
  sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/' /tmp/b.ptx
  echo "== ncu [$o]"
  timeout 200 /usr/local/cuda/bin/ncu --kernel-name matmul_dmma_bulk --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/b.ptx double 4096 128 128 $((8 + np)) 32 matmul_dmma_bulk 2>&1 | grep -E "^\s+(smsp|sm__|l1tex)|through" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
done
