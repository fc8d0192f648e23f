#!/usr/bin/env bash
# Brief fuzzing for CI (issue 37): builds fuzz/'s libFuzzer targets with clang (ASan + UBSan) in
# build-fuzz/ and fuzzes each for FUZZ_SECONDS (default 14; about a minute for the four), starting
# from its seed corpus (fuzz/corpus/<target>/, copied: the repository's corpus is not changed).
# Exit 1 when any target crashes, hangs (-timeout) or leaks, naming the input it saved; to keep one
# as a regression case, copy it into fuzz/corpus/<target>/ (fuzz/README.md). The corpora's replay
# under ctest (fuzz.<target>) is part of .ci/tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh
seconds=${FUZZ_SECONDS:-14}
targets=(env_parse param_type build_log amp_trace)

echo "== build the fuzz targets (clang, libFuzzer + ASan + UBSan)"
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_FUZZ=ON \
  -DAMP_BUILD_TESTS=OFF -DAMP_BUILD_EXAMPLES=OFF -DAMP_BUILD_BENCH=OFF -DAMP_BUILD_LAB=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

work=build-fuzz/ci-run
rm -rf "$work"
status=0
for t in "${targets[@]}"; do
  mkdir -p "$work/$t/corpus" "$work/$t/found"
  cp fuzz/corpus/"$t"/* "$work/$t/corpus/"
  echo "== fuzz $t for ${seconds} s"
  # -close_fd_mask=3: the target's own output is dropped; libFuzzer's and the sanitizers' reports
  # still reach stderr.
  if ! build-fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=4096 -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$work/$t/found/" \
      "$work/$t/corpus" >"$work/$t/log.txt" 2>&1; then
    status=1
  fi
  grep -E '^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units' "$work/$t/log.txt" || true
  for f in "$work/$t/found"/*; do
    [ -e "$f" ] || continue
    status=1
    echo "fuzz $t: $(basename "$f") ($(wc -c <"$f") bytes), replay: build-fuzz/fuzz/fuzz_$t $f"
    od -A d -c "$f" | head -n 8
    grep -E 'ERROR|runtime error|FUZZ_ASSERT' "$work/$t/log.txt" | head -n 5
  done
done
[ "$status" -eq 0 ] && echo "fuzz: no crash, hang or leak in ${#targets[@]} targets" ||
  echo "fuzz: FAILED (inputs under $work/*/found/)"
exit "$status"
