#!/usr/bin/env bash
# run 62: run 61 found matmul_fast's warps stalled on tile_static reads (short scoreboard 0.50 per
# issued instruction against cuBLAS's 0.19). Candidate step 12, -DFRAG_PREFETCH=1: each k's values of
# A and B read from tile_static memory during the multiply-adds of k - 1. Float (K 32, K 16) and the
# double shape beside FRAG_PREFETCH=0 in the same run, ptxas's registers, and Nsight Compute's stall
# reasons for each through the CUDA launch of run 61
R=docs/perf/h100/2026-11-26
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench test_kernels_matmul 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
echo "== GPU test of the matmul kernels"
AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0 timeout 120 $B/tests/test_kernels_matmul 2>&1 | grep -E "prefetch|passed|FAIL" | head -20
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
D="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32" "-DTS_K=32 -DFRAG_PREFETCH=1" "-DTS_K=16 -DFRAG_PREFETCH=1" "$D" "$D -DFRAG_PREFETCH=1" 2>&1 | grep -E "^==|Used|spill"
for o in "-DTS_K=32" "-DTS_K=32 -DFRAG_PREFETCH=1" "-DTS_K=16" "-DTS_K=16 -DFRAG_PREFETCH=1" "-DTS_K=32" "-DTS_K=32 -DFRAG_PREFETCH=1"; do
  echo "-- float [$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
for o in "$D" "$D -DFRAG_PREFETCH=1" "$D" "$D -DFRAG_PREFETCH=1"; do
  echo "-- double [$o]"; timeout 60 $ab --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 3 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
M="--metrics regex:smsp__average_warps_issue_stalled_(barrier|dispatch_stall|long_scoreboard|math_pipe_throttle|mio_throttle|no_instruction|not_selected|selected|short_scoreboard|wait)_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__warps_eligible.avg.per_cycle_active"
prof() { # name type tile-args opts...
  local name=$1 ty=$2 shape=$3; shift 3
  /tmp/ptxdump kernels_cl/matmul_fast.cl "$*" /tmp/$name.ptx || return
  sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/' /tmp/$name.ptx
  echo "== ncu: $ty [$*]"
  python3 $R/61-cuda-launch.py /tmp/$name.ptx $ty 4096 $shape
  timeout 200 /usr/local/cuda/bin/ncu --kernel-name matmul_fast --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/$name.ptx $ty 4096 $shape 2>&1 | grep -E "^\s+(smsp|sm__|l1tex)" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
}
prof sgp float "128 128 16 16" -DTS_K=32 -DFRAG_PREFETCH=1
prof sg16 float "128 128 16 16" -DTS_K=16
prof dgp double "64 128 8 16" $D -DT=double -DFRAG_PREFETCH=1
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "SGEMM"
