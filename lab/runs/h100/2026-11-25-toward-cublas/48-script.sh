#!/usr/bin/env bash
# run 48: nbody_pairs with J's sums kept as +d f (no negated d: 3 FADD a pair fewer), test, SASS,
# amp-bench beside the CUDA tiled kernel in the same run
export PATH=$PATH:/usr/local/cuda/bin
B=build-gpu
FM="-cl-fast-relaxed-math -cl-denorms-are-zero"
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench test_kernels_nbody test_kernel_atomics 2>&1 | grep -E "error|warning"
echo "== tests on the default accelerator"
$B/tests/test_kernels_nbody 2>&1 | grep -E "pairs .*n=1031|MISMATCH|passed|failed" | head -20
$B/tests/test_kernel_atomics 2>&1 | grep -E "passed|failed"
gcc -O2 -o /tmp/ptxdump exp/ptx_dump.c -lOpenCL
/tmp/ptxdump kernels_cl/nbody_pairs.cl "-DBPT=8 $FM" /tmp/pairs.bin
tr -d '\000' < /tmp/pairs.bin > /tmp/pairs.ptx
ptxas -arch=sm_90 -v -o /tmp/pairs.cubin /tmp/pairs.ptx 2>&1 | grep Used
cuobjdump -sass /tmp/pairs.cubin > $OUT/pairs-sass.txt
echo "== amp-bench"
ab=$B/bench/amp-bench
timeout 90 $ab --workload nbody --impl tiled,fast,pairs --sizes 10240,262144 --steps 2 --repeats 3 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror"
for o in "-DBPT=8 -DCHUNK=2" "-DBPT=8 -DCHUNK=4" "-DBPT=4 -DCHUNK=8"; do
  echo "-- pairs [$o]"
  timeout 60 $ab --workload nbody --impl pairs --sizes 262144 --steps 2 --repeats 3 --fast-opts "$o $FM" 2>&1 | grep -E "kernel|FAIL|rror"
done
echo "== CUDA tiled n-body"
timeout 90 python3 bench/cuda_reference.py --only nbody --steps 2 --repeats 3 2>&1 | tail -4
