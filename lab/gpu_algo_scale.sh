#!/usr/bin/env bash
# The algorithms' knobs on one GPU and the splits over two (2026-11-27, a host with two GPUs;
# run folder lab/runs/h200x2/2026-11-27-algo-scale/); PARTS picks sections:
#   algo    the algorithm tests on GPU 0, amp-bench --algorithms (the warp-ranked onesweep sort by
#           default; ALGO_VARIANTS=1 adds the portable pass, AMP_ONESWEEP_WARP=0, and keys per
#           thread 8 and 12) beside CuPy in the same call (issue 35)
#   sortsweep  lab/sort-probe over the onesweep warp pass's tile (256, 512) and keys per thread
#   sweep   the compaction knobs; sweep2: lab/stencil_sweep.sh (issue 35)
#   suite   the whole test suite on the GPU
#   split2  the host's memcpy bandwidth, add-exp split over both GPUs (pinned and malloc'd) and
#           amp-split, each against one GPU in the same process (issue 34)
#   mm2     amp-bench matmul float 32768: fast (one GPU), gemm-multi and fast-multi on both
#   mpi2    amp-mpi-matmul n = 32768 float, MPI_RUNS of NP:ALGORITHM:PANEL (0: the default panel),
#           one rank per GPU (issue 34)
# From the repository root:
#   . .device/setup.sh && PARTS="algo split2" bash lab/gpu_algo_scale.sh "$OUT"
# Every output goes into $OUT/algo-scale-g<GPUs>-<parts>.tgz; summaries go to stdout.
NAME=algo-scale PARTS=${PARTS:-algo split2}
. "$(dirname "$0")/gpu_common.sh"
gpu_build
ROWS="^(copy|sort|sort_pairs|stencil|stencil_2d|copy_if|unique) "
if on algo; then
  export AMP_DEFAULT_ACCELERATOR=$G1
  timeout 120 ctest --test-dir $B -R "algo_|docs" --output-on-failure -j8 --timeout 100 >"$o/ctest-algo.txt" 2>&1
  echo "ctest algo rc=$?"; grep -E "tests passed|\(Failed\)|\(Timeout\)" "$o/ctest-algo.txt"
  A="$B/bench/amp-bench --algorithms --repeats 5"
  timeout 120 $A --csv "$o/ampcl_algorithms.csv" >"$o/ampcl_algorithms.txt" 2>&1
  echo "== default (warp sort)"; grep -E "$ROWS" "$o/ampcl_algorithms.txt"
  timeout 120 python3 bench/cuda_reference.py --only algorithms --csv "$o/cupy_algorithms.csv" \
    >"$o/cupy_algorithms.txt" 2>&1
  echo "== cupy"; grep -iE "sort|copy|argsort" "$o/cupy_algorithms.txt" | head -8
  if [ -n "${ALGO_VARIANTS:-}" ]; then # the first run's variants; the sort-probe covers them since
    AMP_ONESWEEP_WARP=0 timeout 120 $A >"$o/ampcl_algorithms-portable.txt" 2>&1
    echo "== AMP_ONESWEEP_WARP=0"; grep -E "^(copy|sort|sort_pairs) " "$o/ampcl_algorithms-portable.txt"
    for per in 8 12; do
      AMP_ONESWEEP_PER=$per timeout 120 $A >"$o/ampcl_algorithms-per$per.txt" 2>&1
      echo "== AMP_ONESWEEP_PER=$per"; grep -E "^(copy|sort|sort_pairs) " "$o/ampcl_algorithms-per$per.txt"
    done
  fi
  unset AMP_DEFAULT_ACCELERATOR
fi
if on sortsweep; then
  P="$B/lab/sort-probe 26 7"
  AMP_DEFAULT_ACCELERATOR=$G1 timeout 200 $P keys:256:16 keys:256:20 keys:256:24 keys:512:12 keys:512:16 \
    keys:512:20 keys:512:24 keys:256:16:0 pairs:256:12 pairs:256:16 pairs:512:8 pairs:512:12 \
    pairs:512:16 >"$o/sort-probe.txt" 2>&1
  echo "== sort-probe rc=$?"; cat "$o/sort-probe.txt"
fi
if on sweep; then
  for cfg in "AMP_COMPACT_WARP=0" "" "AMP_COMPACT_RELAXED=0" "AMP_COMPACT_WINDOW=8" "AMP_COMPACT_PER=8" \
    "AMP_COMPACT_PER=32" "AMP_COMPACT_TILE=128 AMP_COMPACT_PER=32" "AMP_COMPACT_TILE=512"; do
    echo "== compaction $cfg"
    env $cfg AMP_BENCH_ALGORITHMS=copy_if,unique AMP_DEFAULT_ACCELERATOR=$G1 timeout 60 \
      $B/bench/amp-bench --algorithms --repeats 5 2>&1 | grep -E '^(copy|copy_if|unique) '
  done >"$o/compact-sweep.txt" 2>&1
  cat "$o/compact-sweep.txt"
fi
if on split2; then
  timeout 60 $B/lab/host-bandwidth 4 1,2,4,8,16,32 >"$o/host-bandwidth.txt" 2>&1; tail -7 "$o/host-bandwidth.txt"
  AE="$B/bench/amp-bench --workload addexp --impl fast,multi --sizes 2^30 --repeats 3"
  for mem in pinned malloc; do
    flag=; [ $mem = pinned ] && flag=--pinned
    for P in 1 4; do
      AMP_BENCH_PIECES=$P timeout 60 $AE --multi $G2 $flag --csv "$o/addexp-g2-$mem-p$P.csv" >"$o/addexp-g2-$mem-p$P.txt" 2>&1
      echo "addexp 2 GPUs $mem pieces $P: $(grep -A3 'Table A2' "$o/addexp-g2-$mem-p$P.txt" | tail -1)"
    done
  done
  for mem in pinned malloc; do
    flag=; [ $mem = pinned ] && flag=--pinned
    timeout 60 $B/examples/amp-split --size 1073741824 --pieces 4 $flag --accelerators $G2 >"$o/amp-split-g2-$mem.txt" 2>&1
    echo "amp-split 2 GPUs $mem:"; tail -4 "$o/amp-split-g2-$mem.txt"
  done
fi
if on mm2; then
  MM="$B/bench/amp-bench --workload matmul --types float --sizes 32768 --repeats 2"
  timeout 280 $MM --impl fast,gemm-multi,fast-multi --multi $G2 --csv "$o/matmul-g2.csv" >"$o/matmul-g2.txt" 2>&1
  echo "matmul 32768 2 GPUs rc=$?:"; grep -A4 'Table A2' "$o/matmul-g2.txt" | tail -3
fi
if on mpi2; then
  R="mpirun --allow-run-as-root --oversubscribe --bind-to none -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
  M=$B/examples/mpi_matmul/amp-mpi-matmul
  n=${MPI_N:-32768}
  for run in ${MPI_RUNS:-"1:fox:0" "1:shared:0" "2:summa:0" "2:shared:0" "2:shared:4096" "2:summa:4096"}; do
    np=${run%%:*} rest=${run#*:}
    alg=${rest%%:*} w=${rest#*:}
    panel=; [ "$w" != 0 ] && panel="--panel $w"
    f="$o/mpi-np$np-$alg-w$w.txt"
    timeout 150 $R -np $np $M -n $n --verify --pingpong --algorithm $alg $panel >"$f" 2>&1
    echo "== mpi np$np $alg panel $w rc=$?"; grep -E "^(cannon|fox|summa|shared) |Hockney|rror" "$f" | head -9
  done
fi
if on suite; then
  timeout 240 ctest --test-dir $B --output-on-failure -j8 --timeout 200 >"$o/ctest.txt" 2>&1
  echo "ctest rc=$?"; grep -E "tests passed|\(Failed\)|\(Timeout\)" "$o/ctest.txt"
fi
if on sweep2; then
  [ -f lab/stencil_sweep.sh ] && AMP_DEFAULT_ACCELERATOR=$G1 BUILD=$B timeout ${SWEEP_S:-280} bash lab/stencil_sweep.sh "$o/stencil"
  tail -25 "$o/stencil/sweep.txt" 2>/dev/null
fi
gpu_archive
