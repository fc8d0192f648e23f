#!/bin/sh
# expect_na.sh PROGRAM [ARGS...]: runs PROGRAM where no device time is to be had (its test sets
# AMP_PROFILE=0, so amp_future_elapsed_ns answers AMP_ERROR_UNSUPPORTED_FEATURE on every view, as
# on a device whose timestamps measure nothing) and checks that it still succeeds, that it says
# n/a, and that it prints no time or ratio that was not measured: no "0.000 ms", no nan or inf, no
# speedup of 10000x or more.
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
fail() {
  echo "expect_na: $*" >&2
  exit 1
}
[ "$rc" -eq 0 ] || fail "exit status $rc"
printf '%s\n' "$out" | grep -q 'n/a' || fail "no n/a in the output"
printf '%s\n' "$out" | grep -Eq '(^|[^0-9.])0\.0+ ms' && fail "a time of 0 ms was printed"
printf '%s\n' "$out" | grep -Eqiw -- '-?(nan|inf)' && fail "nan or inf was printed"
printf '%s\n' "$out" | grep -Eq '[0-9]{5,}(\.[0-9]+)?x' && fail "a speedup of 10000x or more was printed"
exit 0
