#!/usr/bin/env bash
# run 98: the double inner loop (ptx-probe's pinner, run 97: 25.7-25.9 TFLOP/s, as fast as the
# whole DGEMM) with four placements of threads: matmul_fast's (half a warp per row of threads),
# warps of 4 x 8, and quarter-warps of 2 x 4 two ways. Run 94's per-instruction counts: a 16-byte
# tile_static read of B costs 4 wavefronts, one of A 2 (one per distinct quarter-warp pattern)
export PATH=$PATH:/usr/local/cuda/bin
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target ptx-probe 2>&1 | grep -E "error|warning"
for r in 1 2 3; do timeout 120 $B/bench/ptx-probe 2>&1 | grep -E "failed|FAIL|pfma|pinner"; done
