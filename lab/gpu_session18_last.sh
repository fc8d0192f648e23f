#!/usr/bin/env bash
# Session 18's last GPU call (the device time left allowed one short one): only the targets these
# need, the MPI example's shared algorithm on two ranks with panels of 4096, and the stencil's
# column kernels in six shapes at 16384^2 beside the copy.
#   . .device/setup.sh && bash lab/gpu_session18_last.sh "$OUT"
set -uo pipefail
out=${1:?usage: gpu_session18_last.sh OUTDIR}
cd "$(dirname "$0")/.."
o=$out/s18-last
mkdir -p "$o"
B=build-gpu
export POCL_CACHE_DIR=$PWD/$B/pocl-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$o/gpu.txt" 2>&1
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release &&
  cmake --build $B -j"$(nproc)" --target mpi_matmul stencil-sweep; } >"$o/build.log" 2>&1 ||
  { tail -30 "$o/build.log"; exit 1; }
R="mpirun --allow-run-as-root --oversubscribe --bind-to none -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
timeout 100 $R -np 2 $B/examples/mpi_matmul/amp-mpi-matmul -n 32768 --verify --pingpong \
  --algorithm shared --panel 4096 >"$o/mpi-np2-shared-w4096.txt" 2>&1
echo "== mpi np2 shared panel 4096 rc=$?"; grep -E "^shared |rror" "$o/mpi-np2-shared-w4096.txt"
AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0 timeout 150 $B/lab/stencil-sweep --side 16384 --repeats 7 \
  --csv "$o/stencil-sweep.csv" default AMP_STENCIL_ROWS=64 AMP_STENCIL_TX=128 \
  AMP_STENCIL_ROWS=64,AMP_STENCIL_TX=128 AMP_STENCIL_RING=1 AMP_STENCIL_COLUMNS=0 \
  >"$o/stencil-sweep.txt" 2>"$o/stencil-sweep.err"
echo "== stencil-sweep rc=$?"; cat "$o/stencil-sweep.txt"; tail -3 "$o/stencil-sweep.err"
cd "$out" && tar czf s18-last.tgz s18-last && rm -rf s18-last
