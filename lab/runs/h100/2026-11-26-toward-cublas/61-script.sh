#!/usr/bin/env bash
# run 61: where matmul_fast's cycles go. Nsight Compute does not see OpenCL launches (run 60), so the
# PTX NVIDIA's OpenCL compiler makes is launched through the CUDA driver API (61-cuda-launch.py) and
# profiled there, beside cuBLAS's SGEMM: warp stall reasons per issued instruction, issue rate, pipes
R=docs/perf/h100/2026-11-26

gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
D="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
/tmp/ptxdump kernels_cl/matmul_fast.cl "-DTS_K=32" /tmp/sg.ptx || exit 1
/tmp/ptxdump kernels_cl/matmul_fast.cl "$D" /tmp/dg.ptx || exit 1
# OpenCL's environment registers: 0-2 the launch's group offset (0 here), 6-8 the number of groups
grep -ohE "envreg[0-9]+" /tmp/sg.ptx /tmp/dg.ptx | sort | uniq -c
for f in /tmp/sg.ptx /tmp/dg.ptx; do
  sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/; s/mov.b32(\s+%r[0-9]+), %envreg8;/mov.u32\1, %nctaid.z;/' $f
done
grep -c envreg /tmp/sg.ptx /tmp/dg.ptx
python3 $R/61-cuda-launch.py /tmp/sg.ptx float 4096 128 128 16 16
python3 $R/61-cuda-launch.py /tmp/dg.ptx double 4096 64 128 8 16
cat > /tmp/sg.py <<'PY'
import sys, cupy as cp
n = 4096; dt = cp.float32 if sys.argv[1] == "float" else cp.float64
a = cp.random.rand(n, n, dtype=dt); b = cp.random.rand(n, n, dtype=dt)
c = a @ b; cp.cuda.Device().synchronize()
PY
M="--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__warps_eligible.avg.per_cycle_active,sm__cycles_elapsed.avg.per_second"
for w in "sg float matmul_fast" "dg double matmul_fast"; do set -- $w
  echo "== ncu: ours, $2 4096 (PTX of OpenCL, launched through CUDA)"
  timeout 200 /usr/local/cuda/bin/ncu --kernel-name matmul_fast --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/$1.ptx $2 4096 $( [ $2 = float ] && echo "128 128 16 16" || echo "64 128 8 16") 2>&1 | grep -vE "^\s*$|^==PROF==" | sed -n '/matmul_fast/,$p' | head -60
done
echo "== ncu: cuBLAS SGEMM 4096"
timeout 200 /usr/local/cuda/bin/ncu --kernel-name regex:gemm --launch-count 1 $M python3 /tmp/sg.py float 2>&1 | grep -vE "^\s*$|^==PROF==" | sed -n '/gemm/,$p' | head -60
