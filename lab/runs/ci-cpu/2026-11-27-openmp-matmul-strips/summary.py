#!/usr/bin/env python3
"""Per row of amp-bench --cpu: ampcl's fastest repeat on each implementation over the runs, and
OpenMP's fastest over every process of the runs; the ratio OpenMP / ampcl (>= 0.8 the target).
   python3 summary.py cpu-table/*.csv"""
import csv, sys, collections
best = collections.defaultdict(lambda: float("inf"))
omp = collections.defaultdict(lambda: float("inf"))
per_run = collections.defaultdict(list)
for path in sys.argv[1:]:
    dev = "intel" if "intel" in path else "pocl"
    for r in csv.DictReader(open(path)):
        key = r["workload"]
        a, o = float(r["ampcl_best_ms"]), float(r["openmp_best_ms"])
        best[(key, dev)] = min(best[(key, dev)], a)
        omp[key] = min(omp[key], o)
        per_run[(key, dev)].append(o / a)
rows = sorted({k for k, _ in best})
print("%-16s %9s %9s %9s %6s %6s  per-run ratios (POCL | Intel)" % ("row", "OpenMP", "POCL", "Intel", "POCL", "Intel"))
for k in rows:
    p, i, o = best[(k, "pocl")], best[(k, "intel")], omp[k]
    print("%-16s %9.3f %9.3f %9.3f %6.2f %6.2f  %s | %s" % (k, o, p, i, o / p, o / i,
          " ".join("%.2f" % x for x in per_run[(k, "pocl")]),
          " ".join("%.2f" % x for x in per_run[(k, "intel")])))
