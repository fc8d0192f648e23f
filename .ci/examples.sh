#!/usr/bin/env bash
# Quick start, first command: install what is missing, build, and run the main job: amp-info and
# every example the build installs, on the default accelerator (POCL's CPU device when there is no
# GPU), at sizes that take a few seconds each on 2 CPU cores. amp-mpi-matmul runs when MPI was
# found (4 ranks). Each example checks its results and exits non-zero when they are wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DAMP_BUILD_TESTS=OFF
cmake --build build -j"$(nproc)"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$PWD/build/pocl-cache}"
./build/examples/amp-info

# Each installed example with its arguments (its README has the full sizes).
examples=(
  "amp-vector-add-exp"
  "amp-matmul --size 384"
  "amp-nbody --size 2048"
  "amp-tiles"
  "amp-overlap"
  "amp-split"
  "amp-algorithms"
  "amp-image --size 256"
  "amp-monte-carlo"
  "amp-opencl-port"
)
# An example added to the build but not to this list would be left out silently: refuse.
for exe in build/examples/amp-*; do
  name=${exe##*/}
  case " amp-info amp-trace ${examples[*]%% *} " in
    *" $name "*) ;;
    *)
      echo "examples.sh: $exe is not run here: add it to the list" >&2
      exit 1
      ;;
  esac
done

for line in "${examples[@]}"; do
  read -r ex args <<<"$line"
  echo "== $line"
  # shellcheck disable=SC2086 # args split into words on purpose
  "./build/examples/$ex" $args
done

mpi=build/examples/mpi_matmul/amp-mpi-matmul
if [ -x "$mpi" ]; then
  echo "== mpirun -np 4 amp-mpi-matmul -n 256 --verify"
  # 4 ranks (a 2 x 2 grid: Cannon, Fox and SUMMA) on however many cores there are. Open MPI
  # refuses root without consent (CI containers run as root) and more ranks than cores without
  # oversubscription; both settings change nothing else.
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    mpirun -np 4 "$mpi" -n 256 --verify
else
  echo "== amp-mpi-matmul was not built (MPI not found): skipped"
fi

echo "examples.sh: amp-info and every example ran and verified"
