#!/usr/bin/env bash
# On the GPU machine: build lab/kernel_probe.c, run it on every device, and read NVIDIA's PTX
# of each variant (registers per thread from ptxas, .maxntid/.reqntid, local spills).
#   bash lab/kernel_probe.sh <outdir>
set -uo pipefail
out=${1:?outdir}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.." || exit 1
mkdir -p "$out/ptx"
cc -O1 -o /tmp/kernel-probe lab/kernel_probe.c -lOpenCL || exit 1
/tmp/kernel-probe kernels_cl/prelude/ampcl_prelude.h "$out/ptx" | tee "$out/probe.txt"
PTXAS=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
for f in "$out"/ptx/*.bin; do
  tr -d '\000' < "$f" > "${f%.bin}.ptx"; rm -f "$f"; f="${f%.bin}.ptx"
  grep -q "\.version" "$f" || continue
  echo "== $(basename "$f")"
  grep -aE "^\s*\.(target|maxntid|reqntid|maxnreg|local)|^\s*\.reg" "$f" | head -20
  [ -n "$PTXAS" ] && "$PTXAS" -arch=sm_90 -v "$f" -o /dev/null 2>&1 | grep -E "registers|spill|error|fatal" | head -4
done 2>&1 | tee "$out/ptx-summary.txt"
tar -C "$out" -czf "$out/ptx.tgz" ptx && rm -rf "$out/ptx"
