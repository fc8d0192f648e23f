#!/usr/bin/env bash
# On one GPU: the two gaps left of issues 51 and 54, measured in one call.
#   . .device/setup.sh && bash lab/gpu_dgemm_ports.sh "$OUT"        # every part
#   PARTS="shapes cublas" ... runs those parts only
# Parts:
#   waits   lab/wait_list_probe.c: the gemm port's commands and a chain of 20 kernels with no
#           events, with events, with wait lists, and with wait lists on a profiling queue
#   ports   amp-bench --ports, 21 repeats; then 5 repeats under AMP_TRACE, summarised (the run of
#           2026-12-07 ran it twice, with and without a trial runtime change that left a command's
#           own queue's events out of its wait list: lab/NOTEBOOK.md)
#   shapes  lab/dmma_shapes.c: matmul_dmma_bulk's block shapes, split along k and not, with and
#           without zeros past B's edge (PAD_EDGES), at the awkward sizes 1000, 3000, 5000, 6000
#           and at 1024, 4096; then amp-bench's DGEMM (what amp_blas_gemm runs) at the same sizes
#   dgemm   amp-bench's DGEMM alone
#   trace   amp-bench's DGEMM at 3000 under AMP_TRACE, one repeat: the commands of the size
#           class's measurement (CLBlast against the kernels split along k), in device order
#   steps   lab/port_steps_probe.c: the gemm port's steps on the host clock, raw OpenCL (its own
#           context, and ampcl's) against ampcl, 41 repeats, with the queues profiling and not
#           (AMP_PROFILE=1, 0; STEPS_PROFILE=1: only with); then amp-bench --ports with
#           AMP_PROFILE=0 (unless STEPS_PROFILE=1)
#   cublas  cuBLAS DGEMM at the same sizes (bench/cuda_reference.py)
#   check   the tests of what changed with these (the DGEMM kernel's edges, plans and split along
#           k, queues): async_order, staging, interop_lend, interop_event, kernels_matmul,
#           kernels_tensor, gemm_ksplit, gemm_coherence, gemm_choice and gemm_general in float and
#           double
NAME=dgemm-ports
PARTS=${PARTS:-waits ports shapes cublas check}
. "$(dirname "$0")/gpu_common.sh"
T=(test_async_order test_staging test_interop_lend test_interop_event
  test_kernels_matmul test_kernels_tensor test_gemm_ksplit test_gemm_coherence test_gemm_choice
  test_gemm_general)
gpu_build amp-bench amp-trace dmma-shapes wait-list-probe port-steps-probe "${T[@]}"
SIZES=${SIZES:-1000,1024,3000,5000,6000,4096}
if on waits; then
  timeout 60 "$B/lab/wait-list-probe" 41 384 >"$o/waits.txt" 2>&1
  echo "waits: rc=$?"; cat "$o/waits.txt"
fi
if on ports; then
  timeout 90 "$B/bench/amp-bench" --accelerator "$G1" --ports --repeats 21 >"$o/ports.txt" 2>&1
  echo "ports: rc=$?"
  grep -E "^(gemm|conv2d|jacobi2d|mv|correlation) " "$o/ports.txt"
  AMP_TRACE="$o/ports-trace.json" timeout 60 "$B/bench/amp-bench" --accelerator "$G1" --ports \
    --repeats 5 >/dev/null 2>&1
  "$B/examples/amp-trace" summary "$o/ports-trace.json" >"$o/ports-trace.txt" 2>&1
  gzip -f "$o/ports-trace.json"
  head -30 "$o/ports-trace.txt"
fi
if on steps; then
  for p in ${STEPS_PROFILE:-1 0}; do
    AMP_PROFILE=$p timeout 60 "$B/lab/port-steps-probe" bench/ports/gemm.cl 41 384 "$G1" \
      >"$o/steps-profile$p.txt" 2>&1
    echo "steps AMP_PROFILE=$p: rc=$?"; cat "$o/steps-profile$p.txt"
  done
  if [ "${STEPS_PROFILE:-1 0}" != 1 ]; then
    AMP_PROFILE=0 timeout 90 "$B/bench/amp-bench" --accelerator "$G1" --ports --repeats 21 \
      >"$o/ports-profile0.txt" 2>&1
    echo "ports AMP_PROFILE=0: rc=$?"
    grep -E "^(gemm|conv2d|jacobi2d|mv|correlation) " "$o/ports-profile0.txt"
  fi
fi
if on shapes; then
  # SHAPES: other shapes, as shell words (SHAPES='"" EDGE_SKIP=1': step 8's comparison)
  if [ -n "${SHAPES:-}" ]; then
    eval "set -- $SHAPES"
  else
    set -- "" PAD_EDGES=1 BN=64 BN=64,PAD_EDGES=1 BM=64,WM=32 BM=64,BN=64,WM=32 S=2 BN=64,S=2,R=128 \
      BM=64,BN=64,WM=32,R=128
  fi
  timeout 200 "$B/lab/dmma-shapes" "$SIZES" "$@" >"$o/shapes.txt" 2>&1
  echo "shapes: rc=$?"; cat "$o/shapes.txt"
fi
if on shapes || on dgemm; then
  timeout 120 "$B/bench/amp-bench" --accelerator "$G1" --workload matmul --repeats 5 --impl gemm \
    --types double --sizes "$SIZES" --csv "$o/dgemm.csv" >"$o/dgemm.txt" 2>&1
  echo "dgemm: rc=$?"; grep -A12 "^Table C" "$o/dgemm.txt"
fi
if on trace; then
  AMP_TRACE="$o/dgemm-trace.json" timeout 60 "$B/bench/amp-bench" --accelerator "$G1" \
    --workload matmul --repeats 1 --impl gemm --types double --sizes 3000 >"$o/dgemm-trace-run.txt" 2>&1
  python3 - "$o/dgemm-trace.json" >"$o/dgemm-trace.txt" 2>&1 <<'PY'
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
ev.sort(key=lambda e: e["ts"])
t0 = ev[0]["ts"] if ev else 0
for e in ev:
    a = e.get("args", {})
    print("%10.1f %9.1f  %-6s %-28s %s" % (e["ts"] - t0, e.get("dur", 0), e["cat"], e["name"][:28],
                                          a.get("shape", a.get("reason", ""))))
PY
  gzip -f "$o/dgemm-trace.json"
  echo "trace: $(wc -l <"$o/dgemm-trace.txt") events"; grep -E "kernel" "$o/dgemm-trace.txt" | head -40
fi
if on cublas; then
  timeout 120 python3 bench/cuda_reference.py --only gemm --gemm-types double --gemm-sizes "$SIZES" \
    --csv "$o/cublas.csv" >"$o/cublas.txt" 2>&1
  echo "cublas: rc=$?"; tail -8 "$o/cublas.txt"
fi
if on check; then
  # CHECK_RE: another ctest -R pattern (fewer tests where the device time is short)
  timeout 150 ctest --test-dir "$B" --output-on-failure -j8 --timeout 140 -R \
    "${CHECK_RE:-^(async_order|staging|interop_lend|interop_event|kernels_matmul|kernels_tensor|gemm_ksplit|gemm_coherence|gemm_coherence.double|gemm_choice|gemm_choice.double|gemm_general|gemm_general.double)$}" \
    >"$o/check.txt" 2>&1
  echo "check: rc=$?"; grep -E "tests passed|Failed|\*\*\*" "$o/check.txt" | tail -15
fi
gpu_archive
