#!/usr/bin/env bash
# The long fuzzing run of issue 37: every target of fuzz/ for CPU_SECONDS of CPU time each (default
# 3600, one CPU-hour), spread over all the machine's cores with libFuzzer's fork mode (-fork=$(nproc);
# wall time per target = CPU_SECONDS / cores). Meant for the GPU machine's CPUs (64-128 cores:
# about a minute per target), from the repository root:
#
#   . .device/setup.sh && bash lab/fuzz_long.sh "$OUT" [CPU_SECONDS] [TARGET...]
#
# Needs clang with libFuzzer (Debian: clang, libclang-rt-dev). Writes to OUTDIR: summary.txt (one
# row per target: workers, wall and CPU seconds, executions, coverage, corpus size, crashes /
# timeouts / OOMs), and per target log.txt (libFuzzer's output), found/ (the inputs of any crash,
# hang or OOM: copy each into fuzz/corpus/TARGET/ once fixed), corpus/ (the corpus grown, merged
# to a minimal one in corpus-min/). The seed corpora in fuzz/corpus/ are not changed.
set -uo pipefail
out=${1:?usage: fuzz_long.sh OUTDIR [CPU_SECONDS] [TARGET...]}
cpu=${2:-3600}
shift $(($# >= 2 ? 2 : 1))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(env_parse param_type build_log amp_trace)
cd "$(dirname "$0")/.."
mkdir -p "$out"
out=$(cd "$out" && pwd)
workers=$(nproc)
wall=$(((cpu + workers - 1) / workers))
B=build-fuzz-long

if [ -n "${FUZZ_PREBUILT:-}" ]; then
  # a build folder whose fuzz/fuzz_* were built elsewhere (the GPU machine has no clang): the
  # targets are pure parsers, linked statically with libFuzzer and the sanitizers' runtimes
  B=$FUZZ_PREBUILT
  { echo "prebuilt in $FUZZ_PREBUILT"; uname -m; echo "cores: $workers"; } >"$out/machine.txt"
else
  if ! command -v clang >/dev/null || ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
    clang -x c -fsanitize=fuzzer - -o "$out/.probe" 2>/dev/null; then
    echo "fuzz_long: clang with libFuzzer is missing (Debian: apt-get install clang libclang-rt-dev)" |
      tee "$out/summary.txt"
    exit 1
  fi
  rm -f "$out/.probe"
  { clang --version | head -1; uname -m; echo "cores: $workers"; git log -1 --format='commit %H %cs' 2>/dev/null; } \
    >"$out/machine.txt"
  CC=clang cmake -S . -B $B -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_FUZZ=ON -DAMP_BUILD_TESTS=OFF \
    -DAMP_BUILD_EXAMPLES=OFF -DAMP_BUILD_BENCH=OFF -DAMP_BUILD_LAB=OFF >"$out/build.log" 2>&1 &&
    cmake --build $B -j"$workers" --target "${targets[@]/#/fuzz_}" >>"$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
fi

# CPU seconds used by this shell's finished children (user + system).
child_cpu() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($16 + $17) / hz }' /proc/$$/stat
}

printf '%-11s %7s %7s %7s %14s %6s %7s %7s %22s %6s\n' target workers wall_s cpu_s execs cov ft \
  corpus "crash/timeout/oom" found | tee "$out/summary.txt"
status=0
for t in "${targets[@]}"; do
  d=$out/$t
  mkdir -p "$d/corpus" "$d/found" "$d/corpus-min"
  cp fuzz/corpus/"$t"/* "$d/corpus/"
  c0=$(child_cpu) t0=$(date +%s)
  # fork mode: one process per core, each fuzzing in short jobs and merging what it found into
  # the shared corpus; crashes, hangs and OOMs are saved and the run goes on.
  $B/fuzz/fuzz_"$t" -fork="$workers" -max_total_time="$wall" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -close_fd_mask=3 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix="$d/found/" "$d/corpus" >"$d/log.txt" 2>&1
  t1=$(date +%s) c1=$(child_cpu)
  last=$(grep -E '^#[0-9]+: cov:' "$d/log.txt" | tail -1)
  execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
  cov=$(sed -E 's/.* cov: ([0-9]+).*/\1/' <<<"$last")
  ft=$(sed -E 's/.* ft: ([0-9]+).*/\1/' <<<"$last")
  counts=$(sed -E 's#.*oom/timeout/crash: ([0-9]+)/([0-9]+)/([0-9]+).*#\3/\2/\1#' <<<"$last")
  found=$(find "$d/found" -type f | wc -l)
  $B/fuzz/fuzz_"$t" -merge=1 -close_fd_mask=3 "$d/corpus-min" "$d/corpus" >"$d/merge.log" 2>&1
  printf '%-11s %7s %7s %7s %14s %6s %7s %7s %22s %6s\n' "$t" "$workers" $((t1 - t0)) $((c1 - c0)) \
    "${execs:-?}" "${cov:-?}" "${ft:-?}" "$(find "$d/corpus-min" -type f | wc -l)" "${counts:-?}" \
    "$found" | tee -a "$out/summary.txt"
  [ "$found" -eq 0 ] || status=1
done
echo "(execs, cov, ft: libFuzzer's last fork-mode line; corpus: after -merge=1; crash/timeout/oom:" \
  "its counters; found: inputs saved in OUTDIR/TARGET/found/)" | tee -a "$out/summary.txt"
exit "$status"
