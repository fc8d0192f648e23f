#!/usr/bin/env python3
"""lab/trace_per_gpu.py: each accelerator's share of the last run in an AMP_TRACE file.

A run is what follows the last gap of more than --gap ms with no device command on any
accelerator (amp-split and amp-bench leave such gaps while they check results). For that run, per
accelerator: when its first and last commands ran, how long its writes, reads and kernels took
(summed), and how long its link was busy (the union of writes and reads; both directions count as
one, an upper bound on how busy each direction was). A link busy for much less than the run was
waiting for its host thread.

    python3 lab/trace_per_gpu.py trace.json [--gap 20]
"""
import argparse
import json
from collections import defaultdict


def union(spans):
    total, end = 0.0, None
    for a, b in sorted(spans):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--gap", type=float, default=20.0)
    args = ap.parse_args()
    with open(args.trace) as f:
        events = [e for e in json.load(f)["traceEvents"]
                  if e.get("ph") == "X" and "accelerator" in e.get("args", {})]
    events.sort(key=lambda e: e["ts"])
    start, end = 0, None
    for i, e in enumerate(events):
        if end is not None and e["ts"] - end > args.gap * 1e3:
            start = i
        end = max(end or 0, e["ts"] + e["dur"])
    run = events[start:]
    t0 = min(e["ts"] for e in run)
    t1 = max(e["ts"] + e["dur"] for e in run)
    print("last run: %d device commands, %.1f ms from first to last" % (len(run), (t1 - t0) / 1e3))
    per = defaultdict(list)
    for e in run:
        per[e["args"]["accelerator"]].append(e)
    print("%-22s %8s %8s %9s %9s %9s %9s %8s" % ("accelerator", "first", "last", "writes",
                                                  "reads", "kernels", "link busy", "GB"))
    for acc in sorted(per):
        ev = per[acc]
        kind = defaultdict(float)
        link, nbytes = [], 0
        for e in ev:
            k = "writes" if e["cat"].startswith("write") else \
                "reads" if e["cat"].startswith("read") else \
                "kernels" if e["cat"] == "kernel" else "other"
            kind[k] += e["dur"]
            if k in ("writes", "reads"):
                link.append((e["ts"], e["ts"] + e["dur"]))
                nbytes += e["args"].get("bytes", 0)
        first = min(e["ts"] for e in ev) - t0
        last = max(e["ts"] + e["dur"] for e in ev) - t0
        print("%-22s %8.1f %8.1f %9.1f %9.1f %9.1f %9.1f %8.2f" % (
            acc, first / 1e3, last / 1e3, kind["writes"] / 1e3, kind["reads"] / 1e3,
            kind["kernels"] / 1e3, union(link) / 1e3, nbytes / 1e9))
    print("(ms from the run's first command; writes, reads and kernels summed over queues)")


if __name__ == "__main__":
    main()
