#!/usr/bin/env bash
# The onesweep sort's ranking and look-back, the compaction's writes and tile shapes, and the
# release probe on one GPU; the SGEMM split and the MPI example on four (2026-11-27, run folder
# lab/runs/h200x4/2026-11-27-sort-ballots-compaction/); PARTS picks sections:
#   sort     lab/sort-probe: the onesweep warp pass ranking with 8 ballots and reading the
#            look-back with relaxed loads (the new defaults) against match.any and atomic_or
#            reads (flags m, a), tiles and keys per thread; one traced run for the split between
#            the init, histogram and pass kernels (issue 35)
#   algo     amp-bench --algorithms rows beside CuPy in the same call, and the compaction's
#            staged writes (AMP_COMPACT_STAGE=1) against the writes from registers
#   suite    the whole test suite on the GPU
#   csweep   the compaction's tile shapes (AMP_COMPACT_TILE x AMP_COMPACT_PER) with the staged
#            writes (and unique reading each predecessor from memory: ...:1), copy_if and unique
#            beside the copy
#   probe    lab/release-probe: which host calls wait for a kernel still running on another queue
#   mm4      amp-bench matmul float 32768 from malloc: fast (one GPU), gemm-multi and fast-multi
#            on four GPUs, then on two (issue 34)
#   mpi      amp-mpi-matmul n = 32768 float, MPI_RUNS of NP:ALGORITHM:PANEL[:t] (0: the default
#            panel; t: each rank writes an AMP_TRACE file, summarised), one rank per GPU
# From the repository root:
#   . .device/setup.sh && PARTS="sort algo" bash lab/gpu_sort_compact.sh "$OUT"
# Every output goes into $OUT/sort-compact-g<GPUs>-<parts>.tgz; summaries go to stdout.
NAME=sort-compact PARTS=${PARTS:-sort algo}
. "$(dirname "$0")/gpu_common.sh"
gpu_build ${TARGETS:-}
export AMP_DEFAULT_ACCELERATOR=$G1
if on probe; then
  timeout 60 $B/lab/release-probe 256 >"$o/release-probe.txt" 2>&1
  echo "== release-probe rc=$?"; cat "$o/release-probe.txt"
fi
if on sort; then
  P="$B/lab/sort-probe 26 7"
  # the first call also ran keys:256:20:1:m (match.any), :a (atomic_or reads), :ma, keys:256:16,
  # keys:256:24, keys:512:12/15/16, pairs:256:16:1:ma, pairs:256:12, pairs:512:12/16 (flags and knobs
  # since gone; lab/NOTEBOOK.md)
  timeout 240 $P ${SORT_SHAPES:-keys:256:20 keys:256:16:0 pairs:256:16} >"$o/sort-probe.txt" 2>&1
  echo "== sort-probe rc=$?"; cat "$o/sort-probe.txt"
  AMP_TRACE=$o/sort-trace.json timeout 60 $P keys:256:20 >"$o/sort-trace-run.txt" 2>&1
  for f in sort-trace; do
    $B/examples/amp-trace summary "$o/$f.json" >"$o/$f-summary.txt" 2>&1
    echo "== $f"; grep -iE "onesweep|copy" "$o/$f-summary.txt" | head -8
  done
  gzip -f "$o"/sort-trace*.json
fi
if on algo; then
  timeout 150 ctest --test-dir $B -R "algo_" --output-on-failure -j8 --timeout 100 >"$o/ctest-algo.txt" 2>&1
  echo "ctest algo rc=$?"; grep -E "tests passed|\(Failed\)|\(Timeout\)" "$o/ctest-algo.txt"
  A="$B/bench/amp-bench --algorithms --repeats 5"
  timeout 120 $A --csv "$o/ampcl_algorithms.csv" >"$o/ampcl_algorithms.txt" 2>&1
  echo "== amp-bench --algorithms"; grep -E "^(copy|sort|sort_pairs|stencil|stencil_2d|copy_if|unique) " "$o/ampcl_algorithms.txt"
  timeout 120 python3 bench/cuda_reference.py --only algorithms --csv "$o/cupy_algorithms.csv" \
    >"$o/cupy_algorithms.txt" 2>&1
  echo "== cupy"; grep -iE "sort|copy|argsort" "$o/cupy_algorithms.txt" | head -8
  if [ -n "${STAGE_AB:-}" ]; then # the first call's A/B of the compaction's staged writes (the knob
    # AMP_COMPACT_STAGE went once the staged writes were the default)
    for cfg in "AMP_COMPACT_STAGE=0" "AMP_COMPACT_STAGE=1" "AMP_COMPACT_STAGE=1 AMP_COMPACT_TILE=256 AMP_COMPACT_PER=16" \
      "AMP_COMPACT_STAGE=1 AMP_COMPACT_TILE=256 AMP_COMPACT_PER=32" "AMP_COMPACT_STAGE=0" "AMP_COMPACT_STAGE=1"; do
      echo "== compaction $cfg"
      env $cfg AMP_BENCH_ALGORITHMS=copy_if,unique timeout 60 $B/bench/amp-bench --algorithms --repeats 7 2>&1 |
        grep -E '^(copy|copy_if|unique) '
    done >"$o/compact-stage.txt" 2>&1
  else
    for r in 1 2; do
      echo "== compaction, round $r"
      AMP_BENCH_ALGORITHMS=copy_if,unique timeout 60 $B/bench/amp-bench --algorithms --repeats 7 2>&1 |
        grep -E '^(copy|copy_if|unique) '
    done >"$o/compact-stage.txt" 2>&1
  fi
  cat "$o/compact-stage.txt"
fi
if on mm4; then
  unset AMP_DEFAULT_ACCELERATOR
  MM="$B/bench/amp-bench --workload matmul --types float --sizes 32768 --repeats 2"
  timeout 200 $MM --impl fast,gemm-multi,fast-multi --multi $G4 --csv "$o/matmul-g4.csv" >"$o/matmul-g4.txt" 2>&1
  echo "matmul 32768 4 GPUs rc=$?:"; grep -A4 'Table A2' "$o/matmul-g4.txt" | tail -3
  timeout 150 $MM --impl fast,gemm-multi --multi $G2 --csv "$o/matmul-g2.csv" >"$o/matmul-g2.txt" 2>&1
  echo "matmul 32768 2 GPUs rc=$?:"; grep -A4 'Table A2' "$o/matmul-g2.txt" | tail -2
fi
if on mpi; then
  unset AMP_DEFAULT_ACCELERATOR
  R="mpirun --allow-run-as-root --oversubscribe --bind-to none -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
  M=$B/examples/mpi_matmul/amp-mpi-matmul
  n=${MPI_N:-32768}
  for run in ${MPI_RUNS:-"1:fox:0" "2:shared:4096:t" "4:shared:4096:t" "4:shared:0" "4:all:4096"}; do
    np=${run%%:*} rest=${run#*:}
    alg=${rest%%:*} rest=${rest#*:}
    w=${rest%%:*} tr=${rest#"$w"}
    panel=; [ "$w" != 0 ] && panel="--panel $w"
    f="$o/mpi-np$np-$alg-w$w"
    if [ -n "$tr" ]; then
      timeout 150 $R -np $np sh -c "AMP_TRACE=$f-rank\$OMPI_COMM_WORLD_RANK.json exec $M -n $n --verify --pingpong --algorithm $alg $panel" >"$f.txt" 2>&1
    else
      timeout 150 $R -np $np $M -n $n --verify --pingpong --algorithm $alg $panel >"$f.txt" 2>&1
    fi
    echo "== mpi np$np $alg panel $w rc=$?"; grep -E "^(cannon|fox|summa|shared) |Hockney|rror" "$f.txt" | head -9
    for j in "$f"-rank*.json; do
      [ -f "$j" ] || continue
      $B/examples/amp-trace summary "$j" >"${j%.json}-summary.txt" 2>&1
      echo "-- ${j##*/}"; head -30 "${j%.json}-summary.txt"; gzip -f "$j"
    done
  done
fi
if on csweep; then
  for round in ${CSWEEP_ROUNDS:-1}; do
    for shape in 128:32 128:32:1 64:32 96:32 128:16 128:24 256:16 256:24 512:8 512:16 256:16:1 128:32; do
      t=${shape%%:*} r=${shape#*:} per=${r%%:*} pl=0; [ "$r" != "$per" ] && pl=${r#*:}
      echo "== compaction tile $t per $per prev_load $pl, round $round"
      AMP_COMPACT_PREV_LOAD=$pl AMP_COMPACT_TILE=$t AMP_COMPACT_PER=$per AMP_BENCH_ALGORITHMS=copy_if,unique \
        timeout 60 $B/bench/amp-bench --algorithms --repeats 7 2>&1 | grep -E '^(copy|copy_if|unique) '
    done
  done >"$o/compact-shapes.txt" 2>&1
  cat "$o/compact-shapes.txt"
fi
if on suite; then
  timeout 500 ctest --test-dir $B -E "mpi_grids|oclgrind" --output-on-failure -j8 --timeout 200 >"$o/ctest-suite.txt" 2>&1
  echo "ctest suite rc=$?"; grep -E "tests passed|\(Failed\)|\(Timeout\)" "$o/ctest-suite.txt"
fi
gpu_archive
