#!/usr/bin/env bash
# On one GPU, what users get: the whole ctest suite on NVIDIA's OpenCL (sweeps at full size), the
# debug-mode tests again, the examples at their default sizes, and the suite on the GPU seen as
# weaker devices (AMP_DEVICE_LIMITS, as .ci/faults.sh does on POCL).
#   . .device/setup.sh && bash lab/gpu_suite_faults.sh "$OUT"          # every part
#   PARTS="tests debug" ... runs those parts only
#   T_TESTS=200 T_DEBUG=150 ...   the parts' time limits in seconds (default 240 and 200)
#   FAULT_SETS="tile=32,local=16384,fp64=0,images=0,profiling=0"   the faults part's settings,
#                                 one run each (default: that one, then tile=64, then tile=128)
#   PARTS=argprobe ...            lab/arg_info_probe.c: the argument information the driver gives
NAME=suite-faults
PARTS=${PARTS:-tests debug examples faults}
. "$(dirname "$0")/gpu_common.sh"
gpu_build
ct() { # file, seconds, ctest arguments...: run, keep the output, print the summary
  local f=$1 s=$2 t0
  shift 2
  t0=$(date +%s)
  timeout "$s" ctest --test-dir "$B" --output-on-failure -j8 --timeout "$((s - 20))" "$@" >"$o/$f" 2>&1
  echo "$f: rc=$? $(($(date +%s) - t0)) s"
  grep -E "tests passed|Failed|Not Run|\*\*\*Timeout|Exception" "$o/$f" | tail -15
}
if on argprobe; then
  cc -O2 -o "$B/arg-info-probe" lab/arg_info_probe.c -lOpenCL && "$B/arg-info-probe" >"$o/arg_info.txt" 2>&1
  echo "argprobe: rc=$?"; cat "$o/arg_info.txt"
fi
if on tests; then ct ctest.txt "${T_TESTS:-240}" -LE oclgrind; fi
if on debug; then AMP_DEBUG=1 ct ctest-debug.txt "${T_DEBUG:-200}" -L debug; fi
if on examples; then
  t0=$(date +%s)
  for line in "amp-info" "amp-vector-add-exp" "amp-matmul" "amp-nbody" "amp-tiles" "amp-overlap" \
    "amp-split" "amp-algorithms" "amp-image" "amp-monte-carlo"; do
    read -r ex args <<<"$line"
    echo "== $line" >>"$o/examples.txt"
    (cd "$B/examples" && timeout 60 "./$ex" $args) >>"$o/examples.txt" 2>&1
    echo "$line: rc=$?" | tee -a "$o/examples.txt"
  done
  echo "examples: $(($(date +%s) - t0)) s"
fi
if on faults; then
  for limits in ${FAULT_SETS:-tile=32,local=16384,fp64=0,images=0,profiling=0 tile=64 tile=128}; do
    AMP_DEVICE_LIMITS=$limits ct "faults-${limits%%,*}.txt" 150 -LE "oclgrind|knobs|mpi_grids|long"
  done
fi
gpu_archive
