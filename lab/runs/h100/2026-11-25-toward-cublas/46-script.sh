#!/usr/bin/env bash
# run 46 (a later session, same day): nbody_pairs (kernels_cl/nbody_pairs.cl, each pair once) on the GPU: its
# test, the float atomics test (now PTX atom.add.f32 on NVIDIA), registers and SASS, amp-bench
# nbody tiled/fast/pairs at 262,144 bodies with pairs shapes, the CUDA tiled kernel in the same
# run; then matmul_dmma_bulk with 16 consumer warps of 32 x 32 (left over from the last session).
B=build-gpu
export PATH=$PATH:/usr/local/cuda/bin
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench test_kernels_nbody test_kernel_atomics 2>&1 | grep -E "error|warning"
echo "== tests on the default accelerator"
$B/tests/test_kernels_nbody 2>&1 | grep -E "pairs 32x8|MISMATCH|passed|failed|accelerator" | head -20
$B/tests/test_kernel_atomics 2>&1 | tail -3
echo "== registers and SASS"
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
gcc -O2 -o /tmp/ptxdump exp/ptx_dump.c -lOpenCL
FM="-cl-fast-relaxed-math -cl-denorms-are-zero"
/tmp/regs kernels_cl/nbody_pairs.cl "-DBPT=8 $FM" "-DBPT=4 $FM" "-DBPT=16 $FM" 2>&1 | grep -E "^==|Used|spill|error"
/tmp/ptxdump kernels_cl/nbody_pairs.cl "-DBPT=8 $FM" /tmp/pairs.ptx && ptxas -arch=sm_90 -o /tmp/pairs.cubin /tmp/pairs.ptx \
  && cuobjdump -sass /tmp/pairs.cubin > $OUT/pairs-sass.txt
awk '/Function : nbody_pairs$/{f=1} /Function : nbody_pairs_advance/{f=0} f' $OUT/pairs-sass.txt | grep -oE "^ +/\*[0-9a-f]{4}\*/ +[A-Z0-9_.]+" | awk '{split($2,a,"."); print a[1]}' | sort | uniq -c | sort -rn | head -16
echo "== amp-bench nbody 262144"
ab=$B/bench/amp-bench
timeout 90 $ab --workload nbody --impl tiled,fast,pairs --sizes 262144 --steps 2 --repeats 3 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror"
for o in "-DBPT=4 -DCHUNK=8" "-DBPT=8 -DCHUNK=4" "-DBPT=8 -DCHUNK=16" "-DBPT=16 -DCHUNK=4" "-DTILE=64 -DBPT=8 -DCHUNK=8"; do
  echo "-- pairs [$o]"
  timeout 60 $ab --workload nbody --impl pairs --sizes 262144 --steps 2 --repeats 3 --fast-opts "$o $FM" 2>&1 | grep -E "kernel|FAIL|rror"
done
timeout 60 $ab --workload nbody --impl fast,pairs --sizes 10240,65536 --steps 2 --repeats 3 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror"
echo "== CUDA tiled n-body"
timeout 90 python3 bench/cuda_reference.py --only nbody --steps 2 --repeats 3 2>&1 | tail -6
echo "== DGEMM bulk, 16 consumer warps of 32 x 32"

for o in "" "-DWM=32 -DWN=32" "-DWM=32 -DWN=32 -DPRODUCERS=2"; do
  echo "-- bulk [$o]"
  timeout 60 $B/bench/amp-bench --workload matmul --impl bulk --types double --sizes 4096,8192 --repeats 3 ${o:+--fast-opts "$o"} 2>&1 | grep -E "kernel|rror" | sed "s/, end to end.*ms,/,/"
done
