#!/usr/bin/env python3
"""lab/multi_gpu_cuda.py: what a CUDA user gets for add-exp split over 1, 2 and 4 GPUs of one
host, end to end from host memory (issue 34's reference for amp-bench --workload addexp --impl
multi, measured in the same call on the same machine).

c[i] = a[i] + exp(b[i]) for n floats: GPU g of G takes a contiguous share, in P pieces; each piece
goes in (a and b, host to device), runs, and comes back (c, device to host) on one of two streams
of its GPU, so piece p + 1's copies run under piece p's kernel. Every GPU is driven by a host
thread of its own (CuPy releases the GIL in its CUDA calls). Host memory is either pinned
(cupy.cuda.alloc_pinned_memory: the copies are the links' DMA) or pageable numpy arrays (the CUDA
driver stages them, as ampcl stages malloc'd memory). Times are wall clock from the first copy to
the last result in host memory, median of R after one warm-up; the result is checked against numpy
at every 4099th element.

    python3 lab/multi_gpu_cuda.py [--log2n 30] [--pieces 4] [--repeats 3] [--gpus 1,2,4]
                                  [--memory pinned,pageable] [--copies-only]

--copies-only moves the same bytes with no kernel (c's piece is a's, copied on the GPU at its own
memory's speed): what the links and the host's memory allow the split at best. Checked: c == a.
"""
import argparse

import cupy as cp
import numpy as np
from gpu_threads import timed_on_gpus

SRC = r"""
extern "C" __global__ void add_exp(const float *a, const float *b, float *c, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + __expf(b[i]);
}
"""


def pinned_array(n):
    mem = cp.cuda.alloc_pinned_memory(n * 4)
    return np.frombuffer(mem, np.float32, n)


def run(G, P, a, b, c, state, copies_only=False):
    """One end-to-end pass over G GPUs; returns seconds."""
    n = a.size

    def work(g, start):
        lo, hi = n * g // G, n * (g + 1) // G
        with cp.cuda.Device(g):
            st = state[g]
            start()
            for p in range(P):
                s = st["streams"][p % 2]
                p0, p1 = lo + (hi - lo) * p // P, lo + (hi - lo) * (p + 1) // P
                m = p1 - p0
                da, db, dc = (x[p % 2][:m] for x in (st["a"], st["b"], st["c"]))
                da.set(a[p0:p1], stream=s)
                db.set(b[p0:p1], stream=s)
                if copies_only:  # device to device: no link, no host memory
                    dc.data.copy_from_device_async(da.data, m * 4, stream=s)
                else:
                    st["k"]((int((m + 255) // 256),), (256,), (da, db, dc, np.int64(m)),
                            stream=s)
                dc.get(stream=s, out=c[p0:p1])
            for s in st["streams"]:
                s.synchronize()

    return timed_on_gpus(G, work)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log2n", type=int, default=30)
    ap.add_argument("--pieces", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--gpus", default="1,2,4")
    ap.add_argument("--memory", default="pinned,pageable")
    ap.add_argument("--copies-only", action="store_true")
    args = ap.parse_args()
    n, P = 1 << args.log2n, args.pieces
    counts = [int(x) for x in args.gpus.split(",") if int(x) <= cp.cuda.runtime.getDeviceCount()]
    print("CUDA %s over GPUs, n = 2^%d floats, %d pieces a GPU, %s, median of %d" %
          ("add-exp's copies only" if args.copies_only else "add-exp", args.log2n, P,
           cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), args.repeats))
    print("%-8s %5s %10s %10s %8s %s" % ("memory", "GPUs", "ms", "GB/s", "vs 1", "check"))
    for kind in args.memory.split(","):
        make = pinned_array if kind == "pinned" else (lambda k: np.empty(k, np.float32))
        a, b, c = make(n), make(n), make(n)
        rng = np.random.default_rng(3)
        a[:] = rng.uniform(-1, 1, n).astype(np.float32)
        b[:] = rng.uniform(-1, 1, n).astype(np.float32)
        base = None
        for G in counts:
            state = []
            for g in range(G):
                with cp.cuda.Device(g):
                    piece = (n // G + P - 1) // P + 1
                    state.append({
                        "streams": [cp.cuda.Stream(non_blocking=True) for _ in range(2)],
                        "a": [cp.empty(piece, cp.float32) for _ in range(2)],
                        "b": [cp.empty(piece, cp.float32) for _ in range(2)],
                        "c": [cp.empty(piece, cp.float32) for _ in range(2)],
                        "k": cp.RawKernel(SRC, "add_exp"),
                    })
            c[:] = np.nan
            run(G, P, a, b, c, state, args.copies_only)
            idx = np.arange(0, n, 4099)
            if args.copies_only:
                ok = bool(np.array_equal(c[idx], a[idx]))
            else:
                want = a[idx].astype(np.float64) + np.exp(b[idx].astype(np.float64))
                ok = bool(np.all(np.abs(c[idx] - want) <= 1e-5 * np.abs(want) + 1e-6))
            times = sorted(run(G, P, a, b, c, state, args.copies_only)
                           for _ in range(args.repeats))
            t = times[len(times) // 2]
            base = base or t
            print("%-8s %5d %10.1f %10.1f %7.2fx %s" %
                  (kind, G, t * 1e3, 12.0 * n / t / 1e9, base / t, "ok" if ok else "WRONG"),
                  flush=True)
            del state
            for g in range(G):
                with cp.cuda.Device(g):
                    cp.get_default_memory_pool().free_all_blocks()
        del a, b, c


if __name__ == "__main__":
    main()
