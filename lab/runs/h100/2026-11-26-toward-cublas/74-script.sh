#!/usr/bin/env bash
# run 74: does matmul_tf32 (AMP_GEMM_ALLOW_TF32's kernel, its 9.x shape) pay the register moves
# that step 6 removed from matmul_dmma_bulk? Its A fragments are read 8 bytes at a time (positions
# 0 and 2 of an mma from one read) and rounded to TF32. Nsight Compute through the CUDA launch at
# 4096 (the launcher's FP32 check prints WRONG for TF32's 1e-4 errors: expected)
R=docs/perf/h100/2026-11-26
export PATH=$PATH:/usr/local/cuda/bin
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump kernels_cl/matmul_tf32.cl "-DBN=256 -DWN=64 -DBK=32 -DSTAGES=3" /tmp/tf.ptx || exit 1
sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/' /tmp/tf.ptx
python3 $R/61-cuda-launch.py /tmp/tf.ptx float 4096 128 256 8 32 matmul_tf32
M="--metrics regex:smsp__average_warps_issue_stalled_(barrier|dispatch_stall|long_scoreboard|math_pipe_throttle|mio_throttle|no_instruction|not_selected|selected|short_scoreboard|wait)_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
timeout 200 ncu --kernel-name matmul_tf32 --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/tf.ptx float 4096 128 256 8 32 matmul_tf32 2>&1 | grep -E "^\s+(smsp|sm__|l1tex)" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
timeout 250 ncu --section SourceCounters --kernel-name matmul_tf32 --launch-count 1 -o /tmp/tf python3 $R/61-cuda-launch.py /tmp/tf.ptx float 4096 128 256 8 32 matmul_tf32 2>&1 | tail -1
ncu --import /tmp/tf.ncu-rep --page source --print-source sass --csv > $OUT/74-tf32-source.csv 2>&1
python3 $R/65-analysis.py $OUT/74-tf32-source.csv
