#!/usr/bin/env bash
# run 105: what the barrier per K tile costs the inner loop in the kernel's order: ptx-probe's
# pinner_o2 (run 103: 27.0-27.1 TFLOP/s) beside pinner_o2bar (the same with a barrier after each
# K tile of 16), three times
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target ptx-probe 2>&1 | grep -E "error|warning"
for r in 1 2 3; do timeout 120 $B/bench/ptx-probe 2>&1 | grep -E "failed|FAIL|error|pfma64|pinner_o"; done
