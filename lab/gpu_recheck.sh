#!/usr/bin/env bash
# On one GPU, after fixes: the driver's argument information (lab/arg_info_probe.c), the fault
# layer's three settings, the tests fixed since the last run (plain and AMP_DEBUG=1), the launch
# overhead and the ports with the queue's profiling on (ampcl's default) and off (AMP_PROFILE=0).
#   . .device/setup.sh && bash lab/gpu_recheck.sh "$OUT"
NAME=recheck
export ARCHIVE=0
export PARTS=${PARTS:-argprobe faults}
export BUILD=${BUILD:-build-gpu}
bash "$(dirname "$0")/gpu_suite_faults.sh" "${1:?usage: bash $0 OUTDIR}" | tail -45
. "$(dirname "$0")/gpu_common.sh"
fixed="^(example\.matmul|lessons|typed_launch|debug_poison|async_order|tile_refused|kernels_tensor|gemm_tf32)"
ctest --test-dir "$B" -j8 -R "$fixed" --output-on-failure >"$o/retest.txt" 2>&1
echo "retest: rc=$?"; grep -E "tests passed|Failed" "$o/retest.txt" | tail -8
AMP_DEBUG=1 ctest --test-dir "$B" -j8 -R "$fixed" --output-on-failure >"$o/retest-debug.txt" 2>&1
echo "retest (AMP_DEBUG=1): rc=$?"; grep -E "tests passed|Failed" "$o/retest-debug.txt" | tail -8
for p in 1 0; do
  echo "== AMP_PROFILE=$p" | tee -a "$o/overhead.txt" "$o/ports.txt"
  AMP_PROFILE=$p timeout 60 "$B/bench/amp-bench" --accelerator "$G1" --overhead --launches 10000 \
    >>"$o/overhead.txt" 2>&1
  tail -4 "$o/overhead.txt"
  AMP_PROFILE=$p timeout 90 "$B/bench/amp-bench" --accelerator "$G1" --ports --repeats 21 \
    >>"$o/ports.txt" 2>&1
  tail -7 "$o/ports.txt"
done
