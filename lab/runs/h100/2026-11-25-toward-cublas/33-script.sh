#!/usr/bin/env bash
# throwaway: where matmul_dmma's time goes: without the global copies (results wrong, time only),
# without the mma; the same for matmul_tf32; and a register-fed DMMA loop with LDS per step
B=build-suite
cmake --build $B -j16 >/dev/null 2>&1 || { cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build $B -j16 >/dev/null 2>&1; }
show() { python3 -c "
import csv
for r in csv.DictReader(open('/tmp/c.csv')):
    n=int(r['size']); ms=float(r['kernel_ms_median']); print('   ', n, r['status'], '%.3f ms' % ms, '%.1f TFLOP/s' % (2*n**3/ms/1e9))
"; rm -f /tmp/c.csv; }
export EXP_TIME_FAILED=1
for o in "-DEXP_NO_COPY" "-DEXP_NO_MMA" "-DSTAGES=4 -DEXP_NO_COPY"; do
  echo "== dmma [$o]"
  $B/bench/amp-bench --workload matmul --impl tensor --types double --sizes 4096,8192 --repeats 3 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel" | sed "s/, end to end.*ms,/,/"
done
for o in "-DBN=256 -DWN=64 -DBK=32 -DSTAGES=3 -DEXP_NO_COPY" "-DBN=256 -DWN=64 -DBK=32 -DSTAGES=3 -DTF_ROUND=0 -DEXP_NO_COPY"; do
  echo "== tf32 [$o]"
  $B/bench/amp-bench --workload matmul --impl tf32 --types float --sizes 4096,8192 --repeats 3 --fast-opts "$o" 2>&1 | grep -E "kernel" | sed "s/, end to end.*ms,/,/"
done
for o in "-DTS_K=32" "-DTS_K=32 -DEXP_NO_COPY"; do
  echo "== sgemm [$o]"
  $B/bench/amp-bench --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 3 --fast-opts "$o" 2>&1 | grep -E "kernel" | sed "s/, end to end.*ms,/,/"
done
