#!/usr/bin/env bash
# amp-bench --cpu on POCL and on Intel's CPU runtime, alternating, ROUNDS rounds, with BIN; each
# output's first and last lines have the date and the load average.
#   bash cpu-table.sh BIN OUT ROUNDS
set -u
BIN=$1 OUT=$2 ROUNDS=$3
. /work/main/.intel-ocl/env-both.sh
mkdir -p "$OUT"
for i in $(seq ${FIRST:-1} "$ROUNDS"); do
  for d in ocl/portable-computing-language/0 ocl/intel-r-opencl/0; do
    f="$OUT/run$i-$(echo "$d" | cut -d/ -f2).txt"
    { echo "# $(date -u +%FT%TZ) load: $(cat /proc/loadavg) nproc: $(nproc) binary: $BIN"
      echo "# amp-bench --cpu --accelerator $d --repeats 7 --csv ${f%.txt}.csv"
      POCL_CACHE_DIR=/tmp/cpu6/pocl-after "$BIN" --cpu --accelerator "$d" --repeats 7 \
        --csv "${f%.txt}.csv" 2>&1 | grep -v '\.\.\.$'
      echo "# done $(date -u +%FT%TZ) load: $(cat /proc/loadavg)"
    } > "$f"
  done
done
