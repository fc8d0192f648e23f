#!/usr/bin/env bash
# run 53: issue 17 part 4 after giving every accelerator's stager its own memcpy pool: add-exp split
# over both GPUs and the matmul row split (fast-multi, gemm-multi) against one GPU, from malloc'd
# and from pinned memory, each GPU's link alone and both at once (amp-transfer), one run
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j32 --target amp-bench amp-transfer amp-info test_staging 2>&1 | grep -E "error|warning"
nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.current,pcie.link.width.current,clocks.max.sm --format=csv
nproc
ab=$B/bench/amp-bench; at=$B/bench/amp-transfer
echo "== staging test, two GPUs (AMP_STAGING=force, small chunks)"
AMP_STAGING=force AMP_STAGING_CHUNK=300000 AMP_STAGING_THREADS=2 AMP_DEFAULT_ACCELERATOR=ocl/nvidia-cuda/0 $B/tests/test_staging 2>&1 | tail -2
echo "== the links: each alone, then both at once (GB/s)"
for g in 0 1; do echo "-- gpu $g alone"; timeout 120 $at --accelerator ocl/nvidia-cuda/$g --mib 1024 --repeats 5 2>&1 | grep -E "MiB|^ *[0-9]+ \|"; done
( timeout 120 $at --accelerator ocl/nvidia-cuda/0 --mib 1024 --repeats 9 > /tmp/t0.txt 2>&1 & timeout 120 $at --accelerator ocl/nvidia-cuda/1 --mib 1024 --repeats 9 > /tmp/t1.txt 2>&1; wait )
echo "-- gpu 0 while gpu 1 also copies"; grep -E "MiB|^ *[0-9]+ \|" /tmp/t0.txt
echo "-- gpu 1 while gpu 0 also copies"; grep -E "MiB|^ *[0-9]+ \|" /tmp/t1.txt
echo "== add-exp, malloc'd"
timeout 200 $ab --workload addexp --impl fast,multi --sizes 2^28,2^30 --repeats 5 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror|host data|multi split"
echo "== add-exp, pinned"
timeout 200 $ab --workload addexp --impl fast,multi --sizes 2^28,2^30 --repeats 5 --pinned 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror|host data"
echo "== add-exp 2^30, malloc'd, AMP_STAGING_THREADS=8"
AMP_STAGING_THREADS=8 timeout 120 $ab --workload addexp --impl fast,multi --sizes 2^30 --repeats 5 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror"
echo "== matmul, malloc'd"
timeout 300 $ab --workload matmul --impl fast,fast-multi,gemm,gemm-multi --types float,double --sizes 8192,16384 --repeats 3 --seq-max 1 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror|host data"
echo "== matmul 16384, pinned"
timeout 200 $ab --workload matmul --impl fast,fast-multi,gemm,gemm-multi --types float,double --sizes 16384 --repeats 3 --seq-max 1 --pinned 2>&1 | grep -E "\.\.\.|kernel|FAIL|rror|host data"
