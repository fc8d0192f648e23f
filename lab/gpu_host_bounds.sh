#!/usr/bin/env bash
# The splits against the host's bounds: how fast the links and the host's memory move add-exp's
# bytes with no kernel, beside the splits and the recipe (issue 34; 2026-11-27, run folder
# lab/runs/h200x4/2026-11-27-host-bounds/), on a host with four GPUs (every GPU is used). PARTS of:
#   sort     ctest -R algo_sort on the default accelerator (the GPU): the onesweep sort's tile
#            scan is now forced inline under clang (kernels_cl/algorithms/onesweep.cl, OS_INLINE)
#   recipe   the users' recipe (examples/split) from malloc on all GPUs, 2^30 floats: --pieces 4,
#            1 and 8, 4 pieces with AMP_STAGING_THREADS=7, amp-bench's add-exp split in the same
#            call, and one traced recipe run (each GPU's link against its host thread,
#            lab/trace_per_gpu.py)
#   bound    pinned add-exp's bound: CUDA moving the same bytes with no kernel on 1, 2 and 4 GPUs
#            (lab/multi_gpu_cuda.py --copies-only), CUDA's add-exp and amp-bench's pinned split
#            in the same call
#   links    the same bytes with no kernel, pinned, each direction alone and both
#            (lab/link_bound.py, 1, 2 and 4 GPUs); the host's memcpy with 16 to 64 threads
#            (lab/host_bandwidth.c: the bound from malloc); amp-bench's split from malloc and
#            pinned with 4 and 8 pieces a GPU, and the recipe's with 8 pieces and 16 staging
#            threads a GPU, in the same call
#   shapes   in one start of the machine: lab/link_bound.py on all GPUs with 2, 4 and 8 streams a
#            GPU and 64 and 256 MiB chunks (is 174 GB/s the most this host moves?), and
#            amp-bench's pinned split with 8, 12 and 16 pieces a GPU
# The SGEMM split and amp-bench's add-exp on a two-GPU machine: lab/gpu_split_writers.sh (gemm,
# addexp). From the repository root:
#   . .device/setup.sh && PARTS="sort recipe bound" bash lab/gpu_host_bounds.sh "$OUT"
# Every output goes into $OUT/host-bounds-g<GPUs>-<parts>.tgz; summaries go to stdout.
NAME=host-bounds PARTS=${PARTS:-sort}
. "$(dirname "$0")/gpu_common.sh"
targets="amp-bench amp-trace split"
on sort && targets="$targets test_algo_sort test_algo_sort64"
on links && targets="$targets host-bandwidth"
gpu_build $targets
if on sort; then
  (cd $B && timeout 240 ctest -R 'algo_sort' --output-on-failure) >"$o/ctest-sort.txt" 2>&1
  echo "== ctest algo_sort rc=$?"; grep -E "Test +#|tests passed|Failed" "$o/ctest-sort.txt"
fi
if on recipe; then
  S="$B/examples/amp-split --size 1073741824 --repeats 5 --accelerators $GALL"
  for v in "--pieces 4" "--pieces 1" "--pieces 8" "--pieces 4 AMP_STAGING_THREADS=7" "--pieces 2"; do
    set -- $v
    f="$o/split-malloc-$(echo "$v" | tr -c 'A-Za-z0-9=_\n' '-').txt"
    env ${3:-} timeout 150 $S $1 $2 >"$f" 2>&1
    echo "== split malloc $v rc=$?"; tail -3 "$f" | head -2
  done
  AMP_BENCH_PIECES=4 timeout 90 $B/bench/amp-bench --workload addexp --impl fast,multi --sizes 2^30 \
    --repeats 5 --multi $GALL --csv "$o/addexp-malloc.csv" >"$o/addexp-malloc.txt" 2>&1
  echo "== amp-bench addexp malloc rc=$?"; grep -A3 'Table A2' "$o/addexp-malloc.txt" | tail -2
  AMP_TRACE=$o/split-trace.json timeout 90 $S --pieces 4 --repeats 1 >"$o/split-trace-run.txt" 2>&1
  echo "== traced split rc=$?"
  python3 lab/trace_per_gpu.py "$o/split-trace.json" >"$o/split-trace-per-gpu.txt" 2>&1
  cat "$o/split-trace-per-gpu.txt"; gzip -f "$o/split-trace.json"
fi
if on bound; then
  timeout 150 python3 lab/multi_gpu_cuda.py --memory pinned --copies-only --repeats 5 \
    >"$o/cuda-copies-only.txt" 2>&1
  echo "== CUDA copies only rc=$?"; cat "$o/cuda-copies-only.txt"
  timeout 120 python3 lab/multi_gpu_cuda.py --memory pinned --repeats 5 >"$o/cuda-addexp.txt" 2>&1
  echo "== CUDA add-exp rc=$?"; cat "$o/cuda-addexp.txt"
  AMP_BENCH_PIECES=4 timeout 90 $B/bench/amp-bench --workload addexp --impl fast,multi --sizes 2^30 \
    --repeats 5 --pinned --multi $GALL --csv "$o/addexp-pinned.csv" >"$o/addexp-pinned.txt" 2>&1
  echo "== amp-bench addexp pinned rc=$?"; grep -A3 'Table A2' "$o/addexp-pinned.txt" | tail -2
fi
if on links; then
  timeout 120 python3 lab/link_bound.py --repeats 5 >"$o/link-bound.txt" 2>&1
  echo "== link bound rc=$?"; cat "$o/link-bound.txt"
  timeout 60 $B/lab/host-bandwidth 4 16,32,48,64 >"$o/host-bandwidth.txt" 2>&1
  echo "== host memcpy rc=$?"; cat "$o/host-bandwidth.txt"
  for mem in malloc pinned; do
    flag=; [ $mem = pinned ] && flag=--pinned
    for P in 4 8; do
      f="$o/addexp-$mem-p$P"
      AMP_BENCH_PIECES=$P timeout 90 $B/bench/amp-bench --workload addexp --impl fast,multi \
        --sizes 2^30 --repeats 5 --multi $GALL $flag --csv "$f.csv" >"$f.txt" 2>&1
      echo "== amp-bench addexp $mem $P pieces rc=$?"; grep -A3 'Table A2' "$f.txt" | tail -1
    done
  done
  AMP_STAGING_THREADS=16 timeout 150 $B/examples/amp-split --size 1073741824 --repeats 5 \
    --accelerators $GALL --pieces 8 >"$o/split-malloc-p8-t16.txt" 2>&1
  echo "== split malloc 8 pieces, 16 staging threads rc=$?"; tail -3 "$o/split-malloc-p8-t16.txt" | head -2
fi
if on shapes; then
  for sc in "2 64" "4 64" "8 64" "4 256" "8 256" "16 64"; do
    set -- $sc
    f="$o/link-bound-s$1-c$2.txt"
    timeout 60 python3 lab/link_bound.py --gpus $NG --modes both,in --streams $1 --chunk $2 \
      --repeats 5 >"$f" 2>&1
    echo "== link bound, $1 streams, $2 MiB chunks rc=$?"; tail -2 "$f"
  done
  for P in 8 12 16; do
    f="$o/addexp-pinned-p$P"
    AMP_BENCH_PIECES=$P timeout 90 $B/bench/amp-bench --workload addexp --impl fast,multi \
      --sizes 2^30 --repeats 5 --pinned --multi $GALL --csv "$f.csv" >"$f.txt" 2>&1
    echo "== amp-bench addexp pinned $P pieces rc=$?"; grep -A3 'Table A2' "$f.txt" | tail -1
  done
fi
gpu_archive
