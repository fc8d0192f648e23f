#!/usr/bin/env bash
# run 58: matmul_fast step 12 candidate, warp tiles (-DWARP_TILE=1: a warp's 32 threads as 4 x 8 over
# a 32 x 64 block of C, so its tile_static reads of B touch 128 bytes, not 256); float K 32 and the
# double shape, each beside WARP_TILE=0 in the same run; the FP64 fma ceiling from registers with the
# SM clock sampled; cuBLAS SGEMM and DGEMM (default and pedantic math) in the same run
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench ptx-probe test_kernels_matmul 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
echo "== GPU test of the matmul kernels"
AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0 timeout 120 $B/tests/test_kernels_matmul 2>&1 | grep -E "warp|passed|FAIL" | head -20
gcc -O2 -x c -o /tmp/regs docs/perf/h100/2026-11-25/cublas/28-regs.c.txt -lOpenCL
D="-DT=double -DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
/tmp/regs kernels_cl/matmul_fast.cl "-DTS_K=32" "-DTS_K=32 -DWARP_TILE=1" "$D" "$D -DWARP_TILE=1" 2>&1 | grep -E "^==|Used|spill"
for o in 0 1 0 1; do
  echo "-- float K32 [WARP_TILE=$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 4096,8192 --repeats 5 --fast-opts "-DTS_K=32 -DWARP_TILE=$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
for o in 0 1; do
  echo "-- float 64x128 8x4 at 1000,1024 [WARP_TILE=$o]"; timeout 60 $ab --workload matmul --impl fast --types float --sizes 1000,1024 --repeats 5 --fast-opts "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4 -DWARP_TILE=$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
D="-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
for o in "$D -DWARP_TILE=0" "$D -DWARP_TILE=1" "$D -DWARP_TILE=0" "$D -DWARP_TILE=1" \
         "-DTS_M=128 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2 -DWARP_TILE=1" \
         "-DTS_M=128 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DWARP_TILE=1" \
         "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DWARP_TILE=1"; do
  echo "-- double [$o]"; timeout 60 $ab --workload matmul --impl fast --types double --sizes 4096,8192 --repeats 3 --fast-opts "$o" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
done
echo "== FP64 fma from registers, SM clock sampled every 100 ms"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/58-clocks.csv &
SMI=$!
sleep 0.5
timeout 60 $B/bench/ptx-probe 2>&1 | grep -E "pfma|p1688 |p884"
timeout 60 $ab --workload matmul --impl fast --types double --sizes 8192 --repeats 5 --fast-opts "$D" 2>&1 | grep -E "kernel|FAIL|rror" | sed "s/, end to end.*ms,/,/"
kill $SMI
timeout 150 python3 bench/cuda_reference.py --only gemm --gemm-sizes 4096,8192 --gemm-types float,double --repeats 5 2>&1 | grep -E "GEMM"
python3 - <<'PY'
# cuBLAS DGEMM with CUBLAS_PEDANTIC_MATH (2): does it leave the FP64 tensor cores?
import cupy as cp
h = cp.cuda.device.get_cublas_handle()
cp.cuda.cublas.setMathMode(h, 2)
print("math mode", cp.cuda.cublas.getMathMode(h))
for n in (4096, 8192):
    a = cp.random.rand(n, n); b = cp.random.rand(n, n)
    for _ in range(2): c = a @ b
    s, e = cp.cuda.Event(), cp.cuda.Event(); ts = []
    for _ in range(5):
        s.record(); c = a @ b; e.record(); e.synchronize(); ts.append(cp.cuda.get_elapsed_time(s, e))
    ts.sort(); print("DGEMM pedantic %d: %.2f ms, %.1f TFLOP/s" % (n, ts[2], 2 * n**3 / ts[2] / 1e9))
PY
