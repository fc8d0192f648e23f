#!/usr/bin/env bash
# The blur's row-ahead loads on GPU 0, and the SGEMM and add-exp splits against CUDA and the
# host over four GPUs (issues 34 and 35; 2026-11-27, run folder
# lab/runs/h200x4/2026-11-27-blur-prefetch-splits/), on a host with four GPUs. PARTS of:
#   stencil  the stencil's tests with and without AMP_STENCIL_PREFETCH, then lab/stencil_sweep.c
#            over the blur's shapes on GPU 0
#   gemm4    amp-bench matmul float 32768 from malloc: fast on one GPU, gemm-multi on four, with
#            AMP_GEMM_MULTI_VERBOSE (each call's per-GPU times), REPEATS repeats, for each
#            AMP_GEMM_MULTI_A_PARTS of A_PARTS (default 4)
#   addexp   the host's memcpy bandwidth (lab/host_bandwidth.c), CUDA's add-exp over 1, 2, 4 GPUs
#            (lab/multi_gpu_cuda.py: pinned and pageable) and amp-bench's add-exp split over 2
#            and 4 GPUs, pinned and malloc, 4 pieces a GPU
#   mpi      amp-mpi-matmul -n 32768 --verify --pingpong on 1 rank (Fox), 2 ranks (shared, panels
#            of 4096) and 4 ranks (every algorithm, panels of 4096): the model with its exchange
#            pair and sizes up to 1 GiB against what is measured (not run on 2026-11-27: no device
#            time was left; lab/gpu_split_writers.sh ran it)
# From the repository root:
#   . .device/setup.sh && PARTS="stencil gemm4" bash lab/gpu_blur_splits.sh "$OUT"
# Every output goes into $OUT/blur-splits-g<GPUs>-<parts>.tgz; summaries go to stdout.
NAME=blur-splits PARTS=${PARTS:-stencil gemm4 addexp}
. "$(dirname "$0")/gpu_common.sh"
gpu_build ${TARGETS:-amp-bench stencil-sweep test_algo_stencil host-bandwidth mpi_matmul}
if on stencil; then
  export AMP_DEFAULT_ACCELERATOR=$G1
  # the first two calls also swept AMP_STENCIL_GW=2 (8 columns a thread: 1.52 ms against 0.76)
  # and a kernel taking its neighbours' columns by warp shuffles (1.13 ms); both are gone
  for pf in 0 1; do
    AMP_STENCIL_PREFETCH=$pf timeout 120 ctest --test-dir $B -R algo_stencil -E oclgrind --output-on-failure -j3 --timeout 100 >"$o/ctest-stencil-pf$pf.txt" 2>&1
    echo "ctest stencil AMP_STENCIL_PREFETCH=$pf rc=$?"; grep -E "tests passed|\(Failed\)" "$o/ctest-stencil-pf$pf.txt" | head -5
  done
  P=AMP_STENCIL_PREFETCH=1
  v=(default $P $P,AMP_STENCIL_RING=1 $P,AMP_STENCIL_RING=1,AMP_STENCIL_ROWS=64
     $P,AMP_STENCIL_RING=1,AMP_STENCIL_ROWS=128 AMP_STENCIL_RING=1,AMP_STENCIL_ROWS=128
     $P,AMP_STENCIL_ROWS=16 $P,AMP_STENCIL_ROWS=24 $P,AMP_STENCIL_TX=128 default $P)
  timeout 300 $B/lab/stencil-sweep --side 16384 --repeats 9 --csv "$o/sweep.csv" "${v[@]}" \
    >"$o/sweep.txt" 2>"$o/sweep.err"
  echo "stencil-sweep rc=$?"; grep -v stencil_2d "$o/sweep.txt"; tail -3 "$o/sweep.err"
  unset AMP_DEFAULT_ACCELERATOR
fi
if on gemm4; then
  MM="$B/bench/amp-bench --workload matmul --types float --sizes 32768 --repeats ${REPEATS:-4}"
  for ap in ${A_PARTS:-4}; do
    AMP_GEMM_MULTI_A_PARTS=$ap AMP_GEMM_MULTI_VERBOSE=1 timeout 240 $MM --impl fast,gemm-multi --multi $G4 --csv "$o/matmul-g4-a$ap.csv" >"$o/matmul-g4-a$ap.txt" 2>"$o/matmul-g4-a$ap.err"
    echo "matmul 32768 4 GPUs, A in $ap parts, rc=$?"; grep -A4 'Table A2' "$o/matmul-g4-a$ap.txt" | tail -2
    grep -A3 'Table A3' "$o/matmul-g4-a$ap.txt" | tail -1
    grep "accelerators" "$o/matmul-g4-a$ap.err"; grep "rows" "$o/matmul-g4-a$ap.err" | tail -4
  done
fi
if on addexp; then
  timeout 60 $B/lab/host-bandwidth 4 1,8,16,32,64 >"$o/host-bandwidth.txt" 2>&1; cat "$o/host-bandwidth.txt"
  timeout 200 python3 lab/multi_gpu_cuda.py --log2n 30 --pieces 4 --repeats 3 >"$o/cuda-addexp.txt" 2>&1
  echo "cuda rc=$?"; cat "$o/cuda-addexp.txt" | tail -8
  AE="$B/bench/amp-bench --workload addexp --impl fast,multi --sizes 2^30 --repeats 3"
  for G in G4 G2; do
    for mem in pinned malloc; do
      flag=; [ $mem = pinned ] && flag=--pinned
      AMP_BENCH_PIECES=4 timeout 60 $AE --multi ${!G} $flag --csv "$o/addexp-$G-$mem.csv" >"$o/addexp-$G-$mem.txt" 2>&1
      echo "addexp $G $mem: $(grep -A3 'Table A2' "$o/addexp-$G-$mem.txt" | tail -1)"
    done
  done
fi
if on mpi; then
  R="mpirun --allow-run-as-root --oversubscribe --bind-to none -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
  M="$B/examples/mpi_matmul/amp-mpi-matmul -n ${MPI_N:-32768} --verify --pingpong"
  for run in "1 fox" "2 shared --panel 4096" "4 all --panel 4096"; do
    set -- $run
    f="$o/mpi-np$1-$2.txt"
    np=$1 alg=$2
    shift 2
    timeout 200 $R -np $np $M --algorithm $alg "$@" >"$f" 2>&1
    echo "== mpi np$np $alg $* rc=$?"; grep -E "^(cannon|fox|summa|shared) |Hockney|rror" "$f" | head -12
  done
fi
gpu_archive
