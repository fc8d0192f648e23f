#!/usr/bin/env bash
# Issue 33, target 5: amp-bench --cpu before and after this branch's change, alternating build by
# build and device by device on the shared 2-core machine, RUNS runs of each. BEFORE and AFTER are
# amp-bench binaries (Release builds of ea6e9b3 and of this branch); each output's first line has
# the date, the load average and the binary. summary.py (in ../2026-11-27-cpu-openmp) reads each
# of OUT/before and OUT/after.
#   bash lab/runs/2026-11-27-cpu-openmp-3/run.sh BEFORE AFTER OUT RUNS
set -u
BEFORE=$1 AFTER=$2 OUT=$3 RUNS=$4
. /work/main/.intel-ocl/env-both.sh
mkdir -p "$OUT/before" "$OUT/after"
for i in $(seq 1 "$RUNS"); do
  for d in ocl/portable-computing-language/0 ocl/intel-r-opencl/0; do
    tag=$(echo "$d" | tr '/' '_')
    for which in before after; do
      bin=$BEFORE
      [ $which = after ] && bin=$AFTER
      f="$OUT/$which/cpu-$tag-run$i.txt"
      { echo "# $(date -u +%FT%TZ) load: $(cat /proc/loadavg) nproc: $(nproc) binary: $bin"
        echo "# amp-bench --cpu --accelerator $d --repeats 7 --csv ${f%.txt}.csv"
        POCL_CACHE_DIR=/tmp/cpuw/pocl-$which "$bin" --cpu --accelerator "$d" --repeats 7 \
          --csv "${f%.txt}.csv" 2>&1 | grep -v '\.\.\.$'
        echo "# done $(date -u +%FT%TZ) load: $(cat /proc/loadavg)"
      } > "$f"
    done
  done
done
