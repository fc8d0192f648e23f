#!/usr/bin/env bash
# Quick start, first command: install what is missing, build, and run the main job: amp-info and
# the examples, on the default accelerator (POCL's CPU device when there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DAMP_BUILD_TESTS=OFF
cmake --build build -j"$(nproc)"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$PWD/build/pocl-cache}"
./build/examples/amp-info
for ex in amp-vector-add-exp amp-matmul amp-nbody amp-tiles; do
  if [ -x "build/examples/$ex" ]; then
    echo "== $ex"
    "./build/examples/$ex"
  fi
done
