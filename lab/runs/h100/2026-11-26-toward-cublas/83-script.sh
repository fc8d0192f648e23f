#!/usr/bin/env bash
# (kept as a record) the kernel change this run measured is 83-async-spread.diff (run 77's ring
# plus -DASYNC_SPREAD); it was not kept in the tree
# run 83: run 82 found the ring's warps waiting on its copies (long scoreboard 0.19 per issued
# instruction, FMA pipe 68% against 75%): all 20 copies of a K tile were issued at once, right
# before the loop's first tile_static reads. -DASYNC_SPREAD=1 issues them a few at a time between
# the steps of k, as CUTLASS's multistage loop does. One and two tiles per SM, float and double,
# against the unchanged kernel in the same run; Nsight Compute on the spread ring
R=docs/perf/h100/2026-11-26
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
X="-cl-nv-maxrregcount=128 -DTILE_SHAPE=0"
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
m() { echo "-- $1 [$2]"; timeout 90 $ab --workload matmul --impl fast --types $1 --sizes $3 --repeats ${4:-5} --fast-opts "$2" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"; }
echo "== float"
m float "-DTS_K=32" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=2 -DASYNC_SPREAD=1" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=3 -DASYNC_SPREAD=1" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=3 -DASYNC_SPREAD=1" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=4 -DASYNC_SPREAD=1" 4096,8192
m float "-DTS_K=8 -DASYNC_STAGES=3 -DASYNC_SPREAD=1" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=2 -DASYNC_SPREAD=1 $X" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=4 -DASYNC_SPREAD=1 $X" 4096,8192
m float "-DTS_K=32" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=2 -DASYNC_SPREAD=1" 1000,1031,3000 3
echo "== double"
m double "$D" 4096,8192 3
m double "$D -DASYNC_STAGES=3 -DASYNC_SPREAD=1" 4096,8192 3
m double "$D -DASYNC_STAGES=4 -DASYNC_SPREAD=1" 4096,8192 3
echo "== ncu"
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump kernels_cl/matmul_fast.cl "-DTS_K=32 -DASYNC_STAGES=2 -DASYNC_SPREAD=1" /tmp/sp.ptx || exit 1
sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/; s/mov.b32(\s+%r[0-9]+), %envreg8;/mov.u32\1, %nctaid.z;/' /tmp/sp.ptx
python3 $R/61-cuda-launch.py /tmp/sp.ptx float 4096 128 128 16 16
M="--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__warps_eligible.avg.per_cycle_active,launch__registers_per_thread"
timeout 200 /usr/local/cuda/bin/ncu --kernel-name matmul_fast --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/sp.ptx float 4096 128 128 16 16 2>&1 | grep -vE "^\s*$|^==PROF==" | sed -n '/matmul_fast/,$p' | grep -vE ' 0(\.0+)?$' | head -40
