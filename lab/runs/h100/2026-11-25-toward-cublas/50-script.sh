#!/usr/bin/env bash
# run 50: AMP_BLAS_GEMM=portable on the H100: the gemm tests, then amp_blas_gemm's column with and
# without it (double and float at 4096: matmul_fast's speed with it, the vendor kernels' without)
B=build-suite
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build $B -j16 >/dev/null 2>&1
ctest --test-dir $B -R "gemm" --output-on-failure 2>&1 | grep -E "Test +#|tests passed"
for t in double float; do
  for mode in auto portable; do
    echo "-- $t, AMP_BLAS_GEMM=$mode"
    AMP_BLAS_GEMM=$mode timeout 60 $B/bench/amp-bench --workload matmul --impl fast,gemm --types $t --sizes 4096 --repeats 3 2>&1 | grep -E "\.\.\.|kernel|rror" | sed "s/, end to end.*ms,/,/"
  done
done
