#!/usr/bin/env bash
# run 86: the suite's cublas part with matmul_fast's step 13 (the cp.async ring) in amp_blas_gemm and
# amp-bench's fast column on 9.x, kernels_matmul among the GPU tests: every row of the toward-cuBLAS
# table from one run, the GPU tests first
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 >/dev/null 2>&1
timeout 560 bash bench/run_suite.sh $OUT/suite cublas > $OUT/suite.log 2>&1; echo "suite rc=$?"
grep -E "== cublas|tests passed|failed|kernel .*ok|FAIL|rror|nbody   tiled|gemm  " $OUT/suite.log | head -90
