#!/usr/bin/env python3
"""bench/cuda_reference.py: the CUDA numbers amp-bench's OpenCL numbers are compared with.

Runs on an NVIDIA GPU with CuPy (and NumPy). Measures, with CUDA events, the median of
--repeats runs after --warmup runs:

  gemm     cuBLAS SGEMM (FP32, TF32 off) and DGEMM through cupy.matmul at 512..8192
           (--big adds 16384); GFLOP/s = 2 n^3 / time. TF32 is switched off with CUPY_TF32=0
           before CuPy is imported, and checked twice: the cuBLAS handle's math mode, and the
           error of a 1024^3 SGEMM against a float64 product (TF32 would be ~1000x worse).
           With --tf32: cuBLAS SGEMM in its TF32 mode instead (CUPY_TF32=1, checked by that
           error), float only, each size's error against float64 in the note: the reference
           for amp-bench's tf32 column (AMP_GEMM_ALLOW_TF32).
  copy     device-to-device copy of 2^28 floats (1 GiB); GB/s counts bytes read + written.
  addexp   result = first + exp(second) over n floats, a cupy.RawKernel built with
           -use_fast_math (__expf), n = 2^20..2^28; GB/s = 12 n / time.
  nbody    the tiled all-pairs kernel of kernels_cl/examples/nbody.cl (nbody_tiled) in CUDA: 256-body
           shared-memory tile, rsqrtf, -use_fast_math, softening 0.01 added to r^2, same update;
           10,240 and 262,144 bodies; interactions/s = n^2 steps / time, and steps/s.

  algorithms  the CuPy counterparts of amp-bench --algorithms at n = --algo-n (2^28) elements,
           GB/s counting the same bytes as amp-bench: cupy.sum of floats (4n), cupy.cumsum of
           int32 (8n), a transpose copy of a sqrt(n) x sqrt(n) float matrix
           (cupy.ascontiguousarray(a.T), 8n), cupy.bincount of uint32 values into 256 bins (4n,
           values outside dropped as amp_histogram does), cupy.sort and cupy.argsort of 2^26
           uint32 keys (Gkeys/s; argsort is CUB's pair sort), copy_if as xf[xf > 0] of floats in
           [-1, 1) and unique as a mask of u[i] != u[i-1] over sorted ints (4n + 4k bytes),
           and the 7 x 7 Gaussian with cupyx.scipy.ndimage.correlate (mode 'nearest'), with the
           device copy at the same n as the bound.

Every result is checked (GEMM against NumPy on a sample of rows, add-exp against NumPy, n-body
one step against a float64 sum on a sample of bodies); a failed check exits non-zero.

Usage: python3 bench/cuda_reference.py --csv out.csv [--repeats 5] [--warmup 2] [--big]
       [--only gemm,copy,addexp,nbody,algorithms] [--algo-n 268435456]
       [--gemm-sizes 1000,1024,3000] [--gemm-types float,double] [--tf32]
"""
import argparse
import csv
import os
import sys

# before cupy is imported: FP32 GEMM stays FP32, unless --tf32 asks for cuBLAS's TF32 mode
TF32 = "--tf32" in sys.argv[1:]
os.environ["CUPY_TF32"] = "1" if TF32 else "0"

try:
    import numpy as np
    import cupy as cp
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.exit("cuda_reference.py needs NumPy and CuPy with a CUDA GPU (%s).\n"
             "Install e.g. `pip install cupy-cuda12x`, or run it on the GPU machine." % e)

SOFTENING2 = 0.01
NBODY_TILE = 256

ADD_EXP_SRC = r"""
extern "C" __global__ void add_exp(const float *first, const float *second, float *result,
                                   long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    result[i] = first[i] + expf(second[i]);  /* __expf under -use_fast_math */
}
"""

NBODY_SRC = r"""
#define TILE %(tile)d
#define SOFTENING2 %(soft).9ff
struct particle { float4 position, velocity; };

extern "C" __global__ void nbody_tiled(const particle *previous, particle *next, int n,
                                       float delta_time, float particle_mass) {
  __shared__ float4 cache[TILE];
  const int i = blockIdx.x * TILE + threadIdx.x, l = threadIdx.x;
  const bool mine = i < n;  /* threads of the padding compute nothing, but join every barrier */
  const float4 pos = mine ? previous[i].position : make_float4(0.f, 0.f, 0.f, 0.f);
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (int base = 0; base < n; base += TILE) {
    const int j = base + l;
    cache[l] = j < n ? previous[j].position : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    const int count = min(TILE, n - base);
#pragma unroll 8
    for (int t = 0; t < count; t++) {
      const float4 q = cache[t];
      const float dx = q.x - pos.x, dy = q.y - pos.y, dz = q.z - pos.z;
      const float r2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
      const float inv = rsqrtf(r2);
      const float s = particle_mass * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  if (mine) {
    particle p = previous[i];
    p.velocity.x += ax * delta_time;
    p.velocity.y += ay * delta_time;
    p.velocity.z += az * delta_time;
    p.position.x += p.velocity.x * delta_time;
    p.position.y += p.velocity.y * delta_time;
    p.position.z += p.velocity.z * delta_time;
    next[i] = p;
  }
}
""" % {"tile": NBODY_TILE, "soft": SOFTENING2}


def time_ms(fn, repeats, warmup):
    """Median, min and max of fn()'s GPU time in ms, from CUDA events around each call."""
    for _ in range(warmup):
        fn()
    cp.cuda.Device().synchronize()
    times = []
    start, end = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(repeats):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    return float(np.median(times)), min(times), max(times)


class Results:
    def __init__(self):
        self.rows = []
        self.failed = []

    def add(self, bench, impl, dtype, size, t, metric, value, extra=""):
        med, lo, hi = t
        self.rows.append(dict(bench=bench, impl=impl, type=dtype, size=size, ms_median=med,
                              ms_min=lo, ms_max=hi, metric=metric, value=value, note=extra))
        print("%-7s %-26s %-6s %10d %12.4f ms  [%.4f - %.4f]  %12.2f %s %s" %
              (bench, impl, dtype, size, med, lo, hi, value, metric, extra), flush=True)

    def fail(self, what):
        print("FAILED: " + what, file=sys.stderr, flush=True)
        self.failed.append(what)


def sgemm_1024_error():
    """Largest error of a 1024^3 cupy.matmul in float against float64, over C's largest element."""
    n = 1024
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    c = cp.asnumpy(cp.matmul(cp.asarray(a), cp.asarray(b)))
    ref = a.astype(np.float64) @ b.astype(np.float64)
    return float(np.max(np.abs(c - ref)) / np.max(np.abs(ref)))


def check_tf32_off(res):
    handle = cp.cuda.device.get_cublas_handle()
    mode = None
    try:
        mode = cp.cuda.cublas.getMathMode(handle)
    except Exception as e:  # older CuPy: rely on the numerical check below
        print("note: cannot read the cuBLAS math mode (%s)" % e)
    rel = sgemm_1024_error()
    print("cuBLAS math mode %s (0 = CUBLAS_DEFAULT_MATH; 3 would be TF32); SGEMM 1024 relative "
          "error vs float64: %.3g (FP32 ~1e-6, TF32 ~1e-3)" % (mode, rel))
    if rel > 1e-4 or mode not in (None, 0, 2):  # 2: CUBLAS_PEDANTIC_MATH, also FP32
        res.fail("TF32 seems to be on (math mode %s, relative error %.3g)" % (mode, rel))


def check_tf32_on(res):
    rel = sgemm_1024_error()
    print("CUPY_TF32=1: SGEMM 1024 relative error vs float64: %.3g (TF32 ~1e-4 to 1e-3)" % rel)
    if rel < 1e-5:
        res.fail("TF32 did not take effect (relative error %.3g)" % rel)


def bench_gemm(args, res):
    if args.tf32:
        check_tf32_on(res)
    else:
        check_tf32_off(res)
    if args.gemm_sizes:
        sizes = [int(x) for x in args.gemm_sizes.split(",")]
    else:
        sizes = [512, 1024, 2048, 4096, 8192] + ([16384] if args.big else [])
    for dtype, eps in ((np.float32, 1.1920929e-07), (np.float64, 2.220446049250313e-16)):
        tname = "float" if dtype == np.float32 else "double"
        if tname not in args.gemm_types.split(",") or (args.tf32 and tname != "float"):
            continue
        for n in sizes:
            rng = cp.random.RandomState(1)
            a = rng.uniform(-1, 1, (n, n)).astype(dtype)
            b = rng.uniform(-1, 1, (n, n)).astype(dtype)
            c = cp.empty((n, n), dtype=dtype)
            t = time_ms(lambda: cp.matmul(a, b, out=c), args.repeats, args.warmup)
            # check 16 rows against NumPy in float64 (tolerance 4 k eps, as amp-bench)
            rows = np.linspace(0, n - 1, 16).astype(np.int64)
            ref = cp.asnumpy(a[rows]).astype(np.float64) @ cp.asnumpy(b).astype(np.float64)
            err = float(np.max(np.abs(cp.asnumpy(c[rows]) - ref)))
            tol = (2.0 ** -10 * n if args.tf32 else 0) + 4 * n * eps  # TF32: as amp-bench
            if not err <= tol:
                res.fail("gemm %s %d: error %.3g > %.3g" % (tname, n, err, tol))
            name = ("cuBLAS SGEMM (TF32)" if args.tf32 else "cuBLAS SGEMM (FP32)") \
                if dtype == np.float32 else "cuBLAS DGEMM"
            note = "error against FP64 %.3g of C's largest element (16 rows)" % (
                err / float(np.max(np.abs(ref))))
            res.add("gemm", name, tname, n, t, "GFLOP/s", 2.0 * n ** 3 / (t[0] * 1e-3) / 1e9, note)
            del a, b, c
            cp.get_default_memory_pool().free_all_blocks()


def bench_copy(args, res):
    n = 1 << 28
    src = cp.ones(n, dtype=cp.float32)
    dst = cp.empty_like(src)
    nbytes = src.nbytes
    t = time_ms(lambda: dst.data.copy_from_device(src.data, nbytes), args.repeats, args.warmup)
    if not bool(cp.all(dst == 1)):
        res.fail("copy: destination differs")
    res.add("copy", "device-to-device memcpy", "float", n, t, "GB/s (read+write)",
            2.0 * nbytes / (t[0] * 1e-3) / 1e9)
    del src, dst
    cp.get_default_memory_pool().free_all_blocks()


def bench_addexp(args, res):
    kernel = cp.RawKernel(ADD_EXP_SRC, "add_exp", options=("-use_fast_math",))
    for e in (20, 22, 24, 26, 28):
        n = 1 << e
        rng = cp.random.RandomState(3)
        first = rng.uniform(-1, 1, n).astype(cp.float32)
        second = rng.uniform(-1, 1, n).astype(cp.float32)
        result = cp.empty_like(first)
        block = 256
        grid = (n + block - 1) // block
        t = time_ms(lambda: kernel((grid,), (block,), (first, second, result, np.int64(n))),
                    args.repeats, args.warmup)
        ref = cp.asnumpy(first).astype(np.float64) + np.exp(cp.asnumpy(second).astype(np.float64))
        got = cp.asnumpy(result)
        bad = np.abs(got - ref) > 1e-4 * np.abs(ref) + 1e-6
        if bad.any() or np.isnan(got).any():
            res.fail("addexp %d: %d elements wrong" % (n, int(bad.sum())))
        res.add("addexp", "RawKernel (-use_fast_math)", "float", n, t, "GB/s",
                12.0 * n / (t[0] * 1e-3) / 1e9)
        del first, second, result
        cp.get_default_memory_pool().free_all_blocks()


def nbody_initial(n):
    """Bodies uniform in a cube of side cbrt(n) (as amp-bench), small random velocities."""
    rng = np.random.default_rng(5)
    p = np.zeros((n, 8), dtype=np.float32)
    side = np.float32(np.cbrt(n))
    p[:, 0:3] = 0.5 * side * rng.uniform(-1, 1, (n, 3))
    p[:, 3] = 1.0
    p[:, 4:7] = 0.1 * rng.uniform(-1, 1, (n, 3))
    return p


def bench_nbody(args, res):
    kernel = cp.RawKernel(NBODY_SRC, "nbody_tiled", options=("-use_fast_math",))
    dt, mass = np.float32(1e-3), np.float32(1.0)
    for n in (10240, 262144):
        host = nbody_initial(n)
        cur, nxt = cp.asarray(host), cp.empty((n, 8), dtype=cp.float32)
        grid = (n + NBODY_TILE - 1) // NBODY_TILE
        state = {"cur": cur, "nxt": nxt}

        def steps():
            for _ in range(args.steps):
                kernel((grid,), (NBODY_TILE,), (state["cur"], state["nxt"], np.int32(n), dt, mass))
                state["cur"], state["nxt"] = state["nxt"], state["cur"]

        t = time_ms(steps, args.repeats, args.warmup)
        # check: one step from the initial state, 64 bodies, against a float64 sum
        cur = cp.asarray(host)
        kernel((grid,), (NBODY_TILE,), (cur, nxt, np.int32(n), dt, mass))
        got = cp.asnumpy(nxt)
        pos = host[:, 0:3].astype(np.float64)
        for i in np.linspace(0, n - 1, 64).astype(np.int64):
            d = pos - pos[i]
            r2 = np.sum(d * d, axis=1) + SOFTENING2
            terms = d * (float(mass) / (r2 * np.sqrt(r2)))[:, None]
            a = terms.sum(axis=0)
            v = host[i, 4:7] + a * float(dt)
            tol = float(dt) * (1e-3 * np.linalg.norm(a) + 1e-5 *
                               np.sum(np.linalg.norm(terms, axis=1))) + 1e-6 * np.linalg.norm(v)
            if not np.linalg.norm(got[i, 4:7] - v) <= tol:
                res.fail("nbody %d: body %d velocity %s, expected %s" % (n, i, got[i, 4:7], v))
                break
        per_s = t[0] * 1e-3
        res.add("nbody", "tiled RawKernel (rsqrtf)", "float", n, t, "Ginteractions/s",
                float(n) * n * args.steps / per_s / 1e9, "%.2f steps/s" % (args.steps / per_s))


def bench_algorithms(args, res):
    n = args.algo_n
    idx = cp.arange(n, dtype=cp.uint64)
    h = ((idx * 2654435761) & 0xFFFFFFFF).astype(cp.uint32)
    del idx
    xf = cp.random.default_rng(42).random(n, dtype=cp.float32) * 2 - 1
    dst = cp.empty_like(xf)
    t = time_ms(lambda: dst.data.copy_from_device(xf.data, xf.nbytes), args.repeats, args.warmup)
    copy = 8.0 * n / (t[0] * 1e-3) / 1e9
    res.add("algo", "copy (memcpy D2D)", "float", n, t, "GB/s", copy, "vs copy 1.00")
    del dst

    def add(impl, dtype, size, t, nbytes):
        gbps = nbytes / (t[0] * 1e-3) / 1e9
        res.add("algo", impl, dtype, size, t, "GB/s", gbps, "vs copy %.2f" % (gbps / copy))

    want = float(cp.asnumpy(xf).astype(np.float64).sum())
    got = float(cp.sum(xf))
    if abs(got - want) > 1e-5 * n + 1e-3:
        res.fail("cupy.sum: %g vs %g" % (got, want))
    add("reduce cupy.sum", "float", n, time_ms(lambda: cp.sum(xf), args.repeats, args.warmup),
        4.0 * n)

    xi = (h >> 29).astype(cp.int32) - 3
    out = cp.empty_like(xi)
    cp.cumsum(xi, dtype=cp.int32, out=out)
    ref = np.cumsum(cp.asnumpy(xi), dtype=np.int32)
    if not np.array_equal(cp.asnumpy(out), ref):
        res.fail("cupy.cumsum differs from numpy")
    add("scan cupy.cumsum", "int", n,
        time_ms(lambda: cp.cumsum(xi, dtype=cp.int32, out=out), args.repeats, args.warmup), 8.0 * n)
    del xi, out, ref

    side = int(np.sqrt(n))
    a = xf[: side * side].reshape(side, side)
    b = cp.empty((side, side), dtype=cp.float32)

    def transpose():
        b[...] = a.T  # one elementwise copy kernel through a transposed view
    transpose()
    if not bool(cp.all(b[:64, :64] == a[:64, :64].T)):
        res.fail("transpose copy differs")
    add("transpose copy (a.T)", "float", side * side,
        time_ms(transpose, args.repeats, args.warmup), 8.0 * side * side)
    del a, b, xf

    xu = (h >> 16) % 264
    def hist():
        return cp.bincount(xu, minlength=264)[:256]
    got = cp.asnumpy(hist())
    ref = np.bincount(cp.asnumpy(xu), minlength=264)[:256]
    if not np.array_equal(got, ref):
        res.fail("cupy.bincount differs from numpy")
    add("histogram cupy.bincount", "uint", n, time_ms(hist, args.repeats, args.warmup), 4.0 * n)
    del xu, h
    cp.get_default_memory_pool().free_all_blocks()

    m = 1 << 26
    keys = (cp.arange(m, dtype=cp.uint64) * 2654435761 & 0xFFFFFFFF).astype(cp.uint32)
    srt = cp.sort(keys)
    if not bool(cp.all(srt[1:] >= srt[:-1])):
        res.fail("cupy.sort: not sorted")
    t = time_ms(lambda: cp.sort(keys), args.repeats, args.warmup)
    res.add("algo", "sort cupy.sort (keys)", "uint", m, t, "Gkeys/s", m / (t[0] * 1e-3) / 1e9)
    order = cp.argsort(keys)  # CUB's pair sort: uint32 keys with int64 positions
    if not bool(cp.all(keys[order] == srt)):
        res.fail("cupy.argsort: keys[order] is not sorted")
    t = time_ms(lambda: cp.argsort(keys), args.repeats, args.warmup)
    res.add("algo", "sort_by_key cupy.argsort", "uint", m, t, "Gkeys/s",
            m / (t[0] * 1e-3) / 1e9)
    del keys, srt, order
    cp.get_default_memory_pool().free_all_blocks()

    # copy_if: the elements > 0 of n floats in [-1, 1) (about half), as amp-bench's copy_if row;
    # bytes counted: 4n read + 4k written
    xf = cp.random.default_rng(42).random(n, dtype=cp.float32) * 2 - 1
    kept = xf[xf > 0]
    k = int(kept.size)
    if k != int(cp.count_nonzero(xf > 0)) or not bool(cp.all(kept > 0)):
        res.fail("copy_if xf[xf > 0] differs")
    add("copy_if xf[xf > 0]", "float", n, time_ms(lambda: xf[xf > 0], args.repeats, args.warmup),
        4.0 * n + 4.0 * k)
    del kept
    # unique on sorted ints with runs of 3 (amp-bench's unique row): bytes 4n + 4k
    u = cp.arange(n, dtype=cp.int32) // 3

    def uniq():
        mask = cp.empty(n, dtype=cp.bool_)
        mask[0] = True
        cp.not_equal(u[1:], u[:-1], out=mask[1:])
        return u[mask]
    got = uniq()
    if int(got.size) != (n + 2) // 3 or not bool(cp.all(got == cp.arange(got.size, dtype=cp.int32))):
        res.fail("unique by mask differs")
    add("unique u[mask] (sorted, runs of 3)", "int", n, time_ms(uniq, args.repeats, args.warmup),
        4.0 * n + 4.0 * int(got.size))
    del u, got
    # the 7 x 7 Gaussian (sigma 1, clamped edges) on a sqrt(n) x sqrt(n) image: 8 bytes a pixel
    try:
        import cupyx.scipy.ndimage as ndi
        side = int(np.sqrt(n))
        img = xf[: side * side].reshape(side, side)
        g = np.exp(-np.add.outer(np.arange(-3, 4) ** 2, np.arange(-3, 4) ** 2) / 2.0)
        w = cp.asarray((g / g.sum()).astype(np.float32))
        outi = cp.empty_like(img)
        ndi.correlate(img, w, output=outi, mode="nearest")
        crop = cp.asnumpy(img[:32, :32]).astype(np.float64)
        pad = np.pad(crop, 3, mode="edge")
        ref = sum(g[a, b] / g.sum() * pad[a:a + 32, b:b + 32] for a in range(7) for b in range(7))
        if np.max(np.abs(cp.asnumpy(outi[:29, :29]) - ref[:29, :29])) > 1e-5:
            res.fail("ndimage.correlate differs from numpy")
        add("stencil 7x7 ndimage.correlate", "float", side * side,
            time_ms(lambda: ndi.correlate(img, w, output=outi, mode="nearest"), args.repeats,
                    args.warmup), 8.0 * side * side)
        del img, outi
    except ImportError as e:  # pragma: no cover - depends on the install
        print("stencil: cupyx.scipy.ndimage not available (%s)" % e)
    del xf
    cp.get_default_memory_pool().free_all_blocks()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", help="write the results as CSV")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--steps", type=int, default=10, help="n-body steps per timed run")
    ap.add_argument("--big", action="store_true", help="also GEMM at 16384")
    ap.add_argument("--gemm-sizes", help="comma-separated GEMM sizes (default 512..8192)")
    ap.add_argument("--gemm-types", default="float,double", help="float,double or one of them")
    ap.add_argument("--tf32", action="store_true",
                    help="gemm: cuBLAS SGEMM in TF32 mode (CUPY_TF32=1) instead of FP32, float only")
    ap.add_argument("--only", default="gemm,copy,addexp,nbody,algorithms",
                    help="comma-separated subset of gemm,copy,addexp,nbody,algorithms")
    ap.add_argument("--algo-n", type=int, default=1 << 28,
                    help="elements for the algorithms (default 2^28)")
    args = ap.parse_args()

    dev = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    print("cuda_reference.py: %s, CUDA runtime %d, CuPy %s, CUPY_TF32=%s" %
          (name, cp.cuda.runtime.runtimeGetVersion(), cp.__version__, os.environ["CUPY_TF32"]))
    print("median of %d after %d warm-up, CUDA events\n" % (args.repeats, args.warmup))

    res = Results()
    todo = args.only.split(",")
    for key, fn in (("gemm", bench_gemm), ("copy", bench_copy), ("addexp", bench_addexp),
                    ("nbody", bench_nbody), ("algorithms", bench_algorithms)):
        if key in todo:
            fn(args, res)

    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["bench", "impl", "type", "size", "ms_median",
                                              "ms_min", "ms_max", "metric", "value", "note",
                                              "device"])
            w.writeheader()
            for row in res.rows:
                w.writerow(dict(row, device=name))
        print("\nwrote " + args.csv)
    if res.failed:
        print("%d check(s) FAILED" % len(res.failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
