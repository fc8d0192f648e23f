#!/usr/bin/env bash
# run 96 (asked for an H200, ran on the H100): is DGEMM without tensor cores held back by the GPU's power cap, as on the H100
# (runs 94-95: 698 W, SM clock 1758-1772 MHz over 400 launches at 8192)? The power limits, the
# FP64 fma from registers (ptx-probe), amp_blas_gemm's 9.x double plans (ring and plain) with the SM
# clock and power sampled during the bench's own short runs and over 400 back-to-back launches,
# the float ring beside cuBLAS's SGEMM and DGEMM in the same run
R=docs/perf/h100/2026-11-26
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version,power.limit,power.default_limit,power.max_limit,clocks.max.sm --format=csv
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench ptx-probe 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
timeout 60 $B/bench/ptx-probe 2>&1 | grep -E "H[12]00|pfma"
DR="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3"
DP="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
FR="-DT=float -DTS_K=32 -DASYNC_STAGES=4"
sample() { nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader,nounits -lms 50 > /tmp/clk.csv & SMI=$!; sleep 0.3; }
report() { kill $SMI; awk -F', ' '$2 > 250 {c += $1; p += $2; k++; if (!lo || $1 < lo) lo = $1} END {printf "   %d samples over 250 W: SM clock mean %.0f MHz (lowest %d), power %.0f W\n", k, c / k, lo, p / k}' /tmp/clk.csv; sleep 2; }
for rep in 1 2; do
  for o in "$DR" "$DP"; do
    echo "-- double [$o]"; sample
    timeout 90 $ab --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 5 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
    report
  done
  echo "-- float [$FR]"; sample
  timeout 90 $ab --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 --fast-opts "$FR" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
  report
done
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
sed 's/for _ in range(5):/for _ in range(400):/; s/ts\[2\]/ts[len(ts) \/\/ 2]/g' $R/61-cuda-launch.py > /tmp/loop.py
/tmp/ptxdump kernels_cl/matmul_fast.cl "$DR" /tmp/dr.ptx || exit 1
sed -i -E 's/mov.b32(\s+%r[0-9]+), %envreg[012];/mov.u32\1, 0;/; s/mov.b32(\s+%r[0-9]+), %envreg6;/mov.u32\1, %nctaid.x;/; s/mov.b32(\s+%r[0-9]+), %envreg7;/mov.u32\1, %nctaid.y;/; s/mov.b32(\s+%r[0-9]+), %envreg8;/mov.u32\1, %nctaid.z;/' /tmp/dr.ptx
echo "-- 400 launches at 8192, the double ring"; sample
python3 /tmp/loop.py /tmp/dr.ptx double 8192 64 128 8 16
report
echo "-- cuBLAS"; sample
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float,double --repeats 5 2>&1 | grep -E "GEMM"
report
