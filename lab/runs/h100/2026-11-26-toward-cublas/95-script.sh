#!/usr/bin/env bash
# (kept as a record) the kernel change this run measured is 95-warp-tile.diff; it was not kept in the tree
# run 95: candidate step 14, warp tiles (-DWARP_TILE=1: a warp's 32 threads as 4 x 8 positions of
# the tile). Run 94 found the ring DGEMM's tile_static reads at 3 wavefronts per 16-byte load (a
# half-warp's 16 threads read 256 bytes of B), the L1's data pipe about 80% busy beside the FP64
# pipe's 79%, and the GPU at its 700 W cap. With warp tiles a half-warp's reads of B fall in 128
# bytes. The amp_blas_gemm 9.x plans with and without, twice, interleaved; Nsight Compute's
# wavefronts; the clock and power over 400 back-to-back launches at 8192
R=docs/perf/h100/2026-11-26
export PATH=$PATH:/usr/local/cuda/bin
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
D="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3"
F="-DT=float -DTS_K=32 -DASYNC_STAGES=4"
for rep in 1 2; do
  for w in 0 1; do
    echo "-- double ring [WARP_TILE=$w]"; timeout 90 $ab --workload matmul --impl fast --types double --sizes 3000,4096,8192 --repeats 5 --fast-opts "$D -DWARP_TILE=$w" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
  done
  for w in 0 1; do
    echo "-- float ring [WARP_TILE=$w]"; timeout 90 $ab --workload matmul --impl fast --types float --sizes 3000,4096,8192 --repeats 5 --fast-opts "$F -DWARP_TILE=$w" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
  done
done
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
sed 's/for _ in range(5):/for _ in range(400):/; s/ts\[2\]/ts[len(ts) \/\/ 2]/g' $R/61-cuda-launch.py > /tmp/loop.py
for w in 0 1; do
  /tmp/ptxdump kernels_cl/matmul_fast.cl "$D -DWARP_TILE=$w" /tmp/d$w.ptx || exit 1
  sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/; s/mov.b32(\s+%r[0-9]+), %envreg8;/mov.u32\1, %nctaid.z;/' /tmp/d$w.ptx
  ptxas -arch=sm_90 -v -o /tmp/d$w.cubin /tmp/d$w.ptx 2>&1 | grep -E "registers|spill"
done
for w in 0 1 0 1; do
  nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader,nounits -lms 100 > /tmp/clk.csv &
  SMI=$!; sleep 0.5
  echo "-- 400 launches at 8192, double ring [WARP_TILE=$w]"; python3 /tmp/loop.py /tmp/d$w.ptx double 8192 64 128 8 16
  kill $SMI; awk -F', ' '$2 > 650 {c += $1; p += $2; k++} END {printf "   %d samples over 650 W: mean SM clock %.0f MHz, power %.0f W\n", k, c / k, p / k}' /tmp/clk.csv
  sleep 2
done
M="--metrics regex:smsp__average_warps_issue_stalled_(barrier|dispatch_stall|long_scoreboard|math_pipe_throttle|mio_throttle|not_selected|short_scoreboard|wait)_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_active,smsp__warps_eligible.avg.per_cycle_active,gpu__time_duration.sum"
for w in 0 1; do
  echo "== ncu: double ring 4096 [WARP_TILE=$w]"
  timeout 200 ncu --kernel-name matmul_fast --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/d$w.ptx double 4096 64 128 8 16 2>&1 | grep -E "^\s+(smsp|sm__|l1tex|gpu__)" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
done
