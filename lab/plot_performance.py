#!/usr/bin/env python3
"""The plots of docs/PERFORMANCE.md, made again from the runs' own CSV files.

    python3 lab/plot_performance.py [--keep DIR]      (from anywhere; needs gnuplot)

Each plot is amp-bench's rate plot (`amp-bench --plots`: <workload>_rate_<type>.png, the metric
against the size, one line per implementation, log scales), written the way bench/bench_report.c
writes it: a .dat file (size, then kernel ms, end-to-end ms, speed-up and the metric of each
implementation; '-' where there is none) and a .gp script beside it. The data are the amp-bench
CSV files (--csv) of the run folder the plot names, and, where the run has one, the CUDA reference
of the same run (bench/cuda_reference.py --csv: cuBLAS) as one more line. The PNGs go to
docs/img/; the .dat and .gp files to a temporary folder, or to DIR with --keep.
"""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = os.path.join(ROOT, "lab", "runs")

# png: the file in docs/img; title: the plot's title; run: the run folder (under lab/runs);
# bench: the amp-bench CSV and its type; impls: the columns, in order; cuda: the CUDA reference's
# CSV and the rows of it to add (its `impl` column, and the name of the line).
PLOTS = [
    {
        "png": "h100-sgemm.png",
        "title": "SGEMM (matmul float): GFLOP/s, NVIDIA H100 80GB HBM3, 2026-11-26",
        "run": "h100/2026-11-26-toward-cublas",
        "bench": ("90-suite/cublas_sgemm.csv", "float"),
        "impls": ["fast", "tf32", "clblast"],
        "cuda": ("90-suite/cublas_cuda.csv", "cuBLAS SGEMM (FP32)", "cuBLAS FP32"),
        "cuda2": ("90-suite/cublas_cuda_tf32.csv", "cuBLAS SGEMM (TF32)", "cuBLAS TF32"),
    },
    {
        "png": "h100-dgemm.png",
        "title": "DGEMM (matmul double): GFLOP/s, NVIDIA H100 80GB HBM3, 2026-11-26",
        "run": "h100/2026-11-26-toward-cublas",
        "bench": ("90-suite/cublas_dgemm.csv", "double"),
        "impls": ["gemm", "bulk", "tensor", "fast", "clblast"],
        "cuda": ("90-suite/cublas_cuda.csv", "cuBLAS DGEMM", "cuBLAS"),
    },
    {
        "png": "ci-cpu-matmul.png",
        "title": "matmul float: GFLOP/s, POCL 3.1 on the 2-core CI machine, 2026-11-22",
        "run": "ci-cpu/2026-11-22-pocl",
        "bench": ("matmul.csv", "float"),
        "impls": ["fast", "openblas", "clblast", "tiled", "naive", "seq"],
    },
]


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def fmt(v):
    return "-" if v is None else "%.6g" % v


def columns(p):
    """{size: {impl: (kernel ms, e2e ms, speed-up, metric)}} and the metric's name."""
    run = os.path.join(RUNS, p["run"])
    path, typ = p["bench"]
    table, metric = {}, None
    for r in csv.DictReader(open(os.path.join(run, path))):
        if r["type"] != typ or r["impl"] not in p["impls"] or r["status"] != "ok":
            continue
        metric = r["metric"]
        table.setdefault(int(r["size"]), {})[r["impl"]] = (
            num(r["kernel_ms_median"]), num(r["e2e_ms_median"]), num(r["speedup"]),
            num(r["metric_kernel"]))
    names = list(p["impls"])
    for key in ("cuda", "cuda2"):
        if key not in p:
            continue
        cpath, impl, name = p[key]
        names.append(name)
        for r in csv.DictReader(open(os.path.join(run, cpath))):
            if r["impl"] == impl and int(r["size"]) in table:
                table[int(r["size"])][name] = (num(r["ms_median"]), None, None, num(r["value"]))
    return table, names, metric


def write(p, work):
    table, names, metric = columns(p)
    stem = os.path.splitext(p["png"])[0]
    sizes = sorted(table)
    with open(os.path.join(work, stem + ".dat"), "w") as f:
        f.write("# from lab/runs/%s; size, then per implementation: kernel_ms e2e_ms speedup %s\n"
                % (p["run"], metric))
        f.write("# size" + "".join(" %s(4)" % n.replace(" ", "_") for n in names) + "\n")
        for s in sizes:
            f.write(str(s))
            for n in names:
                for v in table[s].get(n, (None,) * 4):
                    f.write(" " + fmt(v))
            f.write("\n")
    with open(os.path.join(work, stem + ".gp"), "w") as f:
        f.write("# Written by lab/plot_performance.py as amp-bench writes its plots; "
                "run in this directory: gnuplot %s.gp\n" % stem)
        f.write("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                "  set terminal pngcairo size 960,640 noenhanced\n} else {\n"
                "  set terminal png size 960,640 noenhanced\n}\n")
        f.write("set datafile missing '-'\nset key outside right\nset grid\n"
                "set logscale x 2\nset logscale y\nset xlabel 'Matrix Size'\n"
                "set format x '%.0f'\n")
        # amp-bench's axis, with room at both ends, and no label on a size next to a labelled one
        f.write("set xrange [%g:%g]\nset format y '%%.0s%%c'\n" % (sizes[0] / 1.25, sizes[-1] * 1.25))
        tics, last = [], None
        for s in sizes:
            close = last is not None and s < last * 1.15
            tics.append("'%s' %d" % ("" if close else s, s))
            if not close:
                last = s
        f.write("set xtics (%s)\n" % ", ".join(tics))
        f.write("set output '%s'\nset title '%s'\nset ylabel '%s'\nplot" % (
            p["png"], p["title"], metric))
        lines = []
        for i, n in enumerate(names):
            if not any(table[s].get(n, (None,) * 4)[3] is not None for s in sizes):
                continue
            lines.append(" '%s.dat' using 1:%d with linespoints title '%s'" % (stem, 2 + 4 * i + 3, n))
        f.write(",".join(lines) + "\n")
    return stem


def main():
    keep = None
    if sys.argv[1:2] == ["--keep"] and len(sys.argv) == 3:
        keep = sys.argv[2]
    elif len(sys.argv) > 1:
        sys.exit(__doc__)
    work = keep or tempfile.mkdtemp(prefix="ampcl-plots-")
    os.makedirs(work, exist_ok=True)
    out = os.path.join(ROOT, "docs", "img")
    os.makedirs(out, exist_ok=True)
    for p in PLOTS:
        stem = write(p, work)
        subprocess.run(["gnuplot", stem + ".gp"], cwd=work, check=True)
        os.replace(os.path.join(work, p["png"]), os.path.join(out, p["png"]))
        print("docs/img/%s  from lab/runs/%s" % (p["png"], p["run"]))
    if not keep:
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)


if __name__ == "__main__":
    main()
