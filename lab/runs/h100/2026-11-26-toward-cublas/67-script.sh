#!/usr/bin/env bash
# run 67: where the FP64 tensor-core kernel's (matmul_dmma_bulk, the moonshot's) cycles go:
# Nsight Compute's stall reasons and per-instruction samples through the CUDA launch of run 61,
# beside cuBLAS's DGEMM, at 4096
R=docs/perf/h100/2026-11-26
export PATH=$PATH:/usr/local/cuda/bin
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump kernels_cl/matmul_dmma_bulk.cl "" /tmp/bulk.ptx || exit 1
grep -ohE "envreg[0-9]+" /tmp/bulk.ptx | sort | uniq -c
sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/' /tmp/bulk.ptx
for n in 4096 8192; do python3 $R/61-cuda-launch.py /tmp/bulk.ptx double $n 128 128 12 32 matmul_dmma_bulk; done
M="--metrics regex:smsp__average_warps_issue_stalled_(barrier|dispatch_stall|long_scoreboard|math_pipe_throttle|mio_throttle|no_instruction|not_selected|selected|short_scoreboard|wait|sleeping|membar|lg_throttle|misc|branch_resolving)_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__warps_eligible.avg.per_cycle_active,lts__t_bytes.sum.per_second,dram__bytes.sum.per_second"
cat > /tmp/dg.py <<'PY'
import cupy as cp
n = 4096; a = cp.random.rand(n, n); b = cp.random.rand(n, n)
c = a @ b; cp.cuda.Device().synchronize()
PY
echo "== ncu: matmul_dmma_bulk 4096"
timeout 200 ncu --kernel-name matmul_dmma_bulk --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/bulk.ptx double 4096 128 128 12 32 matmul_dmma_bulk 2>&1 | grep -E "^\s+(smsp|sm__|l1tex|lts|dram)" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
echo "== ncu: cuBLAS DGEMM 4096"
timeout 200 ncu --kernel-name regex:gemm --launch-count 1 $M python3 /tmp/dg.py 2>&1 | grep -E "^\s+(smsp|sm__|l1tex|lts|dram)" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
timeout 250 ncu --section SourceCounters --section WarpStateStats --kernel-name matmul_dmma_bulk --launch-count 1 -o /tmp/bulk python3 $R/61-cuda-launch.py /tmp/bulk.ptx double 4096 128 128 12 32 matmul_dmma_bulk 2>&1 | tail -1
ncu --import /tmp/bulk.ncu-rep --page source --print-source sass --csv > $OUT/67-bulk-source.csv 2>&1; wc -l $OUT/67-bulk-source.csv
timeout 250 ncu --section SourceCounters --section WarpStateStats --kernel-name regex:gemm --launch-count 1 -o /tmp/cud python3 /tmp/dg.py 2>&1 | tail -1
ncu --import /tmp/cud.ncu-rep --page source --print-source sass --csv > $OUT/67-cublas-dgemm-source.csv 2>&1; wc -l $OUT/67-cublas-dgemm-source.csv
