#!/usr/bin/env bash
# run 97: the ceiling of the double shape's inner loop. bench/ptx_probe.c's new rates: the FP64 fma
# from registers at DGEMM's occupancy (2 tiles of 128 threads per SM, 16 or 64 accumulators per
# thread) and matmul_fast's double inner loop (K 16, 8 x 8 per thread) on unchanging tile_static
# data, no copies and no barriers; then Nsight Compute on that loop
export PATH=$PATH:/usr/local/cuda/bin
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target ptx-probe 2>&1 | grep -E "error|warning"
for r in 1 2; do timeout 120 $B/bench/ptx-probe 2>&1; done
M="--metrics regex:smsp__average_warps_issue_stalled_(barrier|dispatch_stall|long_scoreboard|math_pipe_throttle|mio_throttle|not_selected|short_scoreboard|wait)_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__warps_eligible.avg.per_cycle_active,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active"
for k in pinner pfma64; do
  echo "== ncu: $k"
  timeout 200 ncu --kernel-name $k --launch-count 1 $M $B/bench/ptx-probe 2>&1 | grep -E "^\s+(smsp|sm__|l1tex|launch)" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
done
