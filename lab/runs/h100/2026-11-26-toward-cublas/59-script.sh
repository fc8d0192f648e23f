#!/usr/bin/env bash
# run 59: which kernel cuBLAS runs for SGEMM and DGEMM (names and launch shapes from the PyTorch
# profiler), and whether Nsight Compute is there to show where matmul_fast's cycles go
B=build-gpu
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build $B -j16 --target amp-bench 2>&1 | grep -E "error|warning"
ab=$B/bench/amp-bench
echo "== tools"; for t in ncu nsys nvdisasm cuobjdump; do printf "%s: %s\n" $t "$(command -v $t || ls /usr/local/cuda*/bin/$t 2>/dev/null | head -1)"; done
python3 - <<'PY'
import torch
from torch.profiler import profile, ProfilerActivity
torch.backends.cuda.matmul.allow_tf32 = False
for dt in (torch.float32, torch.float64):
    for n in (4096, 8192):
        a = torch.rand(n, n, device="cuda", dtype=dt); b = torch.rand(n, n, device="cuda", dtype=dt)
        for _ in range(2): c = a @ b
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as p:
            c = a @ b; torch.cuda.synchronize()
        for e in p.events():
            if e.device_type.name == "CUDA":
                print(dt, n, e.name[:160], "%.3f ms" % (e.device_time_total / 1000 if hasattr(e, "device_time_total") else e.cuda_time_total / 1000))
PY
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ]; then
  echo "== ncu on matmul_fast (float 4096, K 32)"
  timeout 200 $NCU --target-processes all --kernel-name regex:matmul_fast --launch-count 1 --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis --section LaunchStats --section Occupancy \
    $ab --workload matmul --impl fast --types float --sizes 4096 --repeats 1 --fast-opts "-DTS_K=32" 2>&1 | grep -vE "^\s*$" | tail -80
  echo "== ncu on cuBLAS SGEMM 4096"
  cat > /tmp/sg.py <<'PY'
import cupy as cp
n = 4096; a = cp.random.rand(n, n, dtype=cp.float32); b = cp.random.rand(n, n, dtype=cp.float32)
c = a @ b; cp.cuda.Device().synchronize()
PY
  timeout 200 $NCU --target-processes all --kernel-name regex:gemm --launch-count 1 --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis --section LaunchStats --section Occupancy python3 /tmp/sg.py 2>&1 | grep -vE "^\s*$" | tail -80
fi
