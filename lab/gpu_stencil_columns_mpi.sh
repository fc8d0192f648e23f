#!/usr/bin/env bash
# One short call on a host with two GPUs (2026-11-27, the last call of
# lab/runs/h200x2/2026-11-27-algo-scale/): only the targets these need, the MPI example's shared algorithm on two ranks with panels of
# 4096, and the stencil's column kernels in six shapes at 16384^2 beside the copy.
#   . .device/setup.sh && bash lab/gpu_stencil_columns_mpi.sh "$OUT"
# Every output goes into $OUT/stencil-columns-mpi-g<GPUs>.tgz.
NAME=stencil-columns-mpi
. "$(dirname "$0")/gpu_common.sh"
gpu_build mpi_matmul stencil-sweep
R="mpirun --allow-run-as-root --oversubscribe --bind-to none -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
timeout 100 $R -np 2 $B/examples/mpi_matmul/amp-mpi-matmul -n 32768 --verify --pingpong \
  --algorithm shared --panel 4096 >"$o/mpi-np2-shared-w4096.txt" 2>&1
echo "== mpi np2 shared panel 4096 rc=$?"; grep -E "^shared |rror" "$o/mpi-np2-shared-w4096.txt"
AMP_DEFAULT_ACCELERATOR=$G1 timeout 150 $B/lab/stencil-sweep --side 16384 --repeats 7 \
  --csv "$o/stencil-sweep.csv" default AMP_STENCIL_ROWS=64 AMP_STENCIL_TX=128 \
  AMP_STENCIL_ROWS=64,AMP_STENCIL_TX=128 AMP_STENCIL_RING=1 AMP_STENCIL_COLUMNS=0 \
  >"$o/stencil-sweep.txt" 2>"$o/stencil-sweep.err"
echo "== stencil-sweep rc=$?"; cat "$o/stencil-sweep.txt"; tail -3 "$o/stencil-sweep.err"
gpu_archive
