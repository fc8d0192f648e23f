#!/usr/bin/env bash
# run 100: would a smaller register tile with twice the warps have more room? ptx-probe's
# pouter48 (4 x 8 multiply-adds per k from registers, 16 warps per SM) and pinner48 (the 64 x 128
# tile as 16 x 16 threads with 4 x 8 doubles each, two tiles of 256 threads per SM, 6 tile_static
# reads per 32 multiply-adds) beside the 8 x 8 ones; and the SASS of pouter / pinner (register
# reuse flags) through ptxas and cuobjdump
export PATH=$PATH:/usr/local/cuda/bin
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target ptx-probe 2>&1 | grep -E "error|warning"
for r in 1 2 3; do timeout 120 $B/bench/ptx-probe 2>&1 | grep -E "failed|FAIL|error|pfma|pinner|pouter"; done
cat > /tmp/pp.c <<'C'
#define main probe_main
#include "bench/ptx_probe.c"
#undef main
int main(void) { printf("%s%s%s%s", source, source_fma, source_inner, source_inner48); return 0; }
C
gcc -I. -o /tmp/pp /tmp/pp.c -lOpenCL 2>&1 | grep error; /tmp/pp > /tmp/probe.cl
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump /tmp/probe.cl "" /tmp/probe.ptx || exit 1
ptxas --version | tail -1; head -20 /tmp/probe.ptx | grep -E "^\.(version|target)"
ptxas -arch=sm_90 -o /tmp/probe.cubin /tmp/probe.ptx 2>&1 | head -5
if [ ! -s /tmp/probe.cubin ]; then
  sed -i -E 's/^\.version [0-9.]+/.version 8.0/' /tmp/probe.ptx
  ptxas -arch=sm_90 -o /tmp/probe.cubin /tmp/probe.ptx 2>&1 | head -5
fi
cuobjdump -sass /tmp/probe.cubin > /tmp/probe.sass 2>&1; wc -l /tmp/probe.sass
for k in pouter pfma64 pinner pouter48; do
  awk -v k="Function : $k\$" '$0 ~ k {on=1; next} /Function :/ {on=0} on' /tmp/probe.sass > $OUT/100-$k.sass
  echo "== $k: $(grep -c DFMA $OUT/100-$k.sass) DFMA, $(grep DFMA $OUT/100-$k.sass | grep -c reuse) with a reuse flag"
  grep DFMA $OUT/100-$k.sass | head -12
done
