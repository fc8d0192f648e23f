#!/usr/bin/env bash
# Textures on the GPU machine (issue 36, target 4: "the same suite on the GPU"): build the library,
# the texture tests, amp-info and amp-image, then run them on the default accelerator (the GPU):
# the format table, tests/textures (every format, rank, filter and address mode against the host),
# tests/textures' misuse test, the image example at a few sizes, and the texture tests once more in
# debug mode. Outputs go to OUTDIR (for lab/runs/<device>/<date>-textures/).
#   . .device/setup.sh && cd .wt-tex && bash lab/gpu_textures.sh "$OUT"
set -uo pipefail
out=${1:?usage: gpu_textures.sh OUTDIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
B=build-gpu-tex
nvidia-smi --query-gpu=name,driver_version --format=csv >"$out/gpu.txt" 2>&1
t0=$(date +%s)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DAMP_BUILD_BENCH=OFF -DAMP_BUILD_LAB=OFF &&
  cmake --build $B -j"$(nproc)" --target amp-info image test_textures test_texture_misuse \
    docs_cl; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
echo "build $(($(date +%s) - t0)) s"
$B/examples/amp-info >"$out/amp-info.txt" 2>&1; echo "amp-info rc=$?"
grep -A8 "texture formats" "$out/amp-info.txt" | head -20
rc=0
for t in textures texture_misuse; do
  timeout 120 "$B/tests/textures/test_$t" >"$out/$t.txt" 2>&1; r=$?
  echo "test_$t rc=$r: $(tail -1 "$out/$t.txt")"; [ $r -eq 0 ] || rc=1
  AMP_DEBUG=1 timeout 120 "$B/tests/textures/test_$t" >"$out/$t-debug.txt" 2>&1; r=$?
  echo "test_$t (AMP_DEBUG=1) rc=$r: $(tail -1 "$out/$t-debug.txt")"; [ $r -eq 0 ] || rc=1
done
for args in "--size 96 --scale 0.7" "--size 1024 --scale 0.37" "--size 777 --scale 2.5"; do
  # shellcheck disable=SC2086
  timeout 60 "$B/examples/amp-image" $args --output "$out/image-${args// /_}" >"$out/image.txt" 2>&1
  r=$?; echo "amp-image $args rc=$r: $(grep -E 'blur:|resize:' "$out/image.txt" | tr '\n' ' ')"
  [ $r -eq 0 ] || rc=1
done
exit $rc
