#!/usr/bin/env bash
# Issue 34's measurements on one host with four GPUs (the two-GPU rows use GPUs 0 and 1 of it):
# the host's own memory bandwidth, amp-bench's add-exp and matmul splits against one GPU in the
# same process, amp-split (the users' recipe), and amp-mpi-matmul on 1, 2 and 4 ranks (one per
# GPU, not bound to a core; whole-block steps and panels of n/8). From the repository root:
#   . .device/setup.sh && PARTS="bw addexp split matmul mpi" bash lab/gpu_scale.sh "$OUT"
# (results in $OUT/scale.tgz; PARTS picks the sections, all by default)
set -uo pipefail
out=${1:?usage: gpu_scale.sh OUTDIR}
cd "$(dirname "$0")/.."
o=$out/scale
mkdir -p "$o"
B=build-gpu
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release &&
  cmake --build $B -j"$(nproc)" --target amp-bench split mpi_matmul host-bandwidth; } >"$o/build.log" 2>&1 ||
  { tail -40 "$o/build.log"; exit 1; }
G4=ocl/nvidia-cuda/0,ocl/nvidia-cuda/1,ocl/nvidia-cuda/2,ocl/nvidia-cuda/3
G2=ocl/nvidia-cuda/0,ocl/nvidia-cuda/1
PARTS=${PARTS:-bw addexp split matmul mpi}
on() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
on bw && $B/lab/host-bandwidth 4 1,8,16,32,56,64 >"$o/host-bandwidth.txt" 2>&1; cat "$o/host-bandwidth.txt"
AE="$B/bench/amp-bench --workload addexp --impl fast,multi --sizes 2^30 --repeats 3"
on addexp && for P in 1 4 8; do
  AMP_BENCH_PIECES=$P timeout 60 $AE --multi $G4 --pinned --csv "$o/addexp-g4-pinned-p$P.csv" >"$o/addexp-g4-pinned-p$P.txt" 2>&1
  echo "addexp 4 GPUs pinned pieces $P: $(grep -A3 'Table A2' "$o/addexp-g4-pinned-p$P.txt" | tail -1)"
done
on addexp && for P in 1 4; do
  AMP_BENCH_PIECES=$P timeout 60 $AE --multi $G4 --csv "$o/addexp-g4-malloc-p$P.csv" >"$o/addexp-g4-malloc-p$P.txt" 2>&1
  echo "addexp 4 GPUs malloc pieces $P: $(grep -A3 'Table A2' "$o/addexp-g4-malloc-p$P.txt" | tail -1)"
done
on addexp && for mem in pinned malloc; do
  flag=; [ $mem = pinned ] && flag=--pinned
  AMP_BENCH_PIECES=4 timeout 60 $AE --multi $G2 $flag --csv "$o/addexp-g2-$mem.csv" >"$o/addexp-g2-$mem.txt" 2>&1
  echo "addexp 2 GPUs $mem pieces 4: $(grep -A3 'Table A2' "$o/addexp-g2-$mem.txt" | tail -1)"
done
if on split; then
  timeout 60 $B/examples/amp-split --size 1073741824 --pieces 4 --pinned >"$o/amp-split-pinned.txt" 2>&1; tail -4 "$o/amp-split-pinned.txt"
  timeout 60 $B/examples/amp-split --size 1073741824 --pieces 4 >"$o/amp-split-malloc.txt" 2>&1; tail -4 "$o/amp-split-malloc.txt"
  timeout 60 $B/examples/amp-split --size 1073741824 --pieces 4 --pinned --accelerators $G2 >"$o/amp-split-g2-pinned.txt" 2>&1; tail -3 "$o/amp-split-g2-pinned.txt"
fi
MM="$B/bench/amp-bench --workload matmul --types float --sizes 32768 --repeats 2"
on matmul && timeout 150 $MM --impl fast,gemm-multi,fast-multi --multi $G4 --csv "$o/matmul-g4.csv" >"$o/matmul-g4.txt" 2>&1
on matmul && echo "matmul 32768 4 GPUs: $(grep -A3 'Table A2' "$o/matmul-g4.txt" | tail -2 | tr '\n' ' ')"
on matmul && timeout 120 $MM --impl fast,gemm-multi --multi $G2 --csv "$o/matmul-g2.csv" >"$o/matmul-g2.txt" 2>&1
on matmul && echo "matmul 32768 2 GPUs: $(grep -A3 'Table A2' "$o/matmul-g2.txt" | tail -2 | tr '\n' ' ')"
if on mpi; then
  ompi_info --param btl vader --level 9 2>/dev/null | grep -i single_copy >"$o/ompi-vader.txt"
  R="mpirun --allow-run-as-root --oversubscribe --bind-to none -x OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"
  M=$B/examples/mpi_matmul/amp-mpi-matmul
  n=${MPI_N:-32768}
  for np in 1 2 4; do
    for w in 0 $((n / 8)); do
      panel=; [ $w -gt 0 ] && panel="--panel $w"
      timeout 120 $R -np $np $M -n $n --verify --pingpong $panel >"$o/mpi-np$np-w$w.txt" 2>&1
      echo "== mpi np$np panel $w rc=$?"; grep -E "^(cannon|fox|summa|shared) |Hockney|rror" "$o/mpi-np$np-w$w.txt" | head -9
    done
  done
fi
cd "$out" && tar czf scale.tgz scale && rm -rf scale
