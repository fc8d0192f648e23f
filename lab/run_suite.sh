#!/usr/bin/env bash
# Runs the measurements behind docs/PERFORMANCE.md and lab/NOTEBOOK.md, and writes every output
# into OUTDIR (a run folder: lab/runs/<device>/<date>-<topic>/, see lab/README.md).
#
#   bash lab/run_suite.sh OUTDIR [PART ...]
#
# PARTs (default: all, in this order):
#   info      amp-info, clinfo -l, nvidia-smi
#   tests     the ctest suite on the default accelerator (a GPU when there is one)
#   examples  the examples at the reference programs' sizes (matmul 1024 int and float, n-body 10,240, ...)
#   transfer  amp-transfer: views vs raw OpenCL, malloc'd and pinned memory
#   tune      amp-bench matmul fast with several tile shapes at 4096 and 8192 (float)
#   tune-double  the same for double
#   tune-nbody   amp-bench nbody fast with several TILE / BPT at 262,144 bodies
#   matmul    amp-bench matmul, float and double, 512 .. 8192, every column
#   addexp    amp-bench addexp, 2^20 .. 2^28
#   nbody     amp-bench nbody, 10,240 and 262,144 bodies
#   overhead  amp-bench --overhead: empty-kernel launch cost vs raw clEnqueueNDRangeKernel
#   cuda      bench/cuda_reference.py: cuBLAS through CuPy, and the CUDA n-body / add-exp kernels
#   cublas    the toward-cuBLAS table in one file: ptx-probe, local-probe, the GPU tests, DGEMM (fast,
#             tensor, bulk, gemm, clblast) and SGEMM (fast, tf32, clblast) at 1000..8192 (or the
#             sizes GEMM_SIZES lists), n-body
#             262,144, and cuBLAS (FP32, TF32 mode, FP64) / the CUDA n-body at the same sizes (not
#             in the default set)
# Set ACC=<device path> to choose the accelerator (default: the default accelerator).
set -uo pipefail
out=${1:?usage: run_suite.sh OUTDIR [PART ...]}
shift
parts=${*:-info tests examples transfer tune matmul addexp nbody overhead cuda}
cd "$(dirname "$0")/.."
mkdir -p "$out"
B=${BUILD:-build-suite}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/$B/pocl-cache}
acc=${ACC:+--accelerator $ACC}

if [ ! -x "$B/bench/amp-bench" ] || [ "${REBUILD:-0}" = 1 ]; then
  cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} >"$out/build.log" 2>&1 &&
    cmake --build "$B" -j"$(nproc)" >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
fi
run() { # name, command...: run, keep the output, say how long it took
  local name=$1
  shift
  local t0=$(date +%s)
  echo "== $name: $*" | tee -a "$out/$name.txt"
  "$@" 2>&1 | tee -a "$out/$name.txt"
  echo "== $name took $(($(date +%s) - t0)) s" | tee -a "$out/$name.txt"
}
ab="$B/bench/amp-bench $acc"
for part in $parts; do
  case $part in
  info)
    run info "$B/examples/amp-info"
    run info clinfo -l
    command -v nvidia-smi >/dev/null && run info nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
    ;;
  tests) run tests ctest --test-dir "$B" --output-on-failure -j4 ;;
  examples)
    run examples "$B/examples/amp-vector-add-exp" $acc --size $((1 << 24))
    run examples "$B/examples/amp-matmul" $acc --size 1024 --type int
    run examples "$B/examples/amp-matmul" $acc --size 1024 --type float
    run examples "$B/examples/amp-nbody" $acc --size 10240 --steps 20
    run examples "$B/examples/amp-tiles" $acc
    ;;
  transfer) run transfer "$B/bench/amp-transfer" $acc --mib 64,256,1024 --repeats 5 ;;
  tune) # the float defaults, then one step of matmul_fast.cl's course undone at a time
    for o in "" "-DINNER_FAST=0" "-DGROUP_M=1" "-DDOUBLE_BUFFER=0" "-DTS_K=8" \
      "-DTS_M=64 -DTS_N=256" "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4"; do
      run tune $ab --workload matmul --impl fast,clblast --types float --sizes 4096,8192 \
        --repeats 3 --fast-opts "$o"
    done
    ;;
  tune-double) # the recommended double shape, then variations
    d="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8"
    for o in "$d -DTS_K=8 -DBW=2" "$d -DTS_K=8 -DBW=4" "$d -DTS_K=8 -DBW=2 -DINNER_FAST=0" \
      "$d -DTS_K=16 -DBW=2 -DDOUBLE_BUFFER=0" "-DTS_M=128 -DTS_N=64 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2" \
      "-DTS_M=128 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"; do
      run tune-double $ab --workload matmul --impl fast,clblast --types double --sizes 4096,8192 \
        --repeats 3 --fast-opts "$o"
    done
    ;;
  tune-nbody)
    for o in "-DTILE=256 -DBPT=4" "-DTILE=256 -DBPT=2" "-DTILE=256 -DBPT=4 -cl-fast-relaxed-math" \
      "-DTILE=256 -DBPT=2 -cl-fast-relaxed-math" "-DTILE=256 -DBPT=4 -DUNROLL=16" "-DTILE=512 -DBPT=4"; do
      run tune-nbody $ab --workload nbody --impl tiled,fast --sizes 262144 --steps 2 --repeats 3 \
        --fast-opts "$o"
    done
    ;;
  matmul)
    for t in float double; do
      run matmul $ab --workload matmul --types $t --sizes 512,1024,2048,4096,8192 --repeats 3 --seq-max 1024 \
        --csv "$out/matmul_$t.csv" --plots "$out/plots_matmul_$t" ${FAST_OPTS:+--fast-opts "$FAST_OPTS"}
    done
    ;;
  addexp) run addexp $ab --workload addexp --csv "$out/addexp.csv" --plots "$out/plots_addexp" ;;
  nbody) run nbody $ab --workload nbody --sizes 10240,262144 --csv "$out/nbody.csv" --plots "$out/plots_nbody" ;;
  overhead) run overhead $ab --overhead --launches 10000 --csv "$out/overhead.csv" ;;
  cuda) run cuda python3 bench/cuda_reference.py --csv "$out/cuda_reference.csv" ;;
  cublas)
    S=${GEMM_SIZES:-1000,1024,2048,3000,4096,5000,8192}
    run cublas "$B/lab/ptx-probe"
    run cublas "$B/lab/local-probe"
    run cublas ctest --test-dir "$B" -R "kernels_tensor|kernels_matmul$|gemm|accelerators|tile_refused|kernels_nbody|kernel_atomics" \
      --output-on-failure
    run cublas $ab --workload matmul --impl fast,tensor,bulk,gemm,clblast --types double --sizes $S \
      --repeats 3 --csv "$out/cublas_dgemm.csv"
    # FAST_OPTS is matmul_fast's: with it, the tf32 column (amp_blas_gemm_ex's own shapes) is left out
    sg=fast,tf32,clblast
    [ -n "${FAST_OPTS:-}" ] && sg=fast,clblast
    run cublas $ab --workload matmul --impl $sg \
      --types float --sizes $S --repeats 3 --csv "$out/cublas_sgemm.csv" \
      ${FAST_OPTS:+--fast-opts "$FAST_OPTS"}
    run cublas $ab --workload nbody --impl tiled,fast,pairs --sizes 262144 --steps 2 --repeats 3
    run cublas python3 bench/cuda_reference.py --only gemm,nbody --gemm-sizes $S \
      --csv "$out/cublas_cuda.csv"
    run cublas python3 bench/cuda_reference.py --only gemm --gemm-types float --gemm-sizes $S \
      --tf32 --csv "$out/cublas_cuda_tf32.csv"
    ;;
  *) echo "run_suite.sh: unknown part '$part'" >&2; exit 2 ;;
  esac
done
