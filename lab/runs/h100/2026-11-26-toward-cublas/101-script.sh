#!/usr/bin/env bash
# run 101: the SASS behind run 100's pouter (28.5-28.7 TFLOP/s) and run 99's wording of the same
# loop (27.3-27.5), and behind pinner: register reuse flags and the instruction mix per kernel.
# (Run 100's ptxas stopped at the NUL that ends OpenCL's PTX binary.)
export PATH=$PATH:/usr/local/cuda/bin
cat > /tmp/pp.c <<'C'
#define main probe_main
#include "bench/ptx_probe.c"
#undef main
int main(void) { printf("%s%s%s%s", source, source_fma, source_inner, source_inner48); return 0; }
C
gcc -I. -o /tmp/pp /tmp/pp.c -lOpenCL 2>&1 | grep error; /tmp/pp > /tmp/probe.cl
# run 99's wording (git show e7f0088:bench/ptx_probe.c), with its own name
cat >> /tmp/probe.cl <<'CL'
#define POUTER99(name, I, J) __kernel void name(__global double *out, int iters) {\
  uint lane = get_local_id(0) & 31; double a[8], b[8], c[8][8];\
  for (int i = 0; i < 8; i++) { a[i] = lane * 1e-3 + i; b[i] = 1.0 - lane * 1e-4 * i; }\
  for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) c[i][j] = i - j;\
  for (int it = 0; it < iters; it++) {\
    _Pragma("unroll") for (int x = 0; x < 8; x++) _Pragma("unroll") for (int y = 0; y < 8; y++)\
      c[I][J] = fma(a[I], b[J], c[I][J]); }\
  double s = 0; for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) s += c[i][j];\
  out[get_global_id(0)] = s; }
POUTER99(pouter99, y, x)
CL
gcc -O2 -x c -o /tmp/ptxdump docs/perf/h100/2026-11-25/cublas/46-ptx-dump.c.txt -lOpenCL
/tmp/ptxdump /tmp/probe.cl "" /tmp/probe.ptx || exit 1
tr -d '\000' < /tmp/probe.ptx > /tmp/p.ptx
ptxas -arch=sm_90 -v -o /tmp/probe.cubin /tmp/p.ptx 2>&1 | grep -E -A1 "Function properties for (pouter|pfma64|pinner)" | grep -E "for|Used" | head -20
cuobjdump -sass /tmp/probe.cubin > /tmp/probe.sass 2>&1; wc -l /tmp/probe.sass
for k in pfma64 pouter pouter99 pouter48 pinner pinner48; do
  awk -v k="Function : $k\$" '$0 ~ k {on=1; next} /Function :/ {on=0} on' /tmp/probe.sass > $OUT/101-$k.sass
  echo "== $k: $(grep -c DFMA $OUT/101-$k.sass) DFMA, $(grep DFMA $OUT/101-$k.sass | grep -c reuse) with a reuse flag, $(grep -c 'LDS' $OUT/101-$k.sass) LDS, $(grep -cE '^\s+/\*[0-9a-f]+\*/' $OUT/101-$k.sass) instructions"
done
