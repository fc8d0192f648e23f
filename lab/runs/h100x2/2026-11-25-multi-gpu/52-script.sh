#!/usr/bin/env bash
# run 52: issue 17 part 4, several GPUs end to end: add-exp split over every GPU and the matmul
# row split with the fast kernel (fast-multi) and amp_blas_gemm (gemm-multi) against one GPU, from
# malloc'd and from pinned memory; each GPU's link alone and both at once (amp-transfer)
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j32 --target amp-bench amp-transfer amp-info 2>&1 | grep -E "error|warning"
nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.current,pcie.link.width.current,clocks.max.sm --format=csv
nvidia-smi topo -m 2>&1 | head -8
nproc; free -g | head -2
$B/examples/amp-info 2>&1 | head -24
ab=$B/bench/amp-bench; at=$B/bench/amp-transfer
echo "== the links: each alone, then both at once"
for g in 0 1; do timeout 120 $at --accelerator ocl/nvidia-cuda/$g --mib 1024 --repeats 5 2>&1 | grep -E "raw|view|accelerator"; done
( timeout 120 $at --accelerator ocl/nvidia-cuda/0 --mib 1024 --repeats 9 > /tmp/t0.txt 2>&1 & timeout 120 $at --accelerator ocl/nvidia-cuda/1 --mib 1024 --repeats 9 > /tmp/t1.txt 2>&1; wait )
echo "-- gpu 0 while gpu 1 also copies"; grep -E "raw|view" /tmp/t0.txt
echo "-- gpu 1 while gpu 0 also copies"; grep -E "raw|view" /tmp/t1.txt
echo "== add-exp, malloc'd"
timeout 300 $ab --workload addexp --impl fast,multi --sizes 2^28,2^30 --repeats 5 2>&1 | grep -vE "^Table (A3|B)" | sed -n '1,200p'
echo "== add-exp, pinned"
timeout 300 $ab --workload addexp --impl fast,multi --sizes 2^28,2^30 --repeats 5 --pinned 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror|host data"
echo "== matmul, malloc'd"
timeout 420 $ab --workload matmul --impl fast,fast-multi,gemm,gemm-multi --types float,double --sizes 8192,16384 --repeats 3 --seq-max 1 2>&1 | grep -vE "^Table (A3|B)"
