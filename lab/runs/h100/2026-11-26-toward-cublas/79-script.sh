#!/usr/bin/env bash
# (kept as a record) the kernel change this run measured is 77-async-ring.diff (run 77's); it was not kept in the tree
# run 79: run 77's cp.async feed needs no staging registers, so a 256-thread tile might fit in
# 128 registers and two tiles of threads share an SM (16 warps instead of 8, to cover the waits on
# tile_static reads): -cl-nv-maxrregcount=128 (and 168 for 12 warps... not a whole tile: 128 only)
# with the ring, against the unchanged kernel in the same run; registers and spills
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
R="-cl-nv-maxrregcount=128 -DTILE_SHAPE=0"  # a first try with the tile shape declared (.reqntid) kept 163-187 registers: 79-async-two-tiles-reqntid.txt
echo "== registers"
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=16 -DASYNC_STAGES=3 $R" "-DTS_K=16 -DASYNC_STAGES=2 $R" "-DTS_K=32 -DASYNC_STAGES=2 $R" "-DTS_K=8 -DASYNC_STAGES=4 $R" "-DTS_K=16 $R" "-DTS_K=32 -DTILE_SHAPE=0" 2>&1 | grep -E "^==|Used|spill|rror"
m() { echo "-- $1 [$2]"; timeout 90 $ab --workload matmul --impl fast --types $1 --sizes $3 --repeats ${4:-5} --fast-opts "$2" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"; }
echo "== float"
m float "-DTS_K=32" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=3 $R" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=2 $R" 4096,8192
m float "-DTS_K=32 -DASYNC_STAGES=2 $R" 4096,8192
m float "-DTS_K=8 -DASYNC_STAGES=4 $R" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=4 $R" 4096,8192
m float "-DTS_K=16 -DASYNC_STAGES=3 -DTILE_SHAPE=0" 4096,8192
m float "-DTS_K=16 $R" 4096,8192
m float "-DTS_K=32" 4096,8192
