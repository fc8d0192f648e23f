#!/bin/sh
# Runs the tile_sizes test (tiles up to 1024 threads, 65535 tiles of 1, 2 and 1024, and
# amp_kernel_limits) on the first OpenCL GPU, plus amp-info --kernel for the library's kernels,
# and writes both outputs under $OUT (default: .). Builds into build-gpu first. AMP_GPU=<device
# path> picks the accelerator instead of the first non-POCL one.
#   OUT=/some/dir sh lab/gpu_tiles.sh
set -u
out=${OUT:-.}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >/dev/null &&
  cmake --build build-gpu -j8 --target test_tile_sizes amp-info >/dev/null || exit 1
gpu=${AMP_GPU:-$(./build-gpu/examples/amp-info | grep -v -e portable-computing -e '^cpu' | grep '^ocl/' |
  head -n 1 | cut -d' ' -f1)}
if [ -z "$gpu" ]; then
  echo "gpu_tiles: no OpenCL GPU listed by amp-info" | tee "$out/gpu_tiles.txt"
  exit 1
fi
{
  echo "accelerator: $gpu"
  AMP_DEFAULT_ACCELERATOR=$gpu ./build-gpu/tests/exec/test_tile_sizes big 2>&1
  echo "exit status: $?"
} | tee "$out/gpu_tiles.txt"
for f in kernels_cl/lessons/matmul_tiled.cl kernels_cl/gemm/matmul_fast.cl kernels_cl/examples/nbody.cl; do
  ./build-gpu/examples/amp-info --kernel "$f" --options "-DTILE=16 -I kernels_cl/gemm" 2>&1
done | tee "$out/gpu_kernel_limits.txt"
