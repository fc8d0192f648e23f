# shellcheck shell=bash disable=SC2034  # sourced: the variables are the callers'
# The setup that the lab's GPU scripts share (lab/gpu_*.sh). A script sets its name and its
# default parts, sources this file, builds what it needs, runs its parts and packs its folder:
#
#   NAME=host-bounds PARTS=${PARTS:-sort}
#   . "$(dirname "$0")/gpu_common.sh"
#   gpu_build amp-bench split          # no targets: everything
#   if on sort; then ...; fi           # files go into "$o"
#   gpu_archive
#
# Sourcing it, with the script's first argument as the output folder:
#   - changes to the repository root;
#   - sets out (that folder), B (the Release build, BUILD or build-gpu), NG (the GPUs nvidia-smi
#     lists), G1, G2, G4 and GALL (accelerator lists: GPU 0, GPUs 0-1, GPUs 0-3, every GPU), and
#     the function `on PART` (whether PARTS names PART);
#   - makes o, the folder of this call's files, $out/$tag with tag NAME-gNG and the parts joined
#     by '-' (ARCHIVE=0: $out itself);
#   - writes $o/gpu.txt (the GPUs, how they are connected, the host's cores) and $o/commit.txt
#     (HEAD and the files that differ from it: the device's copy of the tree may carry an older
#     .git, so a run's README names the tree it ran).
# gpu_build TARGETS... builds $B into $o/build.log and stops the script if that fails.
# gpu_archive packs $o into $out/$tag.tgz (the device machine returns only a few files).
set -uo pipefail
out=${1:?usage: bash $0 OUTDIR}
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build-gpu}
export POCL_CACHE_DIR=$PWD/$B/pocl-cache
PARTS=${PARTS:-}
on() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
NG=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
G1=ocl/nvidia-cuda/0
G2=ocl/nvidia-cuda/0,ocl/nvidia-cuda/1
G4=ocl/nvidia-cuda/0,ocl/nvidia-cuda/1,ocl/nvidia-cuda/2,ocl/nvidia-cuda/3
GALL=$(seq -s, -f 'ocl/nvidia-cuda/%g' 0 $((NG - 1)))
tag=$NAME-g$NG${PARTS:+-$(echo "$PARTS" | tr ' ' '-')}
if [ "${ARCHIVE:-1}" = 0 ]; then o=$out; else o=$out/$tag; fi
mkdir -p "$o"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvidia-smi topo -m
  echo "cores: $(nproc)"; } >"$o/gpu.txt" 2>&1
{ git log -1 --format='%H %s'; git status --short; } >"$o/commit.txt" 2>&1

gpu_build() {
  local t0
  t0=$(date +%s)
  { cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$B" -j"$(nproc)" ${1:+--target "$@"}; } >"$o/build.log" 2>&1 ||
    { tail -40 "$o/build.log"; exit 1; }
  echo "build $(($(date +%s) - t0)) s, $NG GPUs"
}

gpu_archive() {
  [ "$o" = "$out" ] || { tar -C "$out" -czf "$out/$tag.tgz" "$tag" && rm -rf "$o"; }
}
