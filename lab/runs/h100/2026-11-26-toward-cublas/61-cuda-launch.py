"""throwaway (run 61): launch the PTX that NVIDIA's OpenCL compiler made of matmul_fast through the
CUDA driver API, so that Nsight Compute (which does not see OpenCL launches) can profile the very
same code. Checks C against cuBLAS, prints the kernel time.
usage: 61-cuda-launch.py PTX float|double N TS_M TS_N RTS_M RTS_N [KERNEL] (run 67: the kernel's
name, matmul_fast unless given)"""
import ctypes, sys
import numpy as np
import cupy as cp

ptx, ty, n, tsm, tsn, rtm, rtn = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:8])
kname = sys.argv[8].encode() if len(sys.argv) > 8 else b"matmul_fast"
dt = np.float32 if ty == "float" else np.float64
cuda = ctypes.CDLL("libcuda.so.1")
cp.cuda.runtime.free(0)  # the primary context, current


def ok(r, what):
    if r != 0:
        s = ctypes.c_char_p()
        cuda.cuGetErrorString(r, ctypes.byref(s))
        sys.exit("%s: %d %s" % (what, r, s.value))


log = ctypes.create_string_buffer(1 << 16)
opts = (ctypes.c_int * 2)(5, 6)  # CU_JIT_ERROR_LOG_BUFFER, _SIZE_BYTES
vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(1 << 16))
mod = ctypes.c_void_p()
src = open(ptx, "rb").read() + b"\0"
r = cuda.cuModuleLoadDataEx(ctypes.byref(mod), src, 2, opts, vals)
if r:
    print(log.value.decode())
ok(r, "cuModuleLoadDataEx")
fn = ctypes.c_void_p()
ok(cuda.cuModuleGetFunction(ctypes.byref(fn), mod, kname), "cuModuleGetFunction")
rng = np.random.default_rng(1)
a = cp.asarray(rng.uniform(-1, 1, (n, n)).astype(dt))
b = cp.asarray(rng.uniform(-1, 1, (n, n)).astype(dt))
c = cp.zeros((n, n), dt)


def shape(pos):  # extent, offset 0, row stride n, column stride 1, position, rank 2
    return np.array([n, n, 1, 0, n, 1, pos, 2], np.int32)


ptrs = [ctypes.c_uint64(x.data.ptr) for x in (a, b, c)]
shapes = [shape(i) for i in range(3)]
params = (ctypes.c_void_p * 6)()
for i in range(3):
    params[2 * i] = ctypes.cast(ctypes.byref(ptrs[i]), ctypes.c_void_p)
    params[2 * i + 1] = shapes[i].ctypes.data
gx, gy = (n + tsn - 1) // tsn, (n + tsm - 1) // tsm


def launch():
    ok(cuda.cuLaunchKernel(fn, gx, gy, 1, rtn, rtm, 1, 0, None, params, None), "cuLaunchKernel")


launch()
cp.cuda.Device().synchronize()
ref = a @ b
err = float(cp.max(cp.abs(c - ref)) / cp.max(cp.abs(ref)))
s, e = cp.cuda.Event(), cp.cuda.Event()
ts = []
for _ in range(5):
    s.record()
    launch()
    e.record()
    e.synchronize()
    ts.append(cp.cuda.get_elapsed_time(s, e))
ts.sort()
print("%s %d through CUDA: %.3f ms, %.1f TFLOP/s, error vs cuBLAS %.2g %s" %
      (ty, n, ts[2], 2 * n**3 / ts[2] / 1e9, err, "ok" if err < (1e-4 if dt == np.float32 else 1e-12) else "WRONG"))
