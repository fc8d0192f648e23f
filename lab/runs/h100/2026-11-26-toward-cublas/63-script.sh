#!/usr/bin/env bash
# run 63: the portable DGEMM kept only 0.71 eligible warps per scheduler in run 61 (8 warps per SM,
# 254 registers): double shapes with 8 x 4 or 4 x 8 per thread, which fit more warps on an SM, with
# warp tiles (step 12 candidate) so a warp's reads of B stay within 128 bytes; registers of each.
# Then the SASS of the float kernel (K 32) from the CUDA toolkit's ptxas, for reading offline.
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
set -- "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2" \
  "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4 -DTS_K=16 -DBW=2 -DWARP_TILE=1" \
  "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4 -DTS_K=16 -DBW=2 -DWARP_TILE=1 -cl-nv-maxrregcount=128" \
  "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4 -DTS_K=32 -DBW=2 -DWARP_TILE=1" \
  "-DTS_M=128 -DTS_N=64 -DWPT_M=8 -DWPT_N=4 -DTS_K=8 -DBW=2 -DWARP_TILE=1" \
  "-DTS_M=128 -DTS_N=64 -DWPT_M=8 -DWPT_N=4 -DTS_K=16 -DBW=2 -DWARP_TILE=1" \
  "-DTS_M=128 -DTS_N=64 -DWPT_M=8 -DWPT_N=4 -DTS_K=16 -DBW=2 -DWARP_TILE=1 -cl-nv-maxrregcount=128" \
  "-DTS_M=64 -DTS_N=128 -DWPT_M=4 -DWPT_N=8 -DTS_K=16 -DBW=2 -DWARP_TILE=1" \
  "-DTS_M=64 -DTS_N=128 -DWPT_M=4 -DWPT_N=8 -DTS_K=16 -DBW=2 -DWARP_TILE=1 -cl-nv-maxrregcount=128" \
  "-DTS_M=128 -DTS_N=128 -DWPT_M=8 -DWPT_N=4 -DTS_K=8 -DBW=2 -DWARP_TILE=1" \
  "-DTS_M=64 -DTS_N=64 -DWPT_M=8 -DWPT_N=4 -DTS_K=16 -DBW=2 -DWARP_TILE=1" \
  "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
R=(); for o in "$@"; do R+=("-DT=double $o"); done
/tmp/regs kernels_cl/matmul_fast.cl "${R[@]}" 2>&1 | grep -E "^==|Used|spill"
for o in "$@"; do
  echo "-- double [$o]"; timeout 60 $ab --workload matmul --impl fast --types double --sizes 4096 --repeats 3 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
echo "== SASS of the float kernel, K 32"
/tmp/ptxdump kernels_cl/matmul_fast.cl "-DTS_K=32" $OUT/63-sgemm-k32.ptx && ptxas -arch=sm_90 -v $OUT/63-sgemm-k32.ptx -o /tmp/sg.cubin 2>&1 | tail -2 && cuobjdump -sass /tmp/sg.cubin > $OUT/63-sgemm-k32.sass && wc -l $OUT/63-sgemm-k32.sass
/tmp/ptxdump kernels_cl/matmul_fast.cl "-DTS_K=16" $OUT/63-sgemm-k16.ptx && ptxas -arch=sm_90 -v $OUT/63-sgemm-k16.ptx -o /tmp/sg16.cubin 2>&1 | tail -1 && cuobjdump -sass /tmp/sg16.cubin > $OUT/63-sgemm-k16.sass
