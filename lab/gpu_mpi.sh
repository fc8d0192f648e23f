#!/usr/bin/env bash
# Issue 34: amp-mpi-matmul on 1, 2 and 4 GPUs of one host (one rank per GPU, ranks not bound to a
# core), n = 16384 and 32768 float, every result verified, with the model (--pingpong), and
# amp-bench's one-GPU matmul at the block sizes for the rank-speed comparison. Also one rank as
# mpirun binds it by default (one core). From the repository root:
#   . .device/setup.sh && bash lab/gpu_mpi.sh "$OUT"
set -uo pipefail
out=${1:?usage: gpu_mpi.sh OUTDIR}
cd "$(dirname "$0")/.."
mkdir -p "$out/mpi"
B=build-gpu
ngpu=$(nvidia-smi -L | wc -l)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release &&
  cmake --build $B -j"$(nproc)" --target amp-bench mpi_matmul; } >"$out/mpi/build.log" 2>&1 ||
  { tail -40 "$out/mpi/build.log"; exit 1; }
R="mpirun --allow-run-as-root --oversubscribe -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
M=$B/examples/mpi_matmul/amp-mpi-matmul
run() { # name, timeout, mpirun args...
  local name=$1 t=$2; shift 2
  timeout "$t" $R "$@" >"$out/mpi/$name.txt" 2>&1; echo "== $name rc=$?"
  grep -E "^(cannon|fox|summa) |Hockney" "$out/mpi/$name.txt"
}
for n in ${MPI_SIZES:-16384 32768}; do
  run "np1-n$n-bound" 120 -np 1 $M -n $n --algorithm fox --verify
  run "np1-n$n" 150 --bind-to none -np 1 $M -n $n --verify --pingpong
  run "np1-n$n-panel" 150 --bind-to none -np 1 $M -n $n --algorithm summa --panel $((n / 4)) --verify
  [ "$ngpu" -ge 2 ] && run "np2-n$n" 150 --bind-to none -np 2 $M -n $n --verify --pingpong
  [ "$ngpu" -ge 2 ] && run "np2-n$n-panel" 150 --bind-to none -np 2 $M -n $n --panel $((n / 8)) --verify --pingpong
  [ "$ngpu" -ge 4 ] && run "np4-n$n" 150 --bind-to none -np 4 $M -n $n --verify --pingpong
  [ "$ngpu" -ge 4 ] && run "np4-n$n-panel" 150 --bind-to none -np 4 $M -n $n --algorithm summa --panel $((n / 8)) --verify --pingpong
done
timeout 200 $B/bench/amp-bench --workload matmul --impl fast,gemm --types float --sizes 16384,32768 \
  --repeats 2 --csv "$out/mpi/bench-matmul-1gpu.csv" >"$out/mpi/bench-matmul-1gpu.txt" 2>&1
grep -E "^ *(16384|32768) " "$out/mpi/bench-matmul-1gpu.txt" | head -8
