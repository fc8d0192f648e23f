#!/usr/bin/env bash
# run 94: where the ring DGEMM's cycles go (amp_blas_gemm's P_D_RING plan, step 13, 8 x 8 doubles
# per thread, K 16, 3 stages) at 4096 through the CUDA launch of run 61: ptxas's registers and SASS,
# Nsight Compute's stall reasons, per-instruction samples (65-analysis.py), and the SM clock, power
# and throttle reasons sampled while the kernel runs back to back for a few seconds
R=docs/perf/h100/2026-11-26
export PATH=$PATH:/usr/local/cuda/bin
O="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3"
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump kernels_cl/matmul_fast.cl "$O" /tmp/dr.ptx || exit 1
sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/; s/mov.b32(\s+%r[0-9]+), %envreg8;/mov.u32\1, %nctaid.z;/' /tmp/dr.ptx
ptxas -arch=sm_90 -v -o /tmp/dr.cubin /tmp/dr.ptx 2>&1 | grep -E "registers|spill"
cuobjdump -sass /tmp/dr.cubin > $OUT/94-ring-double.sass; wc -l $OUT/94-ring-double.sass
for n in 4096 8192; do python3 $R/61-cuda-launch.py /tmp/dr.ptx double $n 64 128 8 16; done
# the clock while it runs: the launcher with 400 timed launches instead of 5
sed 's/for _ in range(5):/for _ in range(400):/; s/ts\[2\]/ts[len(ts) \/\/ 2]/g' $R/61-cuda-launch.py > /tmp/loop.py
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active,clocks_throttle_reasons.sw_power_cap,clocks_throttle_reasons.hw_slowdown,clocks_throttle_reasons.sw_thermal_slowdown --format=csv -lms 100 > $OUT/94-clocks.csv &
SMI=$!
sleep 1; python3 /tmp/loop.py /tmp/dr.ptx double 8192 64 128 8 16; sleep 1
kill $SMI
awk -F', ' 'NR>1 {print $2, $3, $5}' $OUT/94-clocks.csv | sort | uniq -c | sort -rn | head -12
M="--metrics regex:smsp__average_warps_issue_stalled_(barrier|dispatch_stall|long_scoreboard|math_pipe_throttle|mio_throttle|no_instruction|not_selected|selected|short_scoreboard|wait|sleeping|membar|lg_throttle|misc|branch_resolving)_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__warps_eligible.avg.per_cycle_active,sm__cycles_elapsed.avg.per_second,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active"
echo "== ncu: ring double 4096"
timeout 200 ncu --kernel-name matmul_fast --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/dr.ptx double 4096 64 128 8 16 2>&1 | grep -E "^\s+(smsp|sm__|l1tex|launch)" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
timeout 250 ncu --section SourceCounters --section WarpStateStats --kernel-name matmul_fast --launch-count 1 -o /tmp/dr python3 $R/61-cuda-launch.py /tmp/dr.ptx double 4096 64 128 8 16 2>&1 | tail -1
ncu --import /tmp/dr.ncu-rep --page source --print-source sass --csv > $OUT/94-ring-double-source.csv 2>&1; wc -l $OUT/94-ring-double-source.csv
python3 $R/65-analysis.py $OUT/94-ring-double-source.csv
