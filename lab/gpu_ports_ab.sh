#!/usr/bin/env bash
# On one GPU: amp-bench --ports with this tree (A) and with one runtime line taken out again (B),
# in turns, so that the raw side's drift between runs falls on both.
#   . .device/setup.sh && bash lab/gpu_ports_ab.sh "$OUT"
#   DROP='amp__evlist_drop_queue(&s->host_readers, dv->queue);' FILE=runtime/data/source.c ...
#       the line B goes without (default: those, the copy back's wait for copies in on its own
#       queue, 2026-12-07); ROUNDS=3 turns of A then B, REPEATS=21 repeats each
NAME=ports-ab
PARTS=${PARTS:-ab}
. "$(dirname "$0")/gpu_common.sh"
gpu_build amp-bench
FILE=${FILE:-runtime/data/source.c}
DROP=${DROP:-'amp__evlist_drop_queue(&s->host_readers, dv->queue);'}
grep -qF "$DROP" "$FILE" || { echo "ports-ab: '$DROP' is not in $FILE"; exit 1; }
tree_b=$(mktemp -d) # this tree's files (the device's copy may carry a stale .git), no builds
tar -C . --exclude='./build*' --exclude='./.[a-z]*' -cf - . | tar -C "$tree_b" -xf -
grep -vF "$DROP" "$FILE" >"$tree_b/$FILE"
{ cmake -S "$tree_b" -B "$tree_b/build" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$tree_b/build" -j"$(nproc)" --target amp-bench; } >"$o/build-b.log" 2>&1 ||
  { tail -20 "$o/build-b.log"; exit 1; }
for r in $(seq "${ROUNDS:-3}"); do
  for side in A B; do
    bin=$B/bench/amp-bench
    [ $side = B ] && bin=$tree_b/build/bench/amp-bench
    timeout 90 "$bin" --accelerator "$G1" --ports --repeats "${REPEATS:-21}" >"$o/ports-$side$r.txt" 2>&1
    echo "== $side round $r: rc=$?"
    grep -E "^(gemm|conv2d|jacobi2d|mv|correlation) " "$o/ports-$side$r.txt"
  done
done
gpu_archive
