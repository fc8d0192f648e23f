#!/usr/bin/env python3
"""The best of the repeated amp-bench --cpu runs in this folder: per device and row, the fastest
repeat of ampcl over all runs and the fastest of OpenMP over all runs, and their ratio (OpenMP ms /
ampcl ms). A row that FAILED in a run is left out of that run; rows that never verified say so.
   python3 summary.py [folder]   (default: this script's folder)"""
import csv, glob, os, sys

folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
best = {}  # (device, workload, size) -> [ampcl, omp, openblas, runs ok, runs, notes]
for path in sorted(glob.glob(os.path.join(folder, "cpu-*.csv"))):
    for r in csv.DictReader(open(path)):
        key = (r["device"], r["workload"], r["size"])
        b = best.setdefault(key, [None, None, None, 0, 0, set()])
        b[4] += 1
        if r["state"] != "ok":
            b[5].add(r["note"][:110])
            continue
        b[3] += 1
        for i, col in enumerate(("ampcl_best_ms", "openmp_best_ms", "openblas_best_ms")):
            v = float(r[col])
            if v > 0 and (b[i] is None or v < b[i]):
                b[i] = v
dev = None
for (d, w, s), (a, o, blas, ok, runs, notes) in sorted(best.items(), key=lambda kv: kv[0][0]):
    if d != dev:
        dev = d
        print(f"\n{d}\n{'workload':<14} {'size':>9} {'ampcl ms':>10} {'OpenMP ms':>10} {'ratio':>6} {'OpenBLAS':>9}  runs ok")
    if a is None:
        print(f"{w:<14} {s:>9} {'-':>10} {'-':>10} {'-':>6} {'-':>9}  0/{runs}: {'; '.join(sorted(notes))}")
        continue
    bl = f"{blas:.3f}" if blas else "-"
    print(f"{w:<14} {s:>9} {a:>10.3f} {o:>10.3f} {o / a:>6.2f} {bl:>9}  {ok}/{runs}")
