/* kernels_matmul: the matmul course of kernels_cl/ (matmul_naive, matmul_tiled, matmul_fast,
 * matmul_cpu)
 * against a host reference, for int, float and double, at sizes no tile divides, through whole
 * views and through sections (aligned ones that take matmul_fast's float4 path, and unaligned
 * ones that take its scalar path). Output memory starts as a sentinel (NaN, or INT32_MIN for int),
 * so an element a kernel forgets to write fails. With sections, the whole C buffer is filled with
 * the sentinel on the device first (a one-line kernel over the whole view), so the device holds
 * its newest contents and the final synchronize brings all of it back: a write outside the
 * section shows up too. */
#include "check.h"
#include "kernels/elements.h"

#include <float.h>
#include <stdint.h>

typedef enum { NAIVE, TILED, FAST, CPU } kernel_kind;

typedef struct {
  const char *label;
  kernel_kind kind;
  const char *options; /* besides -DT=... */
  int float_only;      /* variants of the tile shape run for float only, to keep POCL's compile
                          time (most of this test's run time) down */
  int tile;            /* TILED: the tile size */
  int ts_m, ts_n, ts_k, wpt_m, wpt_n, padv, dbuf, bw; /* FAST: as the -D options (for domain,
                                                         memory; dbuf: buffers - 1); CPU: ts_m,
                                                         ts_n = rows, columns per item */
  unsigned min_cc; /* NVIDIA compute capability the options need (inline PTX); 0: any device */
  int elem_bytes;  /* options that build for one element size only (step 13's 16-byte B vectors:
                      BW elements of 4 bytes, int and float, or of 8, double); 0: any */
  int debug_small; /* run in debug mode on a CPU device: one configuration per kernel file and
                      main shape (each checked build is compiled again there) */
} config;

static const config configs[] = {
    {"naive", NAIVE, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
    {"tiled 16", TILED, "-DTILE=16", 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
    {"tiled 8", TILED, "-DTILE=8", 1, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"fast defaults", FAST, "", 0, 0, 128, 128, 16, 8, 8, 1, 1, 4, 0, 0, 1},
    {"fast single buffer", FAST, "-DDOUBLE_BUFFER=0", 1, 0, 128, 128, 16, 8, 8, 1, 0, 4, 0, 0, 0},
    {"fast all checked", FAST, "-DINNER_FAST=0", 1, 0, 128, 128, 16, 8, 8, 1, 1, 4, 0, 0, 0},
    {"fast row-by-row order", FAST, "-DGROUP_M=1", 1, 0, 128, 128, 16, 8, 8, 1, 1, 4, 0, 0, 0},
    {"fast K tiles of 32", FAST, "-DTS_K=32", 1, 0, 128, 128, 32, 8, 8, 1, 1, 4, 0, 0, 0},
    {"fast plain fma order", FAST, "-DFMA_ORDER=0", 1, 0, 128, 128, 16, 8, 8, 1, 1, 4, 0, 0, 0},
    {"fast column fma order", FAST, "-DFMA_ORDER=2", 1, 0, 128, 128, 16, 8, 8, 1, 1, 4, 0, 0, 0},
    {"fast 64x128 8x4", FAST, "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4", 1, 0, 64, 128, 16, 8, 4,
     1, 1, 4, 0, 0, 0},
    {"fast 32x64 k8 4x8", FAST, "-DTS_M=32 -DTS_N=64 -DTS_K=8 -DWPT_M=4 -DWPT_N=8", 0, 0, 32, 64, 8,
     4, 8, 1, 1, 4, 0, 0, 0},
    {"fast 64x128 8x8 k8", FAST, "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8", 1, 0, 64, 128,
     8, 8, 8, 1, 1, 4, 0, 0, 0},
    {"fast 32x64 bands of 3", FAST, "-DTS_M=32 -DTS_N=64 -DTS_K=8 -DWPT_M=4 -DWPT_N=8 -DGROUP_M=3",
     1, 0, 32, 64, 8, 4, 8, 1, 1, 4, 0, 0, 0},
    {"fast double shape, 2-wide B", FAST,
     "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2", 0, 0, 64, 128, 8, 8, 8, 1, 1, 2, 0,
     0, 1},
    {"fast 2-wide B single buffer", FAST,
     "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DDOUBLE_BUFFER=0 -DBW=2", 1, 0, 64, 128,
     16, 8, 8, 1, 0, 2, 0, 0, 0},
    {"fast 32x32 4x2 2-wide", FAST, "-DTS_M=32 -DTS_N=32 -DWPT_M=4 -DWPT_N=2 -DTS_K=16 -DBW=2", 1,
     0, 32, 32, 16, 4, 2, 1, 1, 2, 0, 0, 0},
    {"cpu defaults", CPU, "", 0, 0, 96, 16, 0, 0, 0, 0, 0, 0, 0, 0, 1},
    /* amp_blas_gemm's double shape (runtime/blas/gemm_plans.c) */
    {"cpu 16 x 6 rows, 2 vectors of 4", CPU, "-DVW=4", 0, 0, 96, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* small strips and k slices: several slices, a ragged last slice, strip and block at the test
     * sizes */
    {"cpu 3 x 4 rows, 1 vector of 8, k by 8", CPU, "-DRB=4 -DCB=1 -DVW=8 -DNR=3 -DKC=8", 0, 0, 12,
     8, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"fast 64x64 4x4 nopad", FAST, "-DTS_M=64 -DTS_N=64 -DWPT_M=4 -DWPT_N=4 -DPADV=0", 0, 0, 64, 64,
     16, 4, 4, 0, 1, 4, 0, 0, 0},
    /* step 13, GPU only: the cp.async ring (what amp_blas_gemm runs in float on 9.x: 135 KB of
     * tile_static memory, which 8.x GPUs may not have), two stages, and the double shape */
    {"fast ring K32 4 stages", FAST, "-DTS_K=32 -DASYNC_STAGES=4", 0, 0, 128, 128, 32, 8, 8, 1, 3,
     4, 90, 4, 0},
    {"fast ring K16 2 stages", FAST, "-DASYNC_STAGES=2", 0, 0, 128, 128, 16, 8, 8, 1, 1, 4, 80, 4,
     0},
    {"fast ring double shape", FAST,
     "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DBW=2 -DASYNC_STAGES=3", 0, 0, 64, 128,
     16, 8, 8, 1, 2, 2, 80, 8, 0},
};

typedef struct {
  const char *name;
  const char *cl; /* -DT= */
  amp_elem_type type;
  size_t size;
} elem;

/* (AMP_FLOAT and friends are compound literals, not constants: spelled out for a static table) */
static const elem elems[] = {
    {"int", "int", {AMP_ELEM_INT32, 4}, 4},
    {"float", "float", {AMP_ELEM_FLOAT, 4}, 4},
    {"double", "double", {AMP_ELEM_DOUBLE, 8}, 8},
};

/* m x w times w x n. 136 x 40 x 260 and 330 x 20 x 140: matmul_fast's interior tiles (unchecked
 * fetch) beside edge tiles, with two and one full K tiles; 330 rows make more block rows than
 * GROUP_M with the smaller tile shapes; 200 x 9 x 200: interior tiles with no full K tile. */
static const int sizes[][3] = {{1, 1, 1},      {17, 13, 29},   {61, 67, 59},   {128, 64, 96},
                               {130, 33, 131}, {136, 40, 260}, {330, 20, 140}, {200, 9, 200}};

static uint32_t rng = 12345u;

/* The launch domain each kernel's opening comment prescribes. */
static amp_tiled_extent domain_for(const config *c, int m, int n) {
  switch (c->kind) {
  case NAIVE:
    return amp_tile2(amp_extent2(m, n), 1, 1); /* only .extent is used */
  case TILED:
    return amp_tiled_extent_pad(amp_tile2(amp_extent2(m, n), c->tile, c->tile));
  case CPU: /* column blocks first: the fast index walks down the rows; tiles of one */
    return amp_tile2(amp_extent2((n + c->ts_n - 1) / c->ts_n, (m + c->ts_m - 1) / c->ts_m), 1, 1);
  default: {
    const int rm = c->ts_m / c->wpt_m, rn = c->ts_n / c->wpt_n;
    return amp_tile2(
        amp_extent2((m + c->ts_m - 1) / c->ts_m * rm, (n + c->ts_n - 1) / c->ts_n * rn), rm, rn);
  }
  }
}

static amp_status launch(amp_accelerator_view *av, const config *c, amp_kernel *k,
                         amp_array_view *va, amp_array_view *vb, amp_array_view *vc, int m, int n) {
  amp_arg args[] = {amp_arg_view(va), amp_arg_view(vb), amp_arg_view(vc)};
  amp_tiled_extent dom = domain_for(c, m, n);
  if (c->kind == NAIVE)
    return amp_parallel_for_each(av, dom.extent, k, args, AMP_NARGS(args));
  return amp_parallel_for_each_tiled(av, dom, k, args, AMP_NARGS(args));
}

/* Layouts: section 0 is whole views; otherwise the matrix lies at (1, col) inside a buffer of
 * (rows + 2) x ld elements. Section 1 (col = 4, ld a multiple of 4) is float4-aligned; section 2
 * (col = 1, odd ld) is not; section 3 (col = 2, ld = 2 mod 4) is aligned for 2-wide vectors
 * (matmul_fast -DBW=2) but not for 4-wide ones. */
enum { NSECTIONS = 3 };
static int ld_for(int cols, int section) {
  if (section == 0)
    return cols;
  if (section == 1)
    return (cols + 4 + 3) / 4 * 4 + 4;
  if (section == 3)
    return (cols + 2 + 3) / 4 * 4 + 2;
  return (cols + 2) | 1;
}

static int col_for(int section) {
  return section == 1 ? 4 : section == 2 ? 1 : section == 3 ? 2 : 0;
}

static const char *section_name(int section) {
  return section == 0   ? "whole views"
         : section == 1 ? "aligned sections"
         : section == 2 ? "unaligned sections"
                        : "2-aligned sections";
}

/* Runs one product; returns the number of wrong elements (printing the first few). */
static int run_one(amp_accelerator_view *av, const config *c, const elem *e, amp_kernel *k,
                   amp_kernel *fill, int m, int w, int n, int section) {
  const int lda = ld_for(w, section), ldb = ld_for(n, section), ldc = ld_for(n, section);
  const int ra = section ? m + 2 : m, rb = section ? w + 2 : w, rc = section ? m + 2 : m;
  const int r0 = section ? 1 : 0, c0 = col_for(section);
  char *A = malloc((size_t)ra * lda * e->size);
  char *B = malloc((size_t)rb * ldb * e->size);
  char *C = malloc((size_t)rc * ldc * e->size);
  double *ref = malloc((size_t)m * n * sizeof(double));
  double *mag = malloc((size_t)m * n * sizeof(double));
  int bad = -1;
  matmul_views v = {NULL, NULL, NULL, NULL, NULL, NULL};
  if (!A || !B || !C || !ref || !mag)
    goto done;
  for (size_t i = 0; i < (size_t)ra * lda; i++)
    elem_put(e->type, A, i, next_small_int(&rng) / (e->type.kind == AMP_ELEM_INT32 ? 1.0 : 8.0));
  for (size_t i = 0; i < (size_t)rb * ldb; i++)
    elem_put(e->type, B, i, next_small_int(&rng) / (e->type.kind == AMP_ELEM_INT32 ? 1.0 : 8.0));
  for (size_t i = 0; i < (size_t)rc * ldc; i++)
    elem_put(e->type, C, i, elem_sentinel(e->type));
  matmul_reference(e->type, A, lda, B, ldb, r0, c0, m, n, w, ref, mag);

  amp_status st = matmul_views_make(av, fill, e->type, section, r0, c0, m, w, n, ra, lda, A, rb,
                                    ldb, B, rc, ldc, C, &v);
  if (st != AMP_SUCCESS)
    goto done;
  CHECK_OK(st = launch(av, c, k, v.va, v.vb, v.vc, m, n));
  CHECK_OK(amp_array_view_synchronize(v.fc ? v.fc : v.vc));
  if (st != AMP_SUCCESS)
    goto done;

  char what[160];
  snprintf(what, sizeof what, "%s, %s, %dx%dx%d, %s", c->label, e->name, m, w, n,
           section_name(section));
  bad = check_product(e->type, C, rc, ldc, r0, c0, m, n, w, ref, mag, what);
done:
  matmul_views_release(&v);
  free(A);
  free(B);
  free(C);
  free(ref);
  free(mag);
  return bad;
}

static size_t fast_local_bytes(const config *c, const elem *e) {
  return (size_t)(1 + c->dbuf) * c->ts_k * e->size * (c->ts_m + c->ts_n + (4 + c->bw) * c->padv);
}

/* A launch of kernel k in configuration c, on a 1 x 1 view of e's type, that the device must refuse
 * (AMP_ERROR_LIMIT_EXCEEDED) instead of running. 1 where the view could not be made. */
static int check_refused(amp_accelerator_view *av, const config *c, amp_kernel *k, const elem *e) {
  double dummy = 0; /* room for one element of any type */
  amp_array_view *v;
  REQUIRE_OK(amp_array_view_create(amp_extent2(1, 1), e->type, &dummy, &v));
  CHECK_STATUS(launch(av, c, k, v, v, v, 1, 1), AMP_ERROR_LIMIT_EXCEEDED);
  amp_array_view_release(v);
  return 0;
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_accelerator_properties props;
  REQUIRE_OK(test_props(av, &props));

  /* The two ways matmul_fast.cl's comment gives for its domain agree. */
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    const config *c = &configs[3];
    const int m = sizes[s][0], n = sizes[s][2], rm = c->ts_m / c->wpt_m, rn = c->ts_n / c->wpt_n;
    amp_tiled_extent a = domain_for(c, m, n);
    amp_tiled_extent b = amp_tiled_extent_pad(amp_tile2(
        amp_extent2((m + c->wpt_m - 1) / c->wpt_m, (n + c->wpt_n - 1) / c->wpt_n), rm, rn));
    CHECK(amp_extent_equal(a.extent, b.extent) && a.tile[0] == b.tile[0] && a.tile[1] == b.tile[1]);
  }

  /* Step 12: matmul_fast declares its tile (16 x 16 threads for the defaults); a launch with
   * another tile is refused with the shapes named, and C is left as it was. */
  {
    enum { N = 20 };
    float ha[N * N], hc[N * N];
    for (int i = 0; i < N * N; i++)
      ha[i] = (float)i, hc[i] = -1.0f;
    amp_program *prog;
    amp_kernel *k;
    amp_array_view *va, *vc;
    REQUIRE_OK(amp_program_create_builtin("matmul_fast", "-DT=float", &prog));
    REQUIRE_OK(amp_kernel_create(prog, "matmul_fast", &k));
    REQUIRE_OK(amp_array_view_create(amp_extent2(N, N), AMP_FLOAT, ha, &va));
    REQUIRE_OK(amp_array_view_create(amp_extent2(N, N), AMP_FLOAT, hc, &vc));
    amp_arg args[] = {amp_arg_view(va), amp_arg_view(va), amp_arg_view(vc)};
    /* (4 x 4 where 8 x 8 is above the device's limit, which is refused for that first) */
    const int w = test_tile_allowed(av, NULL, 2, (const int[]){8, 8}) == TEST_TILE_RUNS ? 8 : 4;
    amp_tiled_extent wrong = amp_tile2(amp_extent2(32, 32), w, w);
    CHECK_STATUS(amp_parallel_for_each_tiled(av, wrong, k, args, AMP_NARGS(args)),
                 AMP_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(amp_last_error(), "16") != NULL);
    REQUIRE_OK(amp_array_view_synchronize(vc));
    int untouched = 1;
    for (int i = 0; i < N * N; i++)
      untouched &= hc[i] == -1.0f;
    CHECK(untouched);
    amp_array_view_release(va);
    amp_array_view_release(vc);
    amp_kernel_release(k);
    amp_program_release(prog);
  }

  for (size_t ei = 0; ei < sizeof elems / sizeof elems[0]; ei++) {
    const elem *e = &elems[ei];
    if (test_small() && e->type.kind != AMP_ELEM_FLOAT)
      continue; /* oclgrind: float only, the kernels' code is the same for every type */
    if (e->type.kind == AMP_ELEM_DOUBLE && !props.supports_double_precision) {
      printf("%s has no fp64: double skipped\n", props.device_path);
      continue;
    }
    /* the sentinel fill, built once per element type (its source does not change with the
     * configuration: on POCL every build is compiled, which is most of this test's time) */
    char fill_opts[32];
    snprintf(fill_opts, sizeof fill_opts, "-DT=%s", e->cl);
    amp_kernel *fill = test_kernel(fill2d_src, fill_opts, "fill");
    if (!fill)
      return check_done();
    for (size_t ci = 0; ci < sizeof configs / sizeof configs[0]; ci++) {
      const config *c = &configs[ci];
      if ((c->float_only && e->type.kind != AMP_ELEM_FLOAT) ||
          (c->elem_bytes && c->elem_bytes != (int)e->type.size))
        continue;
      /* Debug mode on a CPU device: every checked build is compiled again there (5-20 s each on
       * POCL), so one configuration per kernel file and main shape runs (debug_small); the
       * variants' bounds are checked by the oclgrind run (those that fit its 32 KB of
       * tile_static memory), and every configuration's checked build runs wherever debug mode
       * has the full sweep (on a GPU: lab/gpu_check.sh; or with AMP_TEST_FULL=1;
       * tests/README.md) */
      if (test_debug_small() && (c->float_only || !c->debug_small))
        continue;
      /* On a CPU device the other element types run with one configuration per kernel file and
       * main shape; every configuration runs them on a GPU (test_full) */
      if (!test_full() && e->type.kind != AMP_ELEM_FLOAT && !c->debug_small)
        continue;
      if (c->min_cc && props.compute_capability < c->min_cc) {
        printf("%-22s %-6s needs NVIDIA compute capability %u.%u: skipped on %s\n", c->label,
               e->name, c->min_cc / 10, c->min_cc % 10, props.device_path);
        continue;
      }
      if (c->min_cc && fast_local_bytes(c, e) > 99 * 1024 &&
          !(props.compute_capability >= 90 && props.compute_capability < 100)) {
        /* past 99 KB (8.6, 8.9 and 12.x have no more): run where measured, 9.x (227 KB) */
        printf("%-22s %-6s needs %zu bytes of tile_static memory: run on 9.x only, skipped on %s\n",
               c->label, e->name, fast_local_bytes(c, e), props.device_path);
        continue;
      }
      char opts[256];
      snprintf(opts, sizeof opts, "-DT=%s %s", e->cl, c->options);
      const char *file = c->kind == NAIVE   ? "matmul_naive"
                         : c->kind == TILED ? "matmul_tiled"
                         : c->kind == CPU   ? "matmul_cpu"
                                            : "matmul_fast";
      amp_program *prog;
      amp_kernel *k;
      REQUIRE_OK(amp_program_create_builtin(file, opts, &prog));
      REQUIRE_OK(amp_kernel_create(prog, file, &k));
      /* More tile_static memory than the device reports: NVIDIA's driver (the devices with a
       * compute capability) still runs a kernel that declares it, up to the GPU's opt-in limit
       * (99 KB or more from compute capability 8.0, 227 KB on 9.x; the ring in 4 stages needs 135
       * KB and runs on 9.x only, the other shapes at most 76 KB), so there it runs and is checked
       * like any other; below 8.0 it is not tried. */
      const int over = c->kind == FAST && fast_local_bytes(c, e) > props.local_memory;
      /* A tile above the device's limit (a device that allows fewer threads per tile): the launch
       * must say so instead of running. */
      const amp_tiled_extent dom1 = domain_for(c, 1, 1);
      const int above =
          c->kind != NAIVE && test_tile_allowed(av, k, 2, dom1.tile) == TEST_TILE_ABOVE_DEVICE;
      if (above) {
        if (check_refused(av, c, k, e))
          return 1;
        printf("%-22s %-6s needs tiles of %d x %d threads; %s allows %zu: refused\n", c->label,
               e->name, dom1.tile[0], dom1.tile[1], props.device_path, props.max_tile_size);
      } else if (over && props.compute_capability > 0 && props.compute_capability < 80) {
        printf("%-22s %-6s needs %zu bytes of tile_static memory: not tried on %s\n", c->label,
               e->name, fast_local_bytes(c, e), props.device_path);
      } else if (over && props.compute_capability == 0) {
        /* Too big for this device: the launch must say so instead of running. */
        if (check_refused(av, c, k, e))
          return 1;
        printf("%-22s %-6s needs %zu bytes of tile_static memory; %s has %llu: refused\n", c->label,
               e->name, fast_local_bytes(c, e), props.device_path,
               (unsigned long long)props.local_memory);
      } else {
        int total_bad = 0;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
          /* small: a size with edge tiles only, and 130 x 33 x 131, the smallest with interior
           * tiles (full K tiles, unchecked fetch) beside edge ones for every tile shape */
          if (test_small() && s != 1 && s != 4)
            continue;
          int bad = run_one(av, c, e, k, fill, sizes[s][0], sizes[s][1], sizes[s][2], 0);
          CHECK_EQ_INT(bad, 0);
          total_bad += bad != 0;
        }
        if (c->min_cc) {
          /* interior tiles (m x w times w x n) with the ring going round (9 full K tiles of 32,
           * 18 of 16, and a partial one), with no partial K tile (8 or 16 full ones), with 3 full
           * K tiles of 32 (6 of 16), as many as 4 stages request before the loop, and with 2 (4
           * of 16), fewer */
          static const int ring_sizes[][3] = {
              {256, 300, 260}, {256, 256, 256}, {256, 96, 260}, {130, 64, 131}};
          for (size_t r = 0; r < sizeof ring_sizes / sizeof ring_sizes[0]; r++) {
            int bad =
                run_one(av, c, e, k, fill, ring_sizes[r][0], ring_sizes[r][1], ring_sizes[r][2], 0);
            CHECK_EQ_INT(bad, 0);
            total_bad += bad != 0;
          }
        }
        /* sections: every kernel, at two awkward sizes */
        for (int section = 1; section <= (test_small() ? 1 : NSECTIONS); section++) {
          int bad = run_one(av, c, e, k, fill, 17, 13, 29, section);
          CHECK_EQ_INT(bad, 0);
          total_bad += bad != 0;
          if (test_small())
            continue;
          bad = run_one(av, c, e, k, fill, 61, 67, 59, section);
          CHECK_EQ_INT(bad, 0);
          total_bad += bad != 0;
          /* big enough for matmul_fast's interior tiles (unchecked fetch) next to edge ones */
          bad = run_one(av, c, e, k, fill, 133, 37, 261, section);
          CHECK_EQ_INT(bad, 0);
          total_bad += bad != 0;
        }
        printf("%-22s %-6s %s\n", c->label, e->name, total_bad ? "MISMATCH" : "verified");
      }
      amp_kernel_release(k);
      amp_program_release(prog);
    }
    amp_kernel_release(fill);
  }
  return check_done();
}
