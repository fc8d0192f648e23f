#!/usr/bin/env bash
# run 64: does ptxas keep tile_static reads that the PTX issues earlier? The float kernel's PTX
# (K 32, as NVIDIA's OpenCL compiler made it in run 63, environment registers replaced as in run 61)
# with every ld.shared moved D fma instructions earlier (64-hoist.py, run here beforehand:
#   python3 64-hoist.py k32.ptx D k32-hD.ptx), launched through CUDA; ncu stall reasons of two.
# (The PTX files lived in a scratch folder, not kept: 4,800 lines each.)
R=docs/perf/h100/2026-11-26
export PATH=$PATH:/usr/local/cuda/bin
for d in 0 32 64 128 0 32 64 128; do
  for n in 4096 8192; do printf "D=%s " $d; python3 $R/61-cuda-launch.py exp/k32-h$d.ptx float $n 128 128 16 16; done
done
M="--metrics regex:smsp__average_warps_issue_stalled_(barrier|dispatch_stall|long_scoreboard|math_pipe_throttle|mio_throttle|no_instruction|not_selected|selected|short_scoreboard|wait)_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"
for d in 32 64; do
  echo "== ncu D=$d"
  timeout 200 ncu --kernel-name matmul_fast --launch-count 1 $M python3 $R/61-cuda-launch.py exp/k32-h$d.ptx float 4096 128 128 16 16 2>&1 | grep -E "^\s+(smsp|sm__|l1tex)" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
done
