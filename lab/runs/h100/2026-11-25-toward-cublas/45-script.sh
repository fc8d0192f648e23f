#!/usr/bin/env bash
# the suite's cublas part at the new defaults, after the GPU tests
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 >/dev/null 2>&1
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
/tmp/regs kernels_cl/matmul_dmma_bulk.cl "" 2>&1 | grep -E "^==|Used|error"
timeout 560 bash bench/run_suite.sh $OUT/suite cublas > $OUT/suite.log 2>&1; echo "suite rc=$?"
