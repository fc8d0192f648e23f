#!/usr/bin/env bash
# On one GPU, issue 51's figures in one call: GEMM beside cuBLAS (CuPy) with the FMA ceiling from
# registers and the SM clock sampled throughout, then the staged copy-back with and without
# streaming stores, then the OpenCL ports beside raw OpenCL.
#   . .device/setup.sh && bash lab/gpu_gemm_copyback.sh "$OUT"       # every part
#   PARTS="ceiling gemm" ... runs those parts only
# Parts:
#   ceiling   lab/ffma_ceiling.c: float and double fma from registers, TFLOP/s
#   gemm      amp-bench: SGEMM (fast, gemm, clblast) at 4096 and 8192; DGEMM (gemm: tensor cores,
#             fast: portable) at the awkward sizes 1000, 3000, 5000, 6000 and at 4096, 8192; TF32
#             at 4096, 8192; then cuBLAS FP32, FP64 and TF32 at the same sizes (bench/cuda_reference.py)
#   transfer  amp-transfer at 256 MiB and 1 GiB, AMP_STAGING_STREAM=1 and 0 alternating, twice each,
#             then 1 with 64 MiB chunks
#   ports     amp-bench --ports, 21 alternating repeats; then 5 under AMP_TRACE, summarised
NAME=gemm-copyback
PARTS=${PARTS:-ceiling gemm transfer ports}
. "$(dirname "$0")/gpu_common.sh"
gpu_build amp-bench amp-transfer amp-trace
if on ceiling; then
  cc -O2 -o "$B/ffma-ceiling" lab/ffma_ceiling.c -lOpenCL && "$B/ffma-ceiling" >"$o/ceiling.txt" 2>&1
  echo "ceiling: rc=$?"; cat "$o/ceiling.txt"
fi
if on gemm; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 250 \
    >"$o/clocks.csv" 2>&1 &
  smi=$!
  ab="$B/bench/amp-bench --accelerator $G1 --workload matmul --repeats 5"
  timeout 150 $ab --impl fast,gemm,clblast --types float --sizes 4096,8192 --csv "$o/sgemm.csv" \
    >"$o/sgemm.txt" 2>&1; echo "sgemm: rc=$?"
  timeout 150 $ab --impl gemm,fast --types double --sizes 1000,3000,5000,6000,4096,8192 \
    --csv "$o/dgemm.csv" >"$o/dgemm.txt" 2>&1; echo "dgemm: rc=$?"
  timeout 100 $ab --impl tf32 --types float --sizes 4096,8192 --csv "$o/tf32.csv" \
    >"$o/tf32.txt" 2>&1; echo "tf32: rc=$?"
  timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 1000,3000,4096,5000,6000,8192 \
    --csv "$o/cublas.csv" >"$o/cublas.txt" 2>&1; echo "cublas: rc=$?"
  timeout 100 python3 bench/cuda_reference.py --only gemm --gemm-types float --tf32 \
    --gemm-sizes 4096,8192 --csv "$o/cublas_tf32.csv" >"$o/cublas_tf32.txt" 2>&1
  echo "cublas tf32: rc=$?"
  kill "$smi" 2>/dev/null
  grep -hE "GFLOP|TFLOP|gemm|fast|clblast|tf32|cuBLAS" "$o"/sgemm.txt "$o"/dgemm.txt "$o"/tf32.txt \
    "$o"/cublas.txt "$o"/cublas_tf32.txt | tail -60
fi
if on transfer; then
  for s in 1 0 1 0; do
    echo "== AMP_STAGING_STREAM=$s" >>"$o/transfer.txt"
    AMP_STAGING_STREAM=$s timeout 100 "$B/bench/amp-transfer" --accelerator "$G1" --mib 256,1024 \
      --repeats 5 >>"$o/transfer.txt" 2>&1
  done
  echo "== AMP_STAGING_STREAM=1 AMP_STAGING_CHUNK=67108864" >>"$o/transfer.txt"
  AMP_STAGING_CHUNK=67108864 timeout 100 "$B/bench/amp-transfer" --accelerator "$G1" \
    --mib 256,1024 --repeats 5 >>"$o/transfer.txt" 2>&1
  echo "transfer: rc=$?"
  cat "$o/transfer.txt"
fi
if on ports; then
  timeout 120 "$B/bench/amp-bench" --accelerator "$G1" --ports --repeats 21 --csv "$o/ports.csv" \
    >"$o/ports.txt" 2>&1
  echo "ports: rc=$?"
  tail -8 "$o/ports.txt"
  # where ampcl's extra time goes: its device commands and host waits, traced over 5 repeats
  AMP_TRACE="$o/ports-trace.json" timeout 60 "$B/bench/amp-bench" --accelerator "$G1" --ports \
    --repeats 5 >/dev/null 2>&1
  "$B/examples/amp-trace" summary "$o/ports-trace.json" >"$o/ports-trace.txt" 2>&1
  gzip -f "$o/ports-trace.json"
  head -60 "$o/ports-trace.txt"
fi
gpu_archive
