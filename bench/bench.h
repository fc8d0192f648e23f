/* bench/bench.h: amp-bench's internal header: options, result cells, workloads.
 *
 * One cell is one (workload, implementation, element type, size): its repeated timings, the
 * verdict of its correctness check, and the metric derived from them. amp_bench.c fills the grid
 * of cells by calling the workload's run function, bench_report.c prints and plots it. */
#ifndef AMPCL_BENCH_H
#define AMPCL_BENCH_H

#include <ampcl.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_REPEATS 100
#define BENCH_MAX_ACCS    16

typedef enum bench_type { BENCH_FLOAT = 0, BENCH_DOUBLE = 1 } bench_type;

typedef enum bench_state {
  BENCH_NOT_RUN = 0, /* not in the grid (e.g. double for a float-only workload) */
  BENCH_OK,          /* timed and verified */
  BENCH_SKIPPED,     /* deliberately not run: printed "-" (seq above --seq-max, no fp64, ...) */
  BENCH_FAILED,      /* ran, but the result differs from the reference */
  BENCH_ERROR        /* an ampcl or OpenCL call failed; the reason is in note */
} bench_state;

/* Everything the options set, plus the accelerators they chose. */
typedef struct bench_ctx {
  int repeats, warmup;
  long seq_max;          /* seq only for sizes <= this */
  int steps;             /* nbody: steps per timed run */
  const char *fast_opts; /* --fast-opts: build options for matmul_fast (tile shape), or NULL */
  amp_accelerator *acc;  /* --accelerator */
  amp_accelerator_view *av;
  amp_accelerator_properties props;
  size_t nmulti; /* accelerators used by multi and clblast-multi */
  amp_accelerator_view *multi[BENCH_MAX_ACCS];
  const char *multi_paths[BENCH_MAX_ACCS];
} bench_ctx;

/* One measured cell. Times are in milliseconds. */
typedef struct bench_cell {
  const char *impl;
  bench_type type;
  long size;
  bench_state state;
  char note[256];
  int n;                               /* timed repeats recorded */
  double kernel_ms[BENCH_MAX_REPEATS]; /* device time from OpenCL events (host impls: wall);
                                        * NAN where the device gives none (printed n/a) */
  double sync_ms[BENCH_MAX_REPEATS];   /* wall time launch -> ready, data already resident */
  double e2e_ms[BENCH_MAX_REPEATS];    /* wall time: views, copy in, launch, copy back */
  double max_err;                      /* the check's worst error, in units of its tolerance */
  const char *baseline;                /* filled by the report */
  double speedup, speedup_e2e;         /* baseline median / this median; 0 when none */
} bench_cell;

/* A workload: its implementations and how to run one cell. */
typedef struct bench_workload {
  const char *name;
  const char *const *impls; /* NULL-terminated, in table order */
  const char *metric;       /* "GFLOP/s", "GB/s", "Ginteractions/s" */
  const char *size_label;   /* first column of the tables */
  int float_only;
  /* Units of the metric (times 1e9) that one timed run does for this size. */
  double (*work)(const bench_ctx *ctx, long size);
  /* Default sizes for a GPU or a CPU device, 0-terminated. */
  const long *gpu_sizes, *cpu_sizes;
  long seq_max_default;
  const char *fallback_baseline; /* used where the baseline was skipped (NULL: none) */
  /* Runs and checks one cell; fills cell->state, times and note. */
  void (*run)(bench_ctx *ctx, bench_cell *cell);
  /* Frees cached host data (references) between sizes; may be NULL. */
  void (*release_cache)(void);
} bench_workload;

extern const bench_workload bench_matmul, bench_addexp, bench_nbody;

/* ---- bench_util.c ---- */
/* --inject-error: the checks corrupt one element of every result before comparing, to prove that
 * they catch a wrong result (a test expects every cell to FAIL then). */
extern int bench_inject_error;
double bench_now_ms(void);
/* Sorted copy statistics of v[0..n-1]; all NAN when one of them is NAN (not measured). */
typedef struct bench_stats {
  double median, min, max, q1, q3;
} bench_stats;
bench_stats bench_stats_of(const double *v, int n);
/* Records an ampcl failure in the cell (state ERROR, note with the status and amp_last_error()).
 * Returns 1 when status is a failure, so callers write `if (bench_fail(...)) goto done;`. */
int bench_fail(bench_cell *cell, amp_status status, const char *what);
/* The same with the reason given (a reason that came from another thread). */
int bench_fail_why(bench_cell *cell, amp_status status, const char *what, const char *why);
/* Whether ctx's device allows a tile of tile[0..rank) threads (AMP order; max_tile_size and
 * max_tile_extent). Where not, the cell is marked skipped, naming the tile and the device's limit
 * (a device that allows fewer threads per tile), and 0 is returned. */
int bench_tile_fits(const bench_ctx *ctx, bench_cell *cell, int rank, const int *tile);
/* Deterministic pseudo-random values in [-1, 1]. */
void bench_fill_float(float *p, size_t n, uint64_t seed);
void bench_fill_double(double *p, size_t n, uint64_t seed);
const char *bench_type_name(bench_type t);
/* Waits for a future and adds its device time (ms) to *kernel_ms (max over several when max != 0).
 * Where the device gives none (amp_future_elapsed_ns: AMP_ERROR_UNSUPPORTED_FEATURE; its
 * timestamps measure nothing, or AMP_PROFILE=0) *kernel_ms becomes NAN, "not measured", which the
 * tables, the CSV and the plots show as n/a (and every ratio with it); the reason is kept for
 * bench_unmeasured_why. Another failure is returned. Releases the future. */
amp_status bench_future_done(amp_future *f, double *kernel_ms, int max);
/* Why a device time was not measured (the first such reason of the run), or NULL. */
const char *bench_unmeasured_why(void);
void *bench_alloc(size_t bytes); /* aligned, exits on failure (the harness, not the library) */
/* --pinned: the accelerator whose amp_host_alloc holds the data the workloads put under views,
 * or NULL for malloc'd memory (the default). bench_data_alloc / bench_data_free allocate and free
 * that data accordingly; references and scratch stay bench_alloc / free. */
extern amp_accelerator *bench_pinned_on;
void *bench_data_alloc(size_t bytes);
void bench_data_free(void *p);

/* ---- bench_parts.c ---- */
/* Runs fn(arg, p, &ms) for every part p < n at once, each on its own host thread (part 0 on the
 * caller's), and waits for all; fn sets ms to its part's device time (NAN if none). Returns 0 when
 * every part succeeded, with *kernel_ms the longest part's time (NAN when a part has none); else
 * records the first failing
 * part's status and reason in the cell as bench_fail does, and returns 1. */
typedef amp_status (*bench_part_fn)(void *arg, int part, double *kernel_ms);
int bench_run_parts(bench_cell *cell, const char *what, int n, bench_part_fn fn, void *arg,
                    double *kernel_ms);

/* ---- bench_algorithms.c ---- */
/* --algorithms: reduce, scan, transpose, histogram, sort, stencil vs the device copy; sizes
 * (elements) may be empty for the defaults. 0 when every row verified, 1 otherwise, 2 on a bad
 * size. */
int bench_algorithms(bench_ctx *ctx, const long *sizes, int nsizes, const char *csv_path);

/* ---- bench_samples.c ---- */
/* --samples: the classic C++ AMP reduction and scan samples beside amp_reduce and amp_scan, as a
 * ratio to the library's call in the same run; sizes (ints) may be empty for the defaults. 0 when
 * every row verified, 1 otherwise, 2 on a bad size. */
int bench_samples(bench_ctx *ctx, const long *sizes, int nsizes, const char *csv_path);

/* ---- bench_prepare.c ---- */
/* --prepare: each algorithm's first call without and with amp_algorithms_prepare, beside its
 * warm call; sizes[0] (ints) or 2^20. 0 when every call succeeded and verified. */
int bench_prepare(bench_ctx *ctx, const long *sizes, int nsizes, const char *csv_path);

/* ---- bench_cpu.c ---- */
/* --cpu: ampcl on the accelerator beside the OpenMP + SIMD versions of bench/omp/ (add-exp, n-body,
 * matmul, reduce, scan, transpose, stencil), with the ratio. sizes: up to four (add-exp elements,
 * n-body bodies, matmul n, algorithm elements), the rest default. 0 when every row verified, 1
 * otherwise, 2 on bad sizes or without OpenMP. */
int bench_cpu(bench_ctx *ctx, const long *sizes, int nsizes, const char *csv_path);

/* ---- bench_overhead.c ---- */
int bench_overhead(bench_ctx *ctx, int launches, const char *csv_path);
/* ---- bench_ports.c: classic OpenCL kernels, raw OpenCL and ampcl (n_all > 0: every port at
 * that size) ---- */
int bench_ports(bench_ctx *ctx, int n_all, const char *csv_path, const char *each_path);
/* ---- bench_first_launch.c: a built program's kernel launched the first time, both ways ---- */
struct _cl_context;
struct _cl_command_queue;
struct _cl_device_id; /* cl_context, cl_command_queue, cl_device_id */
int bench_first_launch(bench_ctx *ctx, struct _cl_context *c, struct _cl_command_queue *q,
                       struct _cl_device_id *dev);

/* ---- bench_report.c ---- */
typedef struct bench_grid {
  const bench_workload *w;
  const char *const *impls;
  int nimpl;
  const long *sizes;
  int nsize;
  int types[2];      /* which of float, double are in the grid */
  bench_cell *cells; /* [type][size][impl] */
  const char *baseline;
} bench_grid;
bench_cell *bench_grid_cell(const bench_grid *g, int type, int size, int impl);
void bench_compute_speedups(bench_grid *g);
void bench_print_tables(const bench_grid *g, const bench_ctx *ctx);
int bench_write_csv(const bench_grid *g, const bench_ctx *ctx, const char *path);
int bench_write_plots(const bench_grid *g, const bench_ctx *ctx, const char *dir);

/* The integer after `key` in a build-option string (e.g. "-DTS_M=" in "-DTS_M=64"), or `dflt`
 * (also when opts is NULL). */
int bench_option_int(const char *opts, const char *key, int dflt);

/* A size: "1024", "2^20", "1M", "64K"; -1 when it is none. */
long bench_parse_size(const char *s);

#endif /* AMPCL_BENCH_H */
