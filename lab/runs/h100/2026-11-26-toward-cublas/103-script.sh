#!/usr/bin/env bash
# run 103: does the order of the inner loop's 64 multiply-adds move its speed, as the wording of
# pouter did (runs 99-101)? ptx-probe's pinner_o0..o3 (scalar accumulators; B's value kept over 8,
# A's, and each serpentine) beside pinner, three times; ptxas's reuse flags for each
export PATH=$PATH:/usr/local/cuda/bin
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target ptx-probe 2>&1 | grep -E "error|warning"
for r in 1 2 3; do timeout 120 $B/bench/ptx-probe 2>&1 | grep -E "failed|FAIL|error|pfma64|pinner"; done
cat > /tmp/pp.c <<'C'
#define main probe_main
#include "bench/ptx_probe.c"
#undef main
int main(void) { printf("%s%s%s%s%s", source, source_fma, source_inner, source_inner48, source_order); return 0; }
C
gcc -I. -o /tmp/pp /tmp/pp.c -lOpenCL 2>&1 | grep error; /tmp/pp > /tmp/probe.cl
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump /tmp/probe.cl "" /tmp/probe.ptx || exit 1
tr -d '\000' < /tmp/probe.ptx > /tmp/p.ptx
ptxas -arch=sm_90 -o /tmp/probe.cubin /tmp/p.ptx 2>&1 | head -3
cuobjdump -sass /tmp/probe.cubin > /tmp/probe.sass 2>&1
for k in pinner pinner_o0 pinner_o1 pinner_o2 pinner_o3; do
  awk -v k="Function : $k\$" '$0 ~ k {on=1; next} /Function :/ {on=0} on' /tmp/probe.sass > /tmp/$k.sass
  echo "== $k: $(grep -c DFMA /tmp/$k.sass) DFMA, $(grep DFMA /tmp/$k.sass | grep -c reuse) with a reuse flag, $(grep -c LDS /tmp/$k.sass) LDS, $(grep -cE '^\s+/\*[0-9a-f]+\*/' /tmp/$k.sass) instructions"
done
