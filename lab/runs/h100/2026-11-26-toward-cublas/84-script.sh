#!/usr/bin/env bash
# (kept as a record) the kernel change this run measured is 84-step13-candidate.diff; whether it
# was kept is in the folder's README
# run 84: run 83's spread copies, rewritten as a candidate step 13 of matmul_fast: no branch per
# step of k (past the last full K tile the copies move 0 bytes and zero-fill), the offsets of a
# thread's rows of A and B worked out once. Registers; float and double at 4096 / 8192 and at
# the sizes with edge tiles, against the unchanged kernel in the same run; Nsight Compute on the
# float candidate; cuBLAS in the same run
R=docs/perf/h100/2026-11-26
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
D16="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2"
sed 's/if (strstr(l, "ptxas info") || strstr(l, "error"))/if (strstr(l, "ptxas info") || strstr(l, "error") || strstr(l, "spill"))/' docs/perf/h100/2026-11-25/cublas/28-regs.c.txt > /tmp/regs.c
gcc -O2 -x c -o /tmp/regs /tmp/regs.c -lOpenCL
echo "== registers"
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32 -DASYNC_STAGES=2" "-DTS_K=32 -DASYNC_STAGES=3" "-DTS_K=16 -DASYNC_STAGES=4" "-DT=double $D -DASYNC_STAGES=3" "-DT=double $D -DASYNC_STAGES=4" "-DT=double $D16 -DASYNC_STAGES=3" 2>&1 | grep -E "^==|Used|spill|rror"
m() { echo "-- $1 [$2]"; timeout 120 $ab --workload matmul --impl fast --types $1 --sizes $3 --repeats ${4:-5} --fast-opts "$2" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"; }
echo "== float"
m float "-DTS_K=32" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=3" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=2" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=4" 4096,8192
m float "-DTS_K=32" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=3" 4096,8192
echo "== double"
m double "$D" 4096,8192 3
m double "$D -DASYNC_STAGES=3" 4096,8192 3
m double "$D -DASYNC_STAGES=4" 4096,8192 3
m double "$D16 -DASYNC_STAGES=3" 4096,8192 3
m double "$D" 4096,8192 3
m double "$D -DASYNC_STAGES=3" 4096,8192 3
echo "== edges"
m double "$D" 1000,1031,2048,3000,5000 3
m double "$D -DASYNC_STAGES=3" 1000,1031,2048,3000,5000 3
m float "-DTS_K=32" 2048,3000,5000 3
m float "-DTS_K=32 -DASYNC_STAGES=3" 1000,1031,2048,3000,5000 3
echo "== cuBLAS"
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "GEMM"
echo "== ncu"
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump kernels_cl/matmul_fast.cl "-DTS_K=32 -DASYNC_STAGES=3" /tmp/sp.ptx || exit 1
sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/; s/mov.b32(\s+%r[0-9]+), %envreg8;/mov.u32\1, %nctaid.z;/' /tmp/sp.ptx
M="--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__warps_eligible.avg.per_cycle_active,launch__registers_per_thread"
timeout 200 /usr/local/cuda/bin/ncu --kernel-name matmul_fast --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/sp.ptx float 4096 128 128 16 16 2>&1 | grep -vE "^\s*$|^==PROF==" | sed -n '/matmul_fast/,$p' | grep -vE ' 0(\.0+)?$' | head -40
