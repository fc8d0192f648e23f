/* lessons: every lesson of the matmul course (kernels_cl/lessons/, lessons 1 to 6) against a host
 * reference at small sizes no tile divides (1 x 1 x 1 up to 130 x 33 x 131, m x w x n): each with
 * its default options in float, and lessons 3 to 6 with another shape of their tile in double or
 * int. Each product runs twice: on whole views, and on sections
 * inside larger buffers with an odd row stride, where the elements around C must come back
 * untouched (the device holds the whole C buffer, filled with a sentinel, so a stray write would
 * return with it) and A and B must be unchanged. Each lesson that declares its tile must refuse
 * another one. Building the kernels on POCL is most of the run time, hence one type per row. */
#include "check.h"
#include "kernels/elements.h"
/* the lessons' typed launchers (ampcl_cl_launchers in CMakeLists.txt) */
#include "matmul_lesson3_column_launch.h"
#include "matmul_lesson4_regtile_launch.h"
#include "matmul_lesson5_vectors_launch.h"
#include "matmul_lesson6_double_buffer_launch.h"
#include "matmul_naive_launch.h"
#include "matmul_tiled_launch.h"

#include <float.h>
#include <stdint.h>

/* A tiled lesson's launcher: they all take C = A * B over a tiled extent. */
typedef amp_status (*tiled_launcher)(amp_accelerator_view *, amp_tiled_extent, amp_kernel *,
                                     amp_array_view *, amp_array_view *, amp_array_view *);

typedef struct {
  const char *label;
  const char *kernel;    /* file name without .cl: the builtin program and its kernel */
  const char *options;   /* besides -DT=... */
  int elem;              /* index into elems[]: the type it is built for */
  int rts_m, rts_n;      /* tile of threads; 0: an untiled launch (lesson 1) */
  int wpt_m, wpt_n;      /* elements of C per thread, down and across */
  tiled_launcher launch; /* NULL: lesson 1's matmul_naive_launch */
} lesson;

/* The launch domain of each lesson's header: one thread per wpt_m x wpt_n block of C, padded to
 * whole tiles. */
static const lesson lessons[] = {
    {"1 naive", "matmul_naive", "", 0, 0, 0, 1, 1, NULL},
    {"2 tiled", "matmul_tiled", "", 0, 16, 16, 1, 1, matmul_tiled_launch},
    {"3 column", "matmul_lesson3_column", "", 0, 4, 32, 8, 1, matmul_lesson3_column_launch},
    {"3 column 16/4", "matmul_lesson3_column", "-DTILE=16 -DWPT=4", 2, 4, 16, 4, 1,
     matmul_lesson3_column_launch},
    {"4 regtile", "matmul_lesson4_regtile", "", 0, 8, 8, 4, 4, matmul_lesson4_regtile_launch},
    {"4 regtile 16 2x8", "matmul_lesson4_regtile", "-DTILE=16 -DWPT_M=2 -DWPT_N=8", 1, 8, 2, 2, 8,
     matmul_lesson4_regtile_launch},
    {"5 vectors", "matmul_lesson5_vectors", "", 0, 8, 8, 4, 4, matmul_lesson5_vectors_launch},
    {"5 vectors 16 4x8 unpadded", "matmul_lesson5_vectors", "-DTILE=16 -DWPT_N=8 -DPADV=0", 2, 4, 2,
     4, 8, matmul_lesson5_vectors_launch},
    {"6 double buffer", "matmul_lesson6_double_buffer", "", 0, 8, 8, 4, 4,
     matmul_lesson6_double_buffer_launch},
    {"6 double buffer 16 8x4", "matmul_lesson6_double_buffer", "-DTILE=16 -DWPT_M=8 -DPADV=2", 1, 2,
     4, 8, 4, matmul_lesson6_double_buffer_launch},
};

typedef struct {
  const char *cl; /* -DT= */
  amp_elem_type type;
  size_t size;
} elem;

/* (AMP_FLOAT and friends are compound literals, not constants: spelled out for a static table) */
static const elem elems[] = {
    {"float", {AMP_ELEM_FLOAT, 4}, 4},
    {"double", {AMP_ELEM_DOUBLE, 8}, 8},
    {"int", {AMP_ELEM_INT32, 4}, 4},
};

/* m x w times w x n: one element; sizes no tile divides, with a partial K step; whole tiles. */
static const int sizes[][3] = {{1, 1, 1}, {37, 29, 41}, {64, 64, 64}, {130, 33, 131}};

static uint32_t rng = 2718u;

static amp_status launch(amp_accelerator_view *av, const lesson *l, amp_kernel *k,
                         amp_array_view *va, amp_array_view *vb, amp_array_view *vc, int m, int n) {
  const amp_extent threads =
      amp_extent2((m + l->wpt_m - 1) / l->wpt_m, (n + l->wpt_n - 1) / l->wpt_n);
  if (!l->launch)
    return matmul_naive_launch(av, threads, k, va, vb, vc);
  amp_tiled_extent dom = amp_tiled_extent_pad(amp_tile2(threads, l->rts_m, l->rts_n));
  return l->launch(av, dom, k, va, vb, vc);
}

/* One product, C = A * B (m x w times w x n); in sections (`section` set) each matrix lies at
 * (1, 2) of a buffer two rows taller and three columns wider. Returns the number of wrong
 * elements, printing the first few. */
static int run_one(amp_accelerator_view *av, const lesson *l, const elem *e, amp_kernel *k,
                   amp_kernel *fill, int m, int w, int n, int section) {
  const int r0 = section ? 1 : 0, c0 = section ? 2 : 0, grow = section ? 2 : 0;
  const int grow_cols = section ? 3 : 0;
  const int ra = m + grow, lda = w + grow_cols, rb = w + grow, ldb = n + grow_cols;
  const int rc = m + grow, ldc = n + grow_cols;
  const size_t na = (size_t)ra * lda, nb = (size_t)rb * ldb, nc = (size_t)rc * ldc;
  char *A = malloc(na * e->size), *A0 = malloc(na * e->size);
  char *B = malloc(nb * e->size), *B0 = malloc(nb * e->size);
  char *C = malloc(nc * e->size);
  double *ref = malloc((size_t)m * n * sizeof(double));
  double *mag = malloc((size_t)m * n * sizeof(double));
  int bad = -1;
  matmul_views v = {NULL, NULL, NULL, NULL, NULL, NULL};
  if (!A || !A0 || !B || !B0 || !C || !ref || !mag)
    goto done;
  const double scale = e->type.kind == AMP_ELEM_INT32 ? 1.0 : 8.0;
  for (size_t i = 0; i < na; i++)
    elem_put(e->type, A, i, next_small_int(&rng) / scale);
  for (size_t i = 0; i < nb; i++)
    elem_put(e->type, B, i, next_small_int(&rng) / scale);
  for (size_t i = 0; i < nc; i++)
    elem_put(e->type, C, i, elem_sentinel(e->type));
  memcpy(A0, A, na * e->size);
  memcpy(B0, B, nb * e->size);
  matmul_reference(e->type, A, lda, B, ldb, r0, c0, m, n, w, ref, mag);

  amp_status st = matmul_views_make(av, fill, e->type, section, r0, c0, m, w, n, ra, lda, A, rb,
                                    ldb, B, rc, ldc, C, &v);
  if (st != AMP_SUCCESS)
    goto done;
  CHECK_OK(st = launch(av, l, k, v.va, v.vb, v.vc, m, n));
  CHECK_OK(amp_array_view_synchronize(v.fc ? v.fc : v.vc));
  if (st != AMP_SUCCESS)
    goto done;

  char what[160];
  snprintf(what, sizeof what, "lesson %s, %s, %dx%dx%d, %s", l->label, e->cl, m, w, n,
           section ? "sections" : "whole views");
  bad = check_product(e->type, C, rc, ldc, r0, c0, m, n, w, ref, mag, what);
  if (memcmp(A, A0, na * e->size) || memcmp(B, B0, nb * e->size)) {
    fprintf(stderr, "  lesson %s, %s, %dx%dx%d: A or B changed\n", l->label, e->cl, m, w, n);
    bad++;
  }
done:
  matmul_views_release(&v);
  free(A);
  free(A0);
  free(B);
  free(B0);
  free(C);
  free(ref);
  free(mag);
  return bad;
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_accelerator *acc;
  amp_accelerator_properties props;
  REQUIRE_OK(amp_accelerator_view_get_accelerator(av, &acc));
  REQUIRE_OK(amp_accelerator_get_properties(acc, &props));

  amp_kernel *fills[sizeof elems / sizeof elems[0]] = {NULL};
  for (size_t li = 0; li < sizeof lessons / sizeof lessons[0]; li++) {
    const lesson *l = &lessons[li];
    const elem *e = &elems[l->elem];
    if (test_debug_small() && l->options[0])
      continue; /* debug mode on a CPU device: each lesson's checked build at its defaults */
    if (e->type.kind == AMP_ELEM_DOUBLE && !props.supports_double_precision) {
      printf("lesson %-24s %-6s skipped: %s has no fp64\n", l->label, e->cl, props.device_path);
      continue;
    }
    char opts[256];
    snprintf(opts, sizeof opts, "-DT=%s %s", e->cl, l->options);
    if (!fills[l->elem] && !(fills[l->elem] = test_kernel(fill2d_src, opts, "fill")))
      break;
    amp_program *prog;
    amp_kernel *k;
    REQUIRE_OK(amp_program_create_builtin(l->kernel, opts, &prog));
    REQUIRE_OK(amp_kernel_create(prog, l->kernel, &k));
    /* A lesson the device cannot run (its tile above the device's limit, or more tile_static
     * memory than the device has, asked of ampcl): the launch must say so instead of running. */
    amp_kernel_limits_info kl;
    memset(&kl, 0, sizeof kl);
    CHECK_OK(amp_kernel_limits(k, acc, &kl));
    const int above = l->rts_m && test_tile_allowed(av, k, 2, (const int[]){l->rts_m, l->rts_n}) ==
                                      TEST_TILE_ABOVE_DEVICE;
    if (above || kl.static_local_bytes > props.local_memory) {
      amp_array_view *v;
      double dummy = 0; /* room for one element of any type */
      REQUIRE_OK(amp_array_view_create(amp_extent2(1, 1), e->type, &dummy, &v));
      CHECK_STATUS(launch(av, l, k, v, v, v, 1, 1), AMP_ERROR_LIMIT_EXCEEDED);
      amp_array_view_release(v);
      if (above)
        printf("lesson %-24s %-6s needs tiles of %d x %d threads; %s allows %zu: refused\n",
               l->label, e->cl, l->rts_m, l->rts_n, props.device_path, props.max_tile_size);
      else
        printf("lesson %-24s %-6s needs %llu bytes of tile_static memory; %s has %llu: refused\n",
               l->label, e->cl, (unsigned long long)kl.static_local_bytes, props.device_path,
               (unsigned long long)props.local_memory);
      amp_kernel_release(k);
      amp_program_release(prog);
      continue;
    }
    int total_bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int section = 0; section <= 1; section++) {
        if (test_small() && sizes[s][0] > 37) /* oclgrind: edge and interior tiles, K in steps */
          continue;
        const int bad =
            run_one(av, l, e, k, fills[l->elem], sizes[s][0], sizes[s][1], sizes[s][2], section);
        CHECK_EQ_INT(bad, 0);
        total_bad += bad != 0;
      }
    if (l->rts_m) {
      /* AMP_TILE_SHAPE: a tile other than the lesson's is refused before anything runs. */
      /* a square tile not the lesson's, within the device's limit (a tile above it is refused
       * for that first) */
      int other = 16;
      while (other > 1 &&
             ((other == l->rts_m && other == l->rts_n) ||
              test_tile_allowed(av, NULL, 2, (const int[]){other, other}) != TEST_TILE_RUNS))
        other /= 2;
      amp_array_view *v;
      double dummy = 0; /* room for one element of any type */
      REQUIRE_OK(amp_array_view_create(amp_extent2(1, 1), e->type, &dummy, &v));
      CHECK_STATUS(l->launch(av, amp_tile2(amp_extent2(other, other), other, other), k, v, v, v),
                   AMP_ERROR_INVALID_ARGUMENT);
      amp_array_view_release(v);
    }
    printf("lesson %-24s %-6s %s\n", l->label, e->cl, total_bad ? "MISMATCH" : "verified");
    amp_kernel_release(k);
    amp_program_release(prog);
  }
  for (size_t i = 0; i < sizeof fills / sizeof fills[0]; i++)
    amp_kernel_release(fills[i]);
  return check_done();
}
