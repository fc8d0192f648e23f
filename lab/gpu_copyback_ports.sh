#!/usr/bin/env bash
# On one GPU: the copies to and from malloc'd memory beside the pinned copy and the link
# (amp-transfer: synchronous and asynchronous copy-back, staged through pinned buffers), and the
# classic OpenCL kernels run unchanged by raw OpenCL and through ampcl (amp-bench --ports).
#   . .device/setup.sh && bash lab/gpu_copyback_ports.sh "$OUT"        # both parts
#   PARTS=transfer ... runs that part only
NAME=copyback-ports
PARTS=${PARTS:-transfer ports}
. "$(dirname "$0")/gpu_common.sh"
gpu_build amp-transfer amp-bench
if on transfer; then
  timeout 120 "$B/bench/amp-transfer" --accelerator "$G1" --mib 256,1024 --repeats 5 \
    >"$o/transfer.txt" 2>&1
  echo "transfer: rc=$?"
  cat "$o/transfer.txt"
fi
if on ports; then
  timeout 120 "$B/bench/amp-bench" --accelerator "$G1" --ports --repeats 21 --csv "$o/ports.csv" \
    >"$o/ports.txt" 2>&1
  echo "ports: rc=$?"
  tail -8 "$o/ports.txt"
fi
gpu_archive
