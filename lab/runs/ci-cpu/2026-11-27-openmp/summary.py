#!/usr/bin/env python3
"""The best of the repeated amp-bench --cpu runs in this folder: per device and row, the fastest
repeat of ampcl over all runs and the fastest of OpenMP over all runs, and their ratio (OpenMP ms /
ampcl ms). A row that FAILED in a run is left out of that run; rows that never verified say so.
With --markdown, the table of docs/PERFORMANCE.md instead (POCL and Intel side by side).
   python3 summary.py [--markdown] [folder]   (default: this script's folder)"""
import csv, glob, os, sys

args = [a for a in sys.argv[1:] if a != "--markdown"]
markdown = "--markdown" in sys.argv
folder = args[0] if args else os.path.dirname(os.path.abspath(__file__))
best = {}  # (device, workload, size) -> [ampcl, omp, openblas, runs ok, runs, notes]
for path in sorted(glob.glob(os.path.join(folder, "**", "cpu-*.csv"), recursive=True)):
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
if markdown:
    pocl, intel = "ocl/portable-computing-language/0", "ocl/intel-r-opencl/0"
    rows = sorted({(w, s) for (d, w, s) in best}, key=lambda k: list(best).index((pocl, *k)))
    print("| workload | size | OpenMP ms | POCL ms | POCL / OpenMP | Intel ms | Intel / OpenMP |")
    print("|---|---|---|---|---|---|---|")
    for w, s in rows:
        p, i = best.get((pocl, w, s)), best.get((intel, w, s))
        omp = min(x[1] for x in (p, i) if x and x[1])
        cell = lambda b: (f"{b[0]:.2f}", f"{omp / b[0]:.2f}×") if b and b[0] else ("-", "-")
        print(f"| {w} | {int(s):,} | {omp:.2f} | {' | '.join(cell(p))} | {' | '.join(cell(i))} |")
    sys.exit(0)
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
