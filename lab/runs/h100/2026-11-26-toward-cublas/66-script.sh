#!/usr/bin/env bash
# run 66: run 65 showed the K-32 float kernel's tile_static reads issued only 8-16 instructions
# before their first use (cuBLAS: about 40), ptxas holding 229 registers, 32 of them the next K
# tile's fetch, live across the whole multiply. Candidate step 13, -DFETCH_SPLIT=S: the next K tile
# fetched in S parts, each before and staged after its part of the multiply. Float K 32 (S 1, 2, 4)
# and K 16 (S 1, 2), the double shape (S 1, 2, 4), registers, speed, Nsight Compute's stalls
R=docs/perf/h100/2026-11-26
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench test_kernels_matmul 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
echo "== GPU test of the matmul kernels"
AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0 timeout 120 $B/tests/test_kernels_matmul 2>&1 | grep -E "parts|passed|FAIL" | head -20
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
D="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32" "-DTS_K=32 -DFETCH_SPLIT=2" "-DTS_K=32 -DFETCH_SPLIT=4" "-DTS_K=16" "-DTS_K=16 -DFETCH_SPLIT=2" "$D" "$D -DFETCH_SPLIT=2" "$D -DFETCH_SPLIT=4" 2>&1 | grep -E "^==|Used|spill"
for o in "-DTS_K=32" "-DTS_K=32 -DFETCH_SPLIT=2" "-DTS_K=32 -DFETCH_SPLIT=4" "-DTS_K=16" "-DTS_K=16 -DFETCH_SPLIT=2" "-DTS_K=32" "-DTS_K=32 -DFETCH_SPLIT=2" "-DTS_K=32 -DFETCH_SPLIT=4"; do
  echo "-- float [$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
for o in "$D" "$D -DFETCH_SPLIT=2" "$D -DFETCH_SPLIT=4" "$D" "$D -DFETCH_SPLIT=2" "$D -DFETCH_SPLIT=4"; do
  echo "-- double [$o]"; timeout 60 $ab --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 3 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
M="--metrics regex:smsp__average_warps_issue_stalled_(barrier|dispatch_stall|long_scoreboard|math_pipe_throttle|mio_throttle|no_instruction|not_selected|selected|short_scoreboard|wait)_per_issue_active\.ratio,smsp__issue_active.avg.per_cycle_active,smsp__inst_executed.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active"
prof() { # name type "TS_M TS_N RTS_M RTS_N" opts...
  local name=$1 ty=$2 shape=$3; shift 3
  /tmp/ptxdump kernels_cl/matmul_fast.cl "$*" /tmp/$name.ptx || return
  sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/' /tmp/$name.ptx
  echo "== ncu: $ty [$*]"
  timeout 200 /usr/local/cuda/bin/ncu --kernel-name matmul_fast --launch-count 1 $M python3 $R/61-cuda-launch.py /tmp/$name.ptx $ty 4096 $shape 2>&1 | grep -E "^\s+(smsp|sm__|l1tex)" | sed -E 's/smsp__average_warps_issue_stalled_(\w+)_per_issue_active.ratio/stall \1/; s/ {2,}/  /g'
}
prof s2 float "128 128 16 16" -DTS_K=32 -DFETCH_SPLIT=2
prof s4 float "128 128 16 16" -DTS_K=32 -DFETCH_SPLIT=4
prof d2 double "64 128 8 16" -DT=double $D -DFETCH_SPLIT=2
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float --repeats 5 2>&1 | grep -E "SGEMM"
