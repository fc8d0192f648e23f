#!/usr/bin/env bash
# Issue 33, target 5: amp-bench's matmul cells (matmul_cpu = `fast`, and `openmp`), 1024^2, float
# and double, BEFORE and AFTER binaries alternating, device by device, ROUNDS rounds; each file's
# first line has the date and the load average.
#   bash mm-ab.sh BEFORE AFTER OUT ROUNDS
set -u
BEFORE=$1 AFTER=$2 OUT=$3 ROUNDS=$4
. /work/main/.intel-ocl/env-both.sh
mkdir -p "$OUT"
for i in $(seq ${FIRST:-1} "$ROUNDS"); do
  for d in ocl/portable-computing-language/0 ocl/intel-r-opencl/0; do
    tag=$(echo "$d" | cut -d/ -f2 | cut -c1-5)
    for which in before after; do
      bin=$BEFORE
      [ $which = after ] && bin=$AFTER
      f="$OUT/mm-$tag-$which-round$i.csv"
      echo "# $(date -u +%FT%TZ) load: $(cat /proc/loadavg) binary: $bin" > "$f.log"
      POCL_CACHE_DIR=/tmp/cpu6/pocl-$which "$bin" --workload matmul --impl fast,openmp \
        --sizes 1024 --types float,double --repeats 7 --accelerator "$d" --csv "$f" \
        >> "$f.log" 2>&1
      echo "# done $(date -u +%FT%TZ) load: $(cat /proc/loadavg)" >> "$f.log"
      awk -F, -v w=$which -v t=$tag -v r=$i 'NR>1{printf "round %d %s %-6s %-6s %-6s best %8.2f\n", r, t, w, $3, $2, $8}' "$f"
    done
  done
done
