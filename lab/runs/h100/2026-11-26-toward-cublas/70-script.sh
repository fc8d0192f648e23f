#!/usr/bin/env bash
# run 70: the suite's cublas part with matmul_dmma_bulk's step 6 (fragments read 8 bytes at a time,
# rows padded by 4, K tiles of 16 in 3 stages) as its defaults: every row of the toward-cuBLAS
# table from one run, the GPU tests first
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 >/dev/null 2>&1
timeout 560 bash bench/run_suite.sh $OUT/suite cublas > $OUT/suite.log 2>&1; echo "suite rc=$?"
grep -E "== cublas|tests passed|failed|kernel .*ok|FAIL|rror|nbody   tiled|gemm  " $OUT/suite.log | head -90
