#!/usr/bin/env bash
# amp-bench --cpu, repeated: ampcl on each CPU OpenCL device beside OpenMP + SIMD C, on the shared
# 2-core machine. Each run records the load average before it; the table in docs/PERFORMANCE.md
# takes, per row, the best median of the runs for each side.
#   bash lab/runs/2026-11-27-cpu-openmp/run.sh BUILD_DIR OUT_DIR RUNS [DEVICE_PATH...]
set -u
B=$1 OUT=$2 RUNS=$3
shift 3
mkdir -p "$OUT"
export POCL_CACHE_DIR="$PWD/$B/pocl-cache"
devs=("$@")
[ ${#devs[@]} -gt 0 ] || devs=(default)
for i in $(seq 1 "$RUNS"); do
  for d in "${devs[@]}"; do
    tag=$(echo "$d" | tr '/' '_')
    # Intel's native_exp misses add-exp's check (1e-4; issue 33, target 2): its add-exp kernel
    # is built with exp instead
    opts=()
    case $d in *intel*) opts=(--fast-opts -Dnative_exp=exp) ;; esac
    f="$OUT/cpu-$tag-run$i.txt"
    { echo "# $(date -u +%FT%TZ) load: $(cat /proc/loadavg) nproc: $(nproc) commit: $(git rev-parse --short HEAD)"
      echo "# $B/bench/amp-bench --cpu --accelerator $d ${opts[*]} --repeats 7 --csv ${f%.txt}.csv"
      "$B/bench/amp-bench" --cpu --accelerator "$d" "${opts[@]}" --repeats 7 --csv "${f%.txt}.csv" 2>&1 | grep -v '\.\.\.$'
    } > "$f"
  done
  sleep 30
done
