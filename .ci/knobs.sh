#!/usr/bin/env bash
# The runs labelled knobs (tests/algorithms/CMakeLists.txt): each forces another kernel path through
# an environment knob (the warp paths of the sort and the compaction emulated through tile_static
# memory, other tile shapes of the stencil, every look-back walking to the first tile). They check
# kernel logic, on POCL, in the README's test command's build (build-ci), which CI runs first; they
# are kept out of that command to hold it within its time. CI runs this next (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
echo "== the knobs runs on POCL (label knobs)"
ctest --test-dir build-ci --output-on-failure -j"$jobs" -L knobs -LE oclgrind
