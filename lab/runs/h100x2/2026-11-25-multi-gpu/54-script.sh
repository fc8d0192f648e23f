#!/usr/bin/env bash
# run 54: the matmul row split at 32768 (float, 4 GiB a matrix), fast kernel, from malloc'd and
# from pinned memory, against one GPU (same build as run 53)
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j32 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
echo "== matmul float 32768, malloc'd"
timeout 280 $ab --workload matmul --impl fast,fast-multi --types float --sizes 32768 --repeats 2 --seq-max 1 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror|host data"
echo "== matmul float 32768, pinned"
timeout 280 $ab --workload matmul --impl fast,fast-multi --types float --sizes 32768 --repeats 2 --seq-max 1 --pinned 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror|host data"
