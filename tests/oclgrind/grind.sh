#!/usr/bin/env bash
# tests/oclgrind/grind.sh: runs one program under oclgrind and fails when oclgrind reports
# anything (docs/CHECKING.md, "Every kernel under oclgrind"). Used by every oclgrind.* test.
#
#   grind.sh [--races-off] [--expect REGEX] LOG -- PROGRAM ARGS...
#
# Oclgrind's OpenCL runtime (AMP_OCLGRIND_RT) is preloaded behind whole_writes.so
# (AMP_OCLGRIND_SHIM, whole_writes.c says why), with --check-api, --data-races (unless
# --races-off) and --uninitialized, and its messages go to LOG, apart from the program's output.
# Each message in LOG is a finding, except an API error whose code is not CL_INVALID_* (the tests'
# deliberately broken kernels give CL_BUILD_PROGRAM_FAILURE; a CL_INVALID_* is a call ampcl should
# have refused itself). Exit: 1 on any finding (they are printed), else the program's status
# (77: skipped). With --expect REGEX the run must instead report a finding that matches REGEX
# (tests/oclgrind/catches.c): 0 when it does, 1 when it does not.
set -u
races=1 uninit=1 expect=
while [ $# -gt 0 ]; do
  case "$1" in
  --races-off) races= ;;
  --uninitialized-off) uninit= ;;
  --expect) expect=$2; shift ;;
  --) ;;
  *) break ;;
  esac
  shift
done
log=$1
shift
[ "$1" = "--" ] && shift
for v in AMP_OCLGRIND_RT AMP_OCLGRIND_SHIM; do
  if [ ! -f "${!v:-}" ]; then
    echo "grind.sh: $v (${!v:-unset}) is not a file" >&2
    exit 1
  fi
done
rm -f "$log"
mkdir -p "$(dirname "$log")"
TIMEFORMAT="grind.sh: %U s user + %S s system, %R s wall"
time env LD_PRELOAD="$AMP_OCLGRIND_SHIM:$AMP_OCLGRIND_RT${LD_PRELOAD:+:$LD_PRELOAD}" \
  OCLGRIND_LOG="$log" OCLGRIND_CHECK_API=1 OCLGRIND_UNINITIALIZED=${uninit:+1} \
  OCLGRIND_DATA_RACES=${races:+1} OCLGRIND_MAX_ERRORS=20 "$@"
status=$?
[ -z "$races" ] && echo "grind.sh: data-race detection off for this run"
[ -z "$uninit" ] && echo "grind.sh: the uninitialised-value checker off for this run"

# Messages are separated by blank lines; print the findings, one block each.
findings=$(
  [ -f "$log" ] && awk 'BEGIN { RS = "" }
    /OpenCL runtime error detected/ && !/Error: *CL_INVALID/ { next }
    { print; print "" }' "$log"
)
if [ -n "$expect" ]; then
  if printf '%s\n' "$findings" | grep -Eq -- "$expect"; then
    echo "grind.sh: oclgrind reported what was planted ($expect)"
    exit 0
  fi
  echo "grind.sh: expected a finding matching '$expect'; oclgrind reported:" >&2
  printf '%s\n' "${findings:-(nothing)}" >&2
  exit 1
fi
if [ -n "$findings" ]; then
  echo "grind.sh: oclgrind reported (full log: $log):" >&2
  printf '%s\n' "$findings" >&2
  exit 1
fi
exit "$status"
