#!/usr/bin/env bash
# (kept as a record) the kernel change this run measured is 77-async-ring.diff (run 77's); it was not kept in the tree
# run 82: why run 77's cp.async feed is slower than matmul_fast's register feed with the same loop.
# Nsight Compute through the CUDA launch of the OpenCL PTX (run 61's method), float 4096: the
# unchanged kernel (K 32), the cp.async ring (K 32, 2 stages, one tile per SM) and the same in 128
# registers (two tiles per SM, run 79): stalls per issued instruction, issue rate, pipes, occupancy
R=docs/perf/h100/2026-11-26
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump kernels_cl/matmul_fast.cl "-DTS_K=32" /tmp/base.ptx || exit 1
/tmp/ptxdump kernels_cl/matmul_fast.cl "-DTS_K=32 -DASYNC_STAGES=2" /tmp/ring.ptx || exit 1
/tmp/ptxdump kernels_cl/matmul_fast.cl "-DTS_K=32 -DASYNC_STAGES=2 -DTILE_SHAPE=0 -cl-nv-maxrregcount=128" /tmp/ring2.ptx || exit 1
grep -m2 -E "maxnreg|reqntid" /tmp/ring2.ptx /tmp/ring.ptx
for f in /tmp/base.ptx /tmp/ring.ptx /tmp/ring2.ptx; do
  sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/; s/mov.b32(\s+%r[0-9]+), %envreg8;/mov.u32\1, %nctaid.z;/' $f
done
for v in base ring ring2; do echo "-- $v"; python3 $R/61-cuda-launch.py /tmp/$v.ptx float 4096 128 128 16 16; done
M="--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__warps_eligible.avg.per_cycle_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,smsp__inst_executed_op_ldgsts.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_global_ld.sum"
for v in base ring ring2; do
  echo "== ncu: $v"
  timeout 200 /usr/local/cuda/bin/ncu --kernel-name matmul_fast --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/$v.ptx float 4096 128 128 16 16 2>&1 | grep -vE "^\s*$|^==PROF==" | sed -n '/matmul_fast/,$p' | grep -vE ' 0(\.0+)?$' | head -60
done
