#!/bin/bash
# usage: mm.sh dev type cfg  -> prints min ms fast, openmp
cd /work/wt-cpu && . /work/main/.intel-ocl/env-both.sh && export POCL_CACHE_DIR=$PWD/build-rel/pocl-cache
dev=$1; t=$2; cfg=$3
if [ $t = float ]; then export MMCPU_F="$cfg"; else export MMCPU_D="$cfg"; fi
${BIN:-./build-rel/bench/amp-bench} --workload matmul --impl fast,openmp --sizes ${SZ:-1024} --types $t --repeats ${R:-5} --accelerator ocl/$dev/0 --csv /tmp/cpuw/mm.csv >/dev/null 2>/tmp/cpuw/mm.err
awk -F, -v c="$cfg" -v d=$dev -v t=$t 'NR>1{v[$2]=$8; s[$2]=$5} END{printf "%-12.12s %-6s fast %7.2f (%s) omp %7.2f ratio %.2f  [%s]\n", d, t, v["fast"], s["fast"], v["openmp"], v["openmp"]/v["fast"], c}' /tmp/cpuw/mm.csv
