#!/usr/bin/env bash
# Issue 34's first look on a machine with several GPUs (before any change): where one MPI rank's
# time goes, and the one-, two- and four-GPU baselines of the splits, in one call:
#   . .device/setup.sh && bash lab/gpu_scale_probe.sh "$OUT"
set -uo pipefail
out=${1:?usage: gpu_scale_probe.sh OUTDIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
B=build-gpu
ngpu=$(nvidia-smi -L | wc -l)
{ nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max --format=csv
  nvidia-smi topo -m; lscpu | grep -E "Model name|Socket|NUMA|^CPU\(s\)"; free -g; } >"$out/machine.txt" 2>&1
t0=$(date +%s)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release &&
  cmake --build $B -j"$(nproc)" --target amp-bench mpi_matmul amp-transfer amp-trace; } >"$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
echo "build $(($(date +%s) - t0)) s, $ngpu GPUs"
R="mpirun --allow-run-as-root --oversubscribe -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
$R -np 1 bash -c 'echo "default binding: nproc $(nproc) $(grep Cpus_allowed_list /proc/self/status)"' >"$out/binding.txt" 2>&1
$R --bind-to none -np 1 bash -c 'echo "bind-to none: nproc $(nproc)"' >>"$out/binding.txt" 2>&1
$R -np 4 bash -c 'echo "np4 default: nproc $(nproc) $(grep Cpus_allowed_list /proc/self/status)"' >>"$out/binding.txt" 2>&1
cat "$out/binding.txt"
M=$B/examples/mpi_matmul/amp-mpi-matmul
[ -x $M ] || M=$(find $B -name 'amp-mpi-matmul' -type f | head -1)
for bind in "" "--bind-to none"; do
  tag=${bind:+nobind}; tag=${tag:-default}
  timeout 120 $R $bind -np 1 $M -n 16384 --type float --algorithm fox --verify >"$out/mpi-np1-$tag.txt" 2>&1
  echo "== np1 $tag"; grep -E "fox|GFLOP" "$out/mpi-np1-$tag.txt" | head -4
done
AMP_TRACE=$out/np1-default.trace.json timeout 120 $R -x AMP_TRACE -np 1 $M -n 16384 --type float --algorithm fox >/dev/null 2>&1
$B/examples/amp_trace/amp-trace summary "$out/np1-default.trace.json" >"$out/np1-default-trace-summary.txt" 2>&1
head -30 "$out/np1-default-trace-summary.txt"
for np in 2 4; do
  [ "$np" -le "$ngpu" ] || continue
  timeout 150 $R --bind-to none -np $np $M -n 16384 --type float --algorithm all --verify --pingpong >"$out/mpi-np$np-nobind.txt" 2>&1
  echo "== np$np nobind"; grep -vE "^\s*$" "$out/mpi-np$np-nobind.txt" | tail -8
done
list=""; for g in $(seq 0 $((ngpu - 1))); do list="$list${list:+,}ocl/nvidia-cuda/$g"; done
timeout 150 $B/bench/amp-bench --workload addexp --impl fast,multi --sizes 2^30 --repeats 3 --multi "$list" >"$out/addexp-malloc.txt" 2>&1
timeout 150 $B/bench/amp-bench --workload addexp --impl fast,multi --sizes 2^30 --repeats 3 --multi "$list" --pinned >"$out/addexp-pinned.txt" 2>&1
grep -E "fast|multi" "$out"/addexp-*.txt | tail -8
timeout 200 $B/bench/amp-bench --workload matmul --impl fast,fast-multi --types float --sizes 32768 --repeats 2 --multi "$list" >"$out/matmul-32768.txt" 2>&1
grep -E "fast" "$out/matmul-32768.txt" | tail -6
