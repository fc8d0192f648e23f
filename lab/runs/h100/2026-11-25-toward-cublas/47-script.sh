#!/usr/bin/env bash
# run 47: the SASS of nbody_pairs (BPT=8) and its instruction mix; two more shapes
export PATH=$PATH:/usr/local/cuda/bin
B=build-gpu
FM="-cl-fast-relaxed-math -cl-denorms-are-zero"
/tmp/ptxdump kernels_cl/nbody_pairs.cl "-DBPT=8 $FM" /tmp/pairs.bin || gcc -O2 -o /tmp/ptxdump exp/ptx_dump.c -lOpenCL
/tmp/ptxdump kernels_cl/nbody_pairs.cl "-DBPT=8 $FM" /tmp/pairs.bin
tr -d '\000' < /tmp/pairs.bin > /tmp/pairs.ptx
ptxas -arch=sm_90 -v -o /tmp/pairs.cubin /tmp/pairs.ptx 2>&1 | tail -2
cuobjdump -sass /tmp/pairs.cubin > $OUT/pairs-sass.txt
echo "== whole nbody_pairs, by opcode"
awk '/Function : nbody_pairs$/{f=1} /Function : nbody_pairs_advance/{f=0} f' $OUT/pairs-sass.txt | grep -oE "^ +/\*[0-9a-f]{4}\*/ +(@!?U?P[0-9T] +)?[A-Z0-9_.]+" | awk '{op=$NF; split(op,a,"."); print a[1]}' | sort | uniq -c | sort -rn | head -20
for o in "-DBPT=8 -DCHUNK=2" "-DBPT=6 -DCHUNK=4" "-DBPT=8 -DCHUNK=4"; do
  echo "-- pairs [$o]"
  timeout 60 $B/bench/amp-bench --workload nbody --impl pairs --sizes 262144 --steps 2 --repeats 3 --fast-opts "$o $FM" 2>&1 | grep -E "kernel|FAIL|rror"
done
