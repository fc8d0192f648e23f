#!/usr/bin/env bash
# run 92: examples/overlap, the open question of 2026-11-24 (two pieces slower than one): each
# piece count from pinned and from malloc'd memory with 7 repeats, each run beside its own whole
# run; a trace of 2 and of 4 pinned pieces to see where the time goes
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target overlap amp-trace 2>&1 | grep -E " error|warning:"
ov=$(find $B -name amp-overlap -type f | head -1)
export AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0
for mem in --pinned ""; do
  for p in 2 4 8 2; do
    echo "-- pieces $p $mem"; timeout 100 $ov --size 268435456 --pieces $p --repeats 7 $mem 2>&1 | tail -4
  done
done
for p in 2 4; do
  AMP_TRACE=$OUT/92-trace-$p.json timeout 100 $ov --size 268435456 --pieces $p --repeats 1 --pinned 2>&1 | tail -3
  tr=$(find $B -name amp-trace -type f | head -1); [ -n "$tr" ] && $tr $OUT/92-trace-$p.json 2>&1 | head -40
done
