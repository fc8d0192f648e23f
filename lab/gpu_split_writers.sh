#!/usr/bin/env bash
# The splits' writes into C, the users' recipe, and the MPI example's model with its exchange pair
# (issue 34; 2026-11-27, run folders lab/runs/h200x4/2026-11-27-split-writers-mpi-model/ and
# lab/runs/h200x2/2026-11-27-split-writers-mpi-model/), on a host with two or four GPUs (every GPU
# of the host is used; G2 is GPUs 0 and 1), PARTS of:
#   mpi      amp-mpi-matmul -n 32768 --verify --pingpong: 1 rank (Fox), and on 2 and 4 ranks
#            (where the host has them) every algorithm with panels of 4096: Hockney's model with
#            its exchange pair and sizes up to 1 GiB against what is measured
#   split    examples/split (the users' recipe) on 2^30 floats, 4 pieces a GPU, pinned and
#            malloc, over all GPUs and over 2 (it times GPU 0 alone in the same process)
#   gemm     amp-bench matmul float 32768 from malloc: fast on one GPU, gemm-multi on all GPUs,
#            with AMP_GEMM_MULTI_VERBOSE (each GPU's timeline in each call), once for each of
#            GEMM_VARIANTS (settings joined by commas, or "default"), then (TRACE=1, the default)
#            one traced gemm-multi call (AMP_TRACE, summarised by amp-trace). SWEEP, if set, is
#            passed to the first run as AMP_BENCH_GEMM_MULTI_SWEEP (more settings timed in the
#            same process, after its own runs: bench/bench_matmul.c). On a two-GPU host of 32
#            cores filling the 32768^2 inputs and five `fast` runs took about three minutes: give
#            this part a call of its own there
#   addexp   amp-bench's add-exp split of 2^30 floats over 2 GPUs, pinned and malloc, 4 pieces a
#            GPU, and the host's memcpy bandwidth (lab/host_bandwidth.c)
# From the repository root:
#   . .device/setup.sh && PARTS="mpi" bash lab/gpu_split_writers.sh "$OUT"
# Every output goes into $OUT/split-writers-g<GPUs>-<parts>.tgz; summaries go to stdout.
NAME=split-writers PARTS=${PARTS:-mpi}
. "$(dirname "$0")/gpu_common.sh"
gpu_build ${TARGETS:-amp-bench amp-trace split host-bandwidth mpi_matmul}
if on mpi; then
  R="mpirun --allow-run-as-root --oversubscribe --bind-to none -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
  M="$B/examples/mpi_matmul/amp-mpi-matmul -n ${MPI_N:-32768} --verify --pingpong"
  runs=("1 fox" "2 all --panel 4096")
  [ "$NG" -ge 4 ] && runs+=("4 all --panel 4096")
  for run in "${runs[@]}"; do
    set -- $run
    f="$o/mpi-np$1-$2.txt"
    np=$1 alg=$2
    shift 2
    s=$(date +%s)
    timeout 240 $R -np $np $M --algorithm $alg "$@" >"$f" 2>&1
    echo "== mpi np$np $alg $* rc=$? $(($(date +%s) - s)) s"; grep -E "^(cannon|fox|summa|shared) |Hockney|rror" "$f" | head -12
  done
fi
if on split; then
  for G in GALL G2; do
    [ $G = G2 ] && [ "$NG" -le 2 ] && continue
    for mem in pinned malloc; do
      flag=; [ $mem = pinned ] && flag=--pinned
      f="$o/split-$G-$mem.txt"
      timeout 120 $B/examples/amp-split --size 1073741824 --pieces 4 --repeats 3 --accelerators ${!G} $flag >"$f" 2>&1
      echo "== split $G $mem rc=$?"; tail -4 "$f"
    done
  done
fi
if on gemm; then
  MM="$B/bench/amp-bench --workload matmul --types float --sizes 32768"
  # GEMM_VARIANTS: settings for each gemm-multi run ("default": none); the first also runs `fast`
  # on one GPU, the baseline
  impl=fast,gemm-multi
  for v in ${GEMM_VARIANTS:-default}; do
    vt=$(echo "$v" | tr -c 'A-Za-z0-9=_\n' '-')
    env_v=(); [ "$v" != default ] && env_v=(${v//,/ })
    [ "$impl" = fast,gemm-multi ] && [ -n "${SWEEP:-}" ] && env_v+=("AMP_BENCH_GEMM_MULTI_SWEEP=$SWEEP")
    env "${env_v[@]}" AMP_GEMM_MULTI_VERBOSE=1 timeout ${GEMM_TIMEOUT:-240} $MM --repeats 4 --impl $impl --multi $GALL --csv "$o/matmul-g$NG-$vt.csv" >"$o/matmul-g$NG-$vt.txt" 2>"$o/matmul-g$NG-$vt.err"
    echo "== matmul 32768 on $NG GPUs, $v, rc=$?"; grep -A4 'Table A2' "$o/matmul-g$NG-$vt.txt" | tail -2
    grep "accelerators" "$o/matmul-g$NG-$vt.err" | sed 's/.*A in/A in/'; grep "rows" "$o/matmul-g$NG-$vt.err" | tail -$NG
    impl=gemm-multi
  done
  if [ "${TRACE:-1}" = 1 ]; then
    AMP_TRACE=$o/gemm-trace.json AMP_GEMM_MULTI_VERBOSE=1 timeout 120 $MM --repeats 1 --impl gemm-multi --multi $GALL >"$o/gemm-trace-run.txt" 2>&1
    echo "traced rc=$?"
    $B/examples/amp-trace summary "$o/gemm-trace.json" >"$o/gemm-trace-summary.txt" 2>&1
    head -30 "$o/gemm-trace-summary.txt"; gzip -f "$o/gemm-trace.json"
  fi
fi
if on addexp; then
  timeout 60 $B/lab/host-bandwidth 4 1,8,16,32 >"$o/host-bandwidth.txt" 2>&1; cat "$o/host-bandwidth.txt"
  AE="$B/bench/amp-bench --workload addexp --impl fast,multi --sizes 2^30 --repeats 3"
  for mem in pinned malloc; do
    flag=; [ $mem = pinned ] && flag=--pinned
    AMP_BENCH_PIECES=4 timeout 60 $AE --multi $G2 $flag --csv "$o/addexp-G2-$mem.csv" >"$o/addexp-G2-$mem.txt" 2>&1
    echo "addexp G2 $mem: $(grep -A3 'Table A2' "$o/addexp-G2-$mem.txt" | tail -1)"
  done
fi
gpu_archive
