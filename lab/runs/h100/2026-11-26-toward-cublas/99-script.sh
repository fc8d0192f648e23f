#!/usr/bin/env bash
# run 99: does the double inner loop lose its 14% to the tile_static reads or to the operands
# themselves? ptx-probe's pouter / pouter_a: the same 64 multiply-adds per k with 8 values of A
# and 8 of B in registers (no reads), at the same occupancy (2 x 128 threads per SM)
export PATH=$PATH:/usr/local/cuda/bin
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target ptx-probe 2>&1 | grep -E "error|warning"
for r in 1 2 3; do timeout 120 $B/bench/ptx-probe 2>&1 | grep -E "failed|FAIL|error|pfma|pinner |pouter"; done
