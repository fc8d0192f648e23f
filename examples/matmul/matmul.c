/* matmul: C = A * B six ways, the matrix multiplications of the C++ AMP article, the CUDA matmul
 * thesis and the CUDA tiling tutorial side by side.
 *
 *   seq       the reference programs' triple loop on the host (the C++ AMP article's
 *             MatrixMultiply, the CUDA thesis's sequential algorithm)
 *   openblas  cblas_sgemm / cblas_dgemm on the host (the CUDA thesis's CBLAS column)
 *   naive     one thread per element of C (the C++ AMP article's first AMP listing, the CUDA
 *             thesis's kernel)
 *   tiled     16 x 16 tiles through tile_static memory (the C++ AMP article's tiled listing, the
 *             CUDA thesis's block kernel, the CUDA tiling tutorial's scheme), on any size thanks
 *             to a padded extent
 *   blas      amp_blas_gemm on the same array views (the CUDA thesis's cuBLAS column); the table
 *             says where it ran: OpenBLAS on the host memory (a CPU device), or on the device
 *             (CLBlast or ampcl's own GEMM kernel, whichever it measured faster)
 *   multi     rows of C split into one block per accelerator, each block computed by the tiled
 *             kernel through sections of A and C (the CUDA thesis's MultiGPU)
 *
 * A is m x w, B is w x n, C is m x n, row-major. Every implementation is checked against a
 * reference and timed; the table at the end gives time, GFLOP/s and the speedup over seq. The
 * kernels are matmul.cl, built for the element type chosen with --type. */
#include <float.h>
#include <inttypes.h>
#include <math.h>

#include "example.h"
#include "matmul_cl.h"     /* matmul_cl: matmul.cl as a string */
#include "matmul_launch.h" /* matmul_naive_launch_ex, matmul_tiled_launch_ex: its typed launchers */
#ifdef EX_HAVE_OPENBLAS
#include <cblas.h>
#endif

enum { MAX_ACCELERATORS = 64, SAMPLES = 1000 };

/* matmul_tiled's tile edge: 16 (16 x 16 = 256 threads), or on a device whose tiles are smaller the
 * largest power of two whose square it allows (tile_edge), as a portable program picks it. */
static int tiled_edge = 16;

static int tile_edge(size_t max_tile_threads) {
  int t = 16;
  while (t > 1 && (size_t)t * (size_t)t > max_tile_threads)
    t /= 2;
  return t;
}
/* seq runs (as the reference) up to this many multiply-adds: 1024 x 1024 x 1024. */
static const double SEQ_LIMIT = 1024.0 * 1024.0 * 1024.0;

static void usage(FILE *to) {
  fprintf(
      to,
      "usage: amp-matmul [--impl LIST] [--type int|float|double] [--size N | --m M --w W --n N]\n"
      "              [--accelerator PATH] [--kernels DIR]\n"
      "  --impl LIST         comma-separated: seq,openblas,naive,tiled,blas,multi or all\n"
      "                      (default all)\n"
      "  --type T            element type (default float; int is the C++ AMP article's)\n"
      "  --size N            square matrices N x N (default 512)\n"
      "  --m M --w W --n N   A is M x W, B is W x N, C is M x N (each defaults to --size)\n"
      "  --accelerator PATH  device path as amp-info prints it (default: the default);\n"
      "                      multi always uses every accelerator\n"
      "  --kernels DIR       load DIR/matmul.cl instead of the built-in copy\n");
}

/* ---- the problem and its element type ------------------------------------------------------ */

typedef enum { TYPE_INT, TYPE_FLOAT, TYPE_DOUBLE } elem_kind;

typedef struct matmul_problem {
  elem_kind kind;
  amp_elem_type type; /* AMP_INT32, AMP_FLOAT or AMP_DOUBLE */
  const char *type_name;
  int m, w, n;
  void *A, *B;          /* inputs: m x w and w x n */
  void *C;              /* the output of the implementation being run */
  void *ref;            /* the reference result, or NULL: then C is checked by sampling */
  const char *ref_name; /* where ref came from */
} matmul_problem;

static double elem(const matmul_problem *p, const void *buf, size_t i) {
  switch (p->kind) {
  case TYPE_INT:
    return ((const int32_t *)buf)[i];
  case TYPE_FLOAT:
    return ((const float *)buf)[i];
  default:
    return ((const double *)buf)[i];
  }
}

/* A deterministic generator (xorshift64*), so every run multiplies the same matrices. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng_next(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ull;
}
/* ints in -8..8 (no overflow for any w below 3e7); floats in [-1, 1] */
static void fill_random(const matmul_problem *p, void *buf, size_t count) {
  for (size_t i = 0; i < count; i++) {
    uint64_t r = rng_next();
    double u = (double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0;
    if (p->kind == TYPE_INT)
      ((int32_t *)buf)[i] = (int32_t)(r >> 33) % 17 - 8;
    else if (p->kind == TYPE_FLOAT)
      ((float *)buf)[i] = (float)u;
    else
      ((double *)buf)[i] = u;
  }
}

/* Fills C with a value no implementation produces (NaN, or INT32_MIN), so a missed element shows.
 */
static void poison(const matmul_problem *p, void *buf) {
  size_t count = (size_t)p->m * (size_t)p->n;
  for (size_t i = 0; i < count; i++) {
    if (p->kind == TYPE_INT)
      ((int32_t *)buf)[i] = INT32_MIN;
    else if (p->kind == TYPE_FLOAT)
      ((float *)buf)[i] = NAN;
    else
      ((double *)buf)[i] = NAN;
  }
}

/* How far a result may be from the reference: exact for int; for floating point a w-term dot
 * product of values in [-1, 1], summed in any order, may be off by about eps * w * |terms|. */
static double tolerance(const matmul_problem *p, double want) {
  if (p->kind == TYPE_INT)
    return 0;
  double eps = p->kind == TYPE_FLOAT ? FLT_EPSILON : DBL_EPSILON;
  return 4.0 * eps * p->w * (1.0 + fabs(want));
}

/* ---- seq: the reference programs' sequential triple loop
 * ------------------------------------------------ */

/* The same loop for each element type: matmul_seq_int, matmul_seq_float, matmul_seq_double. */
#define MATMUL_SEQ(name, T)                                                                        \
  static void name(const T *A, int m, int w, const T *B, int n, T *C) {                            \
    for (int i = 0; i < m; ++i) {                                                                  \
      for (int j = 0; j < n; ++j) {                                                                \
        T sum = 0;                                                                                 \
        for (int k = 0; k < w; ++k) {                                                              \
          sum += A[i * w + k] * B[k * n + j];                                                      \
        }                                                                                          \
        C[i * n + j] = sum;                                                                        \
      }                                                                                            \
    }                                                                                              \
  }
MATMUL_SEQ(matmul_seq_int, int32_t)
MATMUL_SEQ(matmul_seq_float, float)
MATMUL_SEQ(matmul_seq_double, double)

static void matmul_seq(const matmul_problem *p, void *C) {
  if (p->kind == TYPE_INT)
    matmul_seq_int(p->A, p->m, p->w, p->B, p->n, C);
  else if (p->kind == TYPE_FLOAT)
    matmul_seq_float(p->A, p->m, p->w, p->B, p->n, C);
  else
    matmul_seq_double(p->A, p->m, p->w, p->B, p->n, C);
}

/* ---- openblas: one GEMM call on the host ---------------------------------------------------- */

#ifdef EX_HAVE_OPENBLAS
static void matmul_openblas(const matmul_problem *p, void *C) {
  int m = p->m, w = p->w, n = p->n;
  if (p->kind == TYPE_FLOAT)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, w, 1.0f, p->A, w, p->B, n, 0.0f, C,
                n);
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, w, 1.0, p->A, w, p->B, n, 0.0, C,
                n);
}
#endif

/* ---- naive and tiled: the C++ AMP article's AMP listings
 * ----------------------------------------------- */

/* C = A * B on one accelerator view with matmul_naive (tile == 0) or matmul_tiled (tile > 0).
 * Line for line with the C++ AMP article's MatrixMultiply (see README.md). The kernel's completion
 * future comes back through *done, for its device time. */
static amp_status matmul_amp(amp_accelerator_view *av, amp_kernel *kernel, int tile,
                             const matmul_problem *p, void *C, amp_future **done) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *avA = NULL, *avB = NULL, *avC = NULL;
  int m = p->m, w = p->w, n = p->n;
  EX_TRY(amp_array_view_create_const(amp_extent2(m, w), p->type, p->A, &avA));
  EX_TRY(amp_array_view_create_const(amp_extent2(w, n), p->type, p->B, &avB));
  EX_TRY(amp_array_view_create(amp_extent2(m, n), p->type, C, &avC));
  EX_TRY(amp_array_view_discard_data(avC));

  if (tile) {
    /* avC.extent.tile<16,16>().pad(): whole tiles; the kernel skips the padding. */
    amp_tiled_extent te = amp_tiled_extent_pad(amp_tile2(amp_extent2(m, n), tile, tile));
    EX_TRY(matmul_tiled_launch_ex(av, te, kernel, avA, avB, avC, done));
  } else {
    EX_TRY(matmul_naive_launch_ex(av, amp_extent2(m, n), kernel, avA, avB, avC, done));
  }

  EX_TRY(amp_array_view_synchronize(avC));
fail:
  EX_CLEANUP(EX_RELEASE_VIEWS(avA, avB, avC));
  return status;
}

/* ---- blas: a library GEMM on the same kind of views ---------------------------------------- */

static amp_status matmul_blas(amp_accelerator_view *av, const matmul_problem *p, void *C,
                              amp_future **done) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *avA = NULL, *avB = NULL, *avC = NULL;
  int m = p->m, w = p->w, n = p->n;
  EX_TRY(amp_array_view_create_const(amp_extent2(m, w), p->type, p->A, &avA));
  EX_TRY(amp_array_view_create_const(amp_extent2(w, n), p->type, p->B, &avB));
  EX_TRY(amp_array_view_create(amp_extent2(m, n), p->type, C, &avC));
  EX_TRY(amp_array_view_discard_data(avC)); /* beta is 0: C's old contents are not needed */

  EX_TRY(amp_blas_gemm(av, AMP_NO_TRANS, AMP_NO_TRANS, 1.0, avA, avB, 0.0, avC, done));

  EX_TRY(amp_array_view_synchronize(avC));
fail:
  EX_CLEANUP(EX_RELEASE_VIEWS(avA, avB, avC));
  return status;
}

/* ---- multi: the CUDA thesis's MultiGPU row blocks
 * -------------------------------------------------- */

/* The rows of C (and of A) are split into one block per accelerator, the last block taking the
 * remainder, as in the thesis. Each block is a section of the views of A and C; B is used whole.
 * Every accelerator computes its block with the tiled kernel on its default view, all at once;
 * one synchronize of C then brings every block home. *kernel_ms is the longest kernel. */
static amp_status matmul_multi(amp_accelerator **accs, int deviceCount, amp_kernel *kernel,
                               const matmul_problem *p, void *C, double *kernel_ms) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *avA = NULL, *avB = NULL, *avC = NULL;
  amp_array_view *blockA[MAX_ACCELERATORS] = {0}, *blockC[MAX_ACCELERATORS] = {0};
  amp_future *done[MAX_ACCELERATORS] = {0};
  int m = p->m, w = p->w, n = p->n;
  if (deviceCount > m)
    deviceCount = m; /* no empty blocks */
  EX_TRY(amp_array_view_create_const(amp_extent2(m, w), p->type, p->A, &avA));
  EX_TRY(amp_array_view_create_const(amp_extent2(w, n), p->type, p->B, &avB));
  EX_TRY(amp_array_view_create(amp_extent2(m, n), p->type, C, &avC));
  EX_TRY(amp_array_view_discard_data(avC));

  int nrows = m / deviceCount;
  int lastnrows = m - nrows * (deviceCount - 1);
  for (int dev = 0; dev < deviceCount; ++dev) {
    amp_accelerator_view *av;
    EX_TRY(amp_accelerator_default_view(accs[dev], &av));
    int locnrows = nrows;
    if (dev == deviceCount - 1)
      locnrows = lastnrows;

    amp_index first_row = amp_index2(dev * nrows, 0);
    EX_TRY(amp_array_view_section(avA, first_row, amp_extent2(locnrows, w), &blockA[dev]));
    EX_TRY(amp_array_view_section(avC, first_row, amp_extent2(locnrows, n), &blockC[dev]));

    amp_tiled_extent te =
        amp_tiled_extent_pad(amp_tile2(amp_extent2(locnrows, n), tiled_edge, tiled_edge));
    EX_TRY(matmul_tiled_launch_ex(av, te, kernel, blockA[dev], avB, blockC[dev], &done[dev]));
  }

  EX_TRY(amp_array_view_synchronize(avC));

  *kernel_ms = 0;
  for (int dev = 0; dev < deviceCount; ++dev) {
    double ms;
    EX_TRY(ex_device_ms(done[dev], &ms));
    if (isnan(ms) || isnan(*kernel_ms))
      *kernel_ms = NAN; /* a block without a device time: none for the whole */
    else if (ms > *kernel_ms)
      *kernel_ms = ms;
  }
fail:
  for (int dev = 0; dev < deviceCount; ++dev) {
    EX_CLEANUP(amp_future_release(done[dev]));
    EX_CLEANUP(amp_array_view_release(blockA[dev]));
    EX_CLEANUP(amp_array_view_release(blockC[dev]));
  }
  EX_CLEANUP(EX_RELEASE_VIEWS(avA, avB, avC));
  return status;
}

/* ---- checking -------------------------------------------------------------------------------- */

/* Checks C against the reference (every element), or, with no reference, against a host dot
 * product at SAMPLES random positions. Prints the first mismatch and returns 0 if there is one. */
static int verify(const matmul_problem *p, const char *impl) {
  size_t count = (size_t)p->m * (size_t)p->n;
  size_t checks = p->ref ? count : SAMPLES;
  for (size_t s = 0; s < checks; s++) {
    size_t at = p->ref ? s : (size_t)(rng_next() % count);
    size_t i = at / (size_t)p->n, j = at % (size_t)p->n;
    double want = 0;
    if (p->ref) {
      want = elem(p, p->ref, at);
    } else {
      for (size_t k = 0; k < (size_t)p->w; k++)
        want += elem(p, p->A, i * (size_t)p->w + k) * elem(p, p->B, k * (size_t)p->n + j);
    }
    double got = elem(p, p->C, at);
    if (!(fabs(got - want) <= tolerance(p, want))) {
      fprintf(stderr, "%s: MISMATCH at C[%zu][%zu] (index %zu): got %.17g, expected %.17g (%s)\n",
              impl, i, j, at, got, want, p->ref ? p->ref_name : "host dot product");
      return 0;
    }
  }
  return 1;
}

/* ---- the driver --------------------------------------------------------------------------------
 */

enum { IMPL_SEQ, IMPL_OPENBLAS, IMPL_NAIVE, IMPL_TILED, IMPL_BLAS, IMPL_MULTI, IMPL_COUNT };
static const char *const impl_names[IMPL_COUNT] = {"seq",   "openblas", "naive",
                                                   "tiled", "blas",     "multi"};

typedef struct row {
  int ran;
  double kernel_ms; /* device time of the kernel (< 0: runs on the host; NAN: not measured) */
  double e2e_ms;    /* wall clock: views, copies, kernel, synchronize (or the host call) */
  char note[160];   /* why it did not run, or what it ran on */
} row;

/* Parses --impl: a comma-separated list, or "all". *seq_named is set when "seq" itself is named:
 * only then does seq run on sizes over SEQ_LIMIT. */
static int parse_impls(const char *text, int want[IMPL_COUNT], int *seq_named) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", text);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int found = 0;
    if (!strcmp(tok, "seq"))
      *seq_named = 1;
    for (int i = 0; i < IMPL_COUNT; i++)
      if (!strcmp(tok, "all") || !strcmp(tok, impl_names[i]))
        want[i] = found = 1;
    if (!found) {
      fprintf(stderr, "--impl: unknown implementation '%s'\n", tok);
      return 0;
    }
  }
  return 1;
}

/* Runs one device implementation twice: run 1 compiles (and warms CLBlast's tuning cache), run 2
 * is timed. For blas, the transfer counters of run 2 tell where amp_blas_gemm ran: its views are
 * new and over host memory, so a GEMM on the device copies A and B in, while OpenBLAS on the host
 * memory (a CPU device, ampcl/blas.h) copies nothing. */
static amp_status run_device_impl(int impl, amp_accelerator_view *av, amp_kernel *naive,
                                  amp_kernel *tiled, amp_accelerator **accs, int nacc,
                                  matmul_problem *p, row *r) {
  amp_status status = AMP_SUCCESS;
  amp_future *done = NULL;
  amp_accelerator *acc;
  amp_transfer_stats before = {0}, after = {0};
  EX_TRY(amp_accelerator_view_get_accelerator(av, &acc));
  for (int run = 1; run <= 2; run++) {
    poison(p, p->C);
    EX_CLEANUP(amp_future_release(done));
    done = NULL;
    EX_TRY(amp_transfer_stats_get(acc, &before));
    double t0 = ex_now_ms();
    if (impl == IMPL_NAIVE)
      EX_TRY(matmul_amp(av, naive, 0, p, p->C, &done));
    else if (impl == IMPL_TILED)
      EX_TRY(matmul_amp(av, tiled, tiled_edge, p, p->C, &done));
    else if (impl == IMPL_BLAS)
      EX_TRY(matmul_blas(av, p, p->C, &done));
    else
      EX_TRY(matmul_multi(accs, nacc, tiled, p, p->C, &r->kernel_ms));
    r->e2e_ms = ex_now_ms() - t0;
    EX_TRY(amp_transfer_stats_get(acc, &after));
  }
  if (impl == IMPL_BLAS)
    snprintf(r->note, sizeof r->note, "%s",
             after.to_device_bytes == before.to_device_bytes
                 ? "amp_blas_gemm: OpenBLAS on the host memory"
                 : "amp_blas_gemm on the device: CLBlast or ampcl's GEMM kernel");
  if (done)
    EX_TRY(ex_device_ms(done, &r->kernel_ms));
  r->ran = 1;
fail:
  EX_CLEANUP(amp_future_release(done));
  return status;
}

int main(int argc, char **argv) {
  amp_status status = AMP_SUCCESS;
  int size = 512, m = 0, w = 0, n = 0;
  int want[IMPL_COUNT] = {0}, any_impl = 0, seq_named = 0;
  const char *path = NULL, *kernels_dir = NULL, *type = "float";
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int ok = 1;
    if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
      usage(stdout);
      return 0;
    } else if (!v) {
      ok = 0;
    } else if (!strcmp(o, "--size")) {
      ok = ex_parse_int(o, v, 1, 1 << 15, &size);
    } else if (!strcmp(o, "--m")) {
      ok = ex_parse_int(o, v, 1, 1 << 15, &m);
    } else if (!strcmp(o, "--w")) {
      ok = ex_parse_int(o, v, 1, 1 << 15, &w);
    } else if (!strcmp(o, "--n")) {
      ok = ex_parse_int(o, v, 1, 1 << 15, &n);
    } else if (!strcmp(o, "--impl")) {
      ok = any_impl = parse_impls(v, want, &seq_named);
    } else if (!strcmp(o, "--type")) {
      type = v;
    } else if (!strcmp(o, "--accelerator")) {
      path = v;
    } else if (!strcmp(o, "--kernels")) {
      kernels_dir = v;
    } else {
      ok = 0;
    }
    if (!ok) {
      fprintf(stderr, "matmul: bad, unknown or incomplete option '%s'\n", o);
      usage(stderr);
      return 2;
    }
    i++;
  }
  if (!any_impl)
    parse_impls("all", want, &seq_named);

  matmul_problem p = {.m = m ? m : size, .w = w ? w : size, .n = n ? n : size};
  if (!strcmp(type, "int"))
    p.kind = TYPE_INT, p.type = AMP_INT32;
  else if (!strcmp(type, "float"))
    p.kind = TYPE_FLOAT, p.type = AMP_FLOAT;
  else if (!strcmp(type, "double"))
    p.kind = TYPE_DOUBLE, p.type = AMP_DOUBLE;
  else {
    fprintf(stderr, "--type must be int, float or double, not '%s'\n", type);
    return 2;
  }
  p.type_name = type;

  size_t esize = p.type.size;
  size_t sizeA = (size_t)p.m * p.w, sizeB = (size_t)p.w * p.n, sizeC = (size_t)p.m * p.n;
  void *seqC = NULL, *blasC = NULL;
  amp_program *program = NULL;
  amp_kernel *naive = NULL, *tiled = NULL;
  amp_accelerator *accs[MAX_ACCELERATORS];
  int nacc = 0, failed = 0;
  row rows[IMPL_COUNT] = {0};
  p.A = malloc(sizeA * esize);
  p.B = malloc(sizeB * esize);
  p.C = malloc(sizeC * esize);
  if (!p.A || !p.B || !p.C) {
    fprintf(stderr, "matmul: out of host memory\n");
    failed = 1;
    goto fail;
  }
  fill_random(&p, p.A, sizeA);
  fill_random(&p, p.B, sizeB);
  double flop = 2.0 * p.m * p.w * p.n;
  printf("matmul: C = A * B, A %d x %d, B %d x %d, C %d x %d, %s\n", p.m, p.w, p.w, p.n, p.m, p.n,
         type);

  amp_accelerator *acc;
  amp_accelerator_view *av;
  amp_accelerator_properties props;
  EX_TRY(ex_open_view(path, &acc, &av));
  EX_TRY(amp_accelerator_get_properties(acc, &props));

  /* ---- host implementations, and the reference ---- */
  int seq_affordable = (double)p.m * p.w * p.n <= SEQ_LIMIT;
  if (seq_named || seq_affordable) {
    if (!(seqC = malloc(sizeC * esize))) {
      fprintf(stderr, "matmul: out of host memory\n");
      failed = 1;
      goto fail;
    }
    double t0 = ex_now_ms();
    matmul_seq(&p, seqC);
    rows[IMPL_SEQ].e2e_ms = ex_now_ms() - t0;
    rows[IMPL_SEQ].kernel_ms = -1;
    rows[IMPL_SEQ].ran = 1;
    p.ref = seqC;
    p.ref_name = "seq";
  } else {
    snprintf(rows[IMPL_SEQ].note, sizeof rows[IMPL_SEQ].note,
             "skipped: over 1024^3 multiply-adds (--impl seq forces it)");
  }
#ifdef EX_HAVE_OPENBLAS
  if (p.kind == TYPE_INT) {
    snprintf(rows[IMPL_OPENBLAS].note, sizeof rows[IMPL_OPENBLAS].note,
             "skipped: BLAS has no integer GEMM");
  } else if (want[IMPL_OPENBLAS] || !p.ref) {
    if (!(blasC = malloc(sizeC * esize))) {
      fprintf(stderr, "matmul: out of host memory\n");
      failed = 1;
      goto fail;
    }
    for (int run = 1; run <= 2; run++) { /* run 1 starts OpenBLAS's threads */
      double t0 = ex_now_ms();
      matmul_openblas(&p, blasC);
      rows[IMPL_OPENBLAS].e2e_ms = ex_now_ms() - t0;
    }
    rows[IMPL_OPENBLAS].kernel_ms = -1;
    rows[IMPL_OPENBLAS].ran = 1;
    snprintf(rows[IMPL_OPENBLAS].note, sizeof rows[IMPL_OPENBLAS].note, "%d host threads",
             openblas_get_num_threads());
    if (!p.ref) {
      p.ref = blasC;
      p.ref_name = "openblas";
    } else {
      memcpy(p.C, blasC, sizeC * esize);
      if (!verify(&p, "openblas"))
        failed = 1;
    }
  }
#else
  snprintf(rows[IMPL_OPENBLAS].note, sizeof rows[IMPL_OPENBLAS].note,
           "skipped: built without OpenBLAS");
#endif
  printf("reference: %s\n", p.ref ? p.ref_name : "host dot products at 1000 random positions");

  /* ---- device implementations ---- */
  int device_ok = p.kind != TYPE_DOUBLE || props.supports_double_precision;
  tiled_edge = tile_edge(props.max_tile_size);
  if (tiled_edge < 16)
    printf("tiled: %s allows tiles of %zu threads: tiles of %d x %d, not 16 x 16\n",
           props.device_path, props.max_tile_size, tiled_edge, tiled_edge);
  char options[64];
  snprintf(options, sizeof options, "-DT=%s -DTILE=%d", type, tiled_edge);
  EX_TRY(ex_load_program(kernels_dir, "matmul", matmul_cl, options, &program));
  EX_TRY(matmul_naive_kernel(program, &naive));
  EX_TRY(matmul_tiled_kernel(program, &tiled));
  if (want[IMPL_MULTI]) {
    size_t count;
    EX_TRY(amp_accelerator_count(&count));
    for (size_t i = 0; i < count && nacc < MAX_ACCELERATORS; i++) {
      amp_accelerator *a;
      amp_accelerator_properties ap;
      EX_TRY(amp_accelerator_get(i, &a));
      EX_TRY(amp_accelerator_get_properties(a, &ap));
      /* The thesis's MultiGPU splits over the GPUs: here, every accelerator of the platform of
       * the one chosen (so a GPU run does not hand rows to a CPU device, and POCL with
       * POCL_DEVICES="pthread pthread" splits over its two devices). */
      if (!ap.is_host && strcmp(ap.platform_name, props.platform_name) == 0 &&
          (p.kind != TYPE_DOUBLE || ap.supports_double_precision))
        accs[nacc++] = a;
    }
  }
  for (int impl = IMPL_NAIVE; impl < IMPL_COUNT; impl++) {
    row *r = &rows[impl];
    if (!want[impl])
      continue;
    if (!device_ok && impl != IMPL_MULTI) {
      snprintf(r->note, sizeof r->note, "skipped: %s has no double precision", props.device_path);
      continue;
    }
    if (impl == IMPL_BLAS && p.kind == TYPE_INT) {
      snprintf(r->note, sizeof r->note, "skipped: BLAS has no integer GEMM");
      continue;
    }
    if (impl == IMPL_MULTI && nacc == 0) {
      snprintf(r->note, sizeof r->note, "skipped: no accelerator can run it");
      continue;
    }
    status = run_device_impl(impl, av, naive, tiled, accs, nacc, &p, r);
    if (status == AMP_ERROR_UNSUPPORTED_FEATURE && impl == IMPL_BLAS) {
      snprintf(r->note, sizeof r->note, "skipped: %.140s", amp_last_error());
      status = AMP_SUCCESS;
      continue;
    }
    if (status != AMP_SUCCESS)
      goto fail;
    if (impl == IMPL_MULTI) {
      int used = nacc < p.m ? nacc : p.m;
      snprintf(r->note, sizeof r->note, "%d accelerator%s, row blocks of %d (last %d)", used,
               used == 1 ? "" : "s", p.m / used, p.m - p.m / used * (used - 1));
    }
    if (!verify(&p, impl_names[impl]))
      failed = 1;
  }

  /* ---- the table ---- */
  double seq_ms = rows[IMPL_SEQ].ran ? rows[IMPL_SEQ].e2e_ms : -1;
  printf("\nrun 1 of each device implementation compiled its kernels; the times are run 2's.\n"
         "kernel: device time from OpenCL events; end-to-end: wall clock around create views,\n"
         "launch, synchronize (copies included); GFLOP/s from the kernel time where there is one.\n"
         "speedups are over seq, end-to-end (kernel only).\n\n");
  printf("%-9s %12s %14s %10s %20s  %s\n", "impl", "kernel ms", "end-to-end ms", "GFLOP/s",
         "speedup vs seq", "");
  for (int impl = 0; impl < IMPL_COUNT; impl++) {
    row *r = &rows[impl];
    if (!r->ran) {
      if (want[impl] || impl == IMPL_SEQ)
        printf("%-9s %12s %14s %10s %20s  %s\n", impl_names[impl], "-", "-", "-", "-", r->note);
      continue;
    }
    char kernel[32] = "-", speed[48] = "-";
    double t = r->kernel_ms >= 0 ? r->kernel_ms : r->e2e_ms; /* NAN (not measured): e2e */
    if (isnan(r->kernel_ms))
      snprintf(kernel, sizeof kernel, "n/a");
    else if (r->kernel_ms >= 0)
      snprintf(kernel, sizeof kernel, "%.3f", r->kernel_ms);
    if (seq_ms > 0 && isnan(r->kernel_ms))
      snprintf(speed, sizeof speed, "%.2fx (n/a)", seq_ms / r->e2e_ms);
    else if (seq_ms > 0 && r->kernel_ms >= 0)
      snprintf(speed, sizeof speed, "%.2fx (%.2fx)", seq_ms / r->e2e_ms, seq_ms / r->kernel_ms);
    else if (seq_ms > 0)
      snprintf(speed, sizeof speed, "%.2fx", seq_ms / r->e2e_ms);
    printf("%-9s %12s %14.3f %10.2f %20s  %s\n", impl_names[impl], kernel, r->e2e_ms,
           flop / (t * 1e6), speed, r->note);
  }
  if (!failed)
    printf("\nverified: every implementation that ran matches %s (%s)\n",
           p.ref ? p.ref_name : "host dot products at 1000 random positions",
           p.kind == TYPE_INT ? "exactly" : "within 4 eps w (1 + |c|)");

fail:
  EX_CLEANUP(amp_kernel_release(naive));
  EX_CLEANUP(amp_kernel_release(tiled));
  EX_CLEANUP(amp_program_release(program));
  EX_FREE(p.A, p.B, p.C, seqC, blasC);
  return failed || status != AMP_SUCCESS ? 1 : 0;
}
