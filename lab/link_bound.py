#!/usr/bin/env python3
"""lab/link_bound.py: how fast the host and the links of G GPUs move add-exp's bytes from pinned
memory with no kernel at all: the bound for a pinned split (issue 34).

For n floats split over G GPUs, GPU g moves its share of the inputs in (2 * 4 * n / G bytes, host
to device) and its share of the result out (4 * n / G bytes, device to host), in chunks of
--chunk MiB on --streams streams of its own (half for each direction), every GPU driven by a host
thread of its own, all starting together. Modes: "in" moves only the inputs, "out" only the
result, "both" both at once (what add-exp needs). Time: wall clock from the common start to the
last GPU done, median of R after one warm-up. GB/s counts the bytes the mode moves. Checked after
the warm-up, every 4099th byte: each GPU's inputs arrived, and its result (set to the start of its
input share beforehand) came back.

    python3 lab/link_bound.py [--log2n 30] [--gpus 1,2,4] [--modes in,out,both] [--streams 4]
                              [--chunk 64] [--repeats 5]
"""
import argparse
import ctypes

import cupy as cp
import numpy as np
from gpu_threads import timed_on_gpus


def pinned(nbytes):
    mem = cp.cuda.alloc_pinned_memory(nbytes)
    return np.frombuffer(mem, np.uint8, nbytes)


def run(G, mode, host_in, host_out, dev, streams, chunk):
    n_in, n_out = host_in.size // G, host_out.size // G

    def work(g, start):
        with cp.cuda.Device(g):
            d_in, d_out = dev[g]
            st = streams[g]
            half = max(1, len(st) // 2)
            ins = [("in", off, min(chunk, n_in - off)) for off in range(0, n_in, chunk)] \
                if mode in ("in", "both") else []
            outs = [("out", off, min(chunk, n_out - off)) for off in range(0, n_out, chunk)] \
                if mode in ("out", "both") else []
            # two chunks in, then one out, as add-exp moves them, so that both directions are busy
            order = []
            while ins or outs:
                order += ins[:2] + outs[:1]
                ins, outs = ins[2:], outs[1:]
            start()
            ni = no = 0
            for kind, off, m in order:
                if kind == "in":
                    s = st[ni % half]
                    ni += 1
                    d_in[off:off + m].data.copy_from_host_async(
                        ctypes.c_void_p(host_in.ctypes.data + g * n_in + off), m, stream=s)
                else:
                    s = st[half + no % max(1, len(st) - half)]
                    no += 1
                    d_out[off:off + m].data.copy_to_host_async(
                        ctypes.c_void_p(host_out.ctypes.data + g * n_out + off), m, stream=s)
            for s in st:
                s.synchronize()

    return timed_on_gpus(G, work)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log2n", type=int, default=30)
    ap.add_argument("--gpus", default="1,2,4")
    ap.add_argument("--modes", default="in,out,both")
    ap.add_argument("--streams", type=int, default=4)
    ap.add_argument("--chunk", type=int, default=64, help="MiB")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    n = 1 << args.log2n
    chunk = args.chunk << 20
    ngpu = cp.cuda.runtime.getDeviceCount()
    counts = [int(x) for x in args.gpus.split(",") if int(x) <= ngpu]
    host_in, host_out = pinned(8 * n), pinned(4 * n)
    block = 1 << 28
    for off in range(0, host_in.size, block):  # numbered words, so that misplaced bytes show
        host_in[off:off + block].view(np.uint32)[:] = np.arange(off // 4, (off + block) // 4,
                                                                  dtype=np.uint32)
    print("bytes of add-exp over 2^%d floats, no kernel, pinned, %d streams a GPU, %d MiB chunks,"
          " %s, median of %d" % (args.log2n, args.streams, args.chunk,
                                 cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                                 args.repeats))
    print("%-5s %5s %10s %10s %8s %s" % ("mode", "GPUs", "ms", "GB/s", "vs 1", "check"))
    for mode in args.modes.split(","):
        base = None
        for G in counts:
            dev, streams = [], []
            for g in range(G):
                with cp.cuda.Device(g):
                    dev.append((cp.empty(host_in.size // G, cp.uint8),
                                cp.empty(host_out.size // G, cp.uint8)))
                    streams.append([cp.cuda.Stream(non_blocking=True)
                                    for _ in range(args.streams)])
            # what comes back: each GPU's result buffer holds the start of its input share
            # (cupy copies from pinned memory asynchronously on the default stream, which the
            # probe's non-blocking streams do not wait for: the device is synchronized first)
            n_in, m = host_in.size // G, host_out.size // G
            host_out[:] = 0
            for g in range(G):
                with cp.cuda.Device(g):
                    dev[g][0][:] = 0
                    dev[g][1][:] = cp.asarray(host_in[g * n_in:][:m])
                    cp.cuda.Device(g).synchronize()
            run(G, mode, host_in, host_out, dev, streams, chunk)
            ok = True
            for g in range(G):
                with cp.cuda.Device(g):
                    if mode != "out":  # the inputs arrived
                        ok &= bool(np.array_equal(cp.asnumpy(dev[g][0][::4099]),
                                                  host_in[g * n_in:(g + 1) * n_in:4099]))
                if mode != "in":  # the result came back
                    ok &= bool(np.array_equal(host_out[g * m:(g + 1) * m:4099],
                                              host_in[g * n_in:][:m:4099]))
            times = sorted(run(G, mode, host_in, host_out, dev, streams, chunk)
                           for _ in range(args.repeats))
            t = times[len(times) // 2]
            nbytes = (host_in.size if mode != "out" else 0) + (host_out.size if mode != "in" else 0)
            base = base or t
            print("%-5s %5d %10.1f %10.1f %7.2fx %s" % (mode, G, t * 1e3, nbytes / t / 1e9,
                                                       base / t, "ok" if ok else "WRONG"),
                  flush=True)
            del dev, streams
            for g in range(G):
                with cp.cuda.Device(g):
                    cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
