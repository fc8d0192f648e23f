/* kernel_collectives: the prelude's tile collectives (kernels_cl/prelude/ampcl_collectives.h)
 * against host references, for int, uint, long, ulong, float and double (double where the device
 * has it), at tiles of 1, 7, 32, 64, 96, 128 and 256 threads, 2-D tiles of 8 x 12 and 16 x 16 and a
 * 3-D tile of 2 x 4 x 8, three or more tiles each: every shape on a GPU; on a CPU device 7, 64,
 * 256, 8 x 12 and 2 x 4 x 8, and under oclgrind and in debug mode there all but 256 (POCL compiles
 * a kernel again for every tile shape).
 *
 * Each thread of a tile gives one value; the kernel writes, per thread, amp_tile_reduce with sum,
 * min and max, amp_tile_scan_inclusive and _exclusive with sum, amp_tile_scan_exclusive_total with
 * max and its total, amp_tile_broadcast from a thread that differs per tile, and the reduce and
 * inclusive scan of an operator of its own (AMP_TILE_COLLECTIVES: xor for the integers, the larger
 * by a comparison for float and double). The host computes the same in the order the header
 * documents (the reduce's tree, Hillis and Steele's scan), so float and double results must have
 * the same bits: their values have 24 and 53 significant bits of every size, and the order shows.
 * uint and ulong sums wrap around. The 1-D tiles run twice: in a kernel that declares no tiled
 * index (positions from get_local_id(0), (1) and (2)) and after AMP_TILED_INDEX1 (positions from
 * get_local_id(0) alone). int runs at the default bound on tiles
 * (AMP_TILE_COLLECTIVES_MAX, 1024), the other types at -DAMP_TILE_COLLECTIVES_MAX=256. */
#include "check.h"

#include <stdint.h>

/* Every kernel's ten outputs for element g in tile `tile`, and the tile in where[g][0]. */
#define BODY                                                                                       \
  "  const T x = amp_at(in, g);\n"                                                                 \
  "  T total;\n"                                                                                   \
  "  amp_at(out, g, 0) = amp_tile_reduce(T, sum, x, sh);\n"                                        \
  "  amp_at(out, g, 1) = amp_tile_reduce(T, min, x, sh);\n"                                        \
  "  amp_at(out, g, 2) = amp_tile_reduce(T, max, x, sh);\n"                                        \
  "  amp_at(out, g, 3) = amp_tile_scan_inclusive(T, sum, x, sh);\n"                                \
  "  amp_at(out, g, 4) = amp_tile_scan_exclusive(T, sum, x, sh);\n"                                \
  "  amp_at(out, g, 5) = amp_tile_scan_exclusive_total(T, max, x, sh, &total);\n"                  \
  "  amp_at(out, g, 6) = total;\n"                                                                 \
  "  amp_at(out, g, 7) = amp_tile_broadcast(T, x, (tile * mul) % amp_tile_size(), sh);\n"          \
  "  amp_at(out, g, 8) = amp_tile_reduce(T, custom, x, sh);\n"                                     \
  "  amp_at(out, g, 9) = amp_tile_scan_inclusive(T, custom, x, sh);\n"                             \
  "  amp_at(where, g, 0) = tile;\n"

static const char *source =
    "#if defined(T_INT)\n"
    "#define CUSTOM(a, b) ((a) ^ (b))\n"
    "AMP_TILE_COLLECTIVES(T, custom, 0, CUSTOM)\n"
    "#else\n"
    "#define CUSTOM(a, b) ((a) > (b) ? (a) : (b))\n"
    "AMP_TILE_COLLECTIVES(T, custom, -INFINITY, CUSTOM)\n"
    "#endif\n"
    "__kernel void coll(AMP_CONST_VIEW(T, in), AMP_VIEW(T, out), AMP_VIEW(int, where), int mul) {\n"
    "  tile_static T sh[256];\n"
    "  const int g = (int)(get_global_id(0) + get_global_size(0) * (get_global_id(1) +\n"
    "                      get_global_size(1) * get_global_id(2)));\n"
    "  const int tile = (int)(get_group_id(0) + get_num_groups(0) * (get_group_id(1) +\n"
    "                         get_num_groups(1) * get_group_id(2)));\n" BODY
    "  amp_at(where, g, 1) = amp_tile_linear_id();\n"
    "}\n"
    /* the same in 1-D tiles, declared by AMP_TILED_INDEX1: positions from get_local_id(0) */
    "__kernel void coll1(AMP_CONST_VIEW(T, in), AMP_VIEW(T, out), AMP_VIEW(int, where), int mul) "
    "{\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static T sh[256];\n"
    "  const int g = idx.global_id[0], tile = idx.tile[0];\n" BODY
    "  amp_at(where, g, 1) = idx.local_id[0];\n"
    "}\n";

#define NOUT 10

typedef struct {
  int rank;
  int ext[3], tile[3]; /* AMP order */
  int tier; /* SMALL: every run; CPU: also on a CPU device's full pass; GPU: where test_full() */
} shape;

/* Where a shape runs: POCL compiles every kernel again for each tile shape (about 1.2 s a shape
 * and type on the 2-core CI machine, 144 s for all of them), so a CPU device's own pass runs the
 * small shapes and the largest tile, and a GPU every shape. */
enum { GPU = 0, SMALL = 1, CPU = 2 };
static const shape shapes[] = {{1, {3}, {1}, GPU},           {1, {21}, {7}, SMALL},
                               {1, {96}, {32}, GPU},         {1, {192}, {64}, SMALL},
                               {1, {384}, {96}, GPU},        {1, {512}, {128}, GPU},
                               {1, {1024}, {256}, CPU},      {2, {16, 36}, {8, 12}, SMALL},
                               {2, {32, 48}, {16, 16}, GPU}, {3, {4, 8, 16}, {2, 4, 8}, SMALL}};

/* The host's collectives over one tile's n values v[] (in the threads' order), in the header's
 * order, for one C type. */
#define HOST_COLLECTIVES(C, SUF, ADD, MIN, MAX, CUSTOM, CUSTOM_ID, LOWEST, HIGHEST)                \
  static C SUF##_reduce(const C *v, int n, int op) {                                               \
    C sh[256];                                                                                     \
    memcpy(sh, v, (size_t)n * sizeof *sh);                                                         \
    int top = 1;                                                                                   \
    while (top < n)                                                                                \
      top <<= 1;                                                                                   \
    for (int s = top >> 1; s > 0; s >>= 1)                                                         \
      for (int l = 0; l < s && l + s < n; l++)                                                     \
        sh[l] = op == 0   ? ADD(sh[l], sh[l + s])                                                  \
                : op == 1 ? MIN(sh[l], sh[l + s])                                                  \
                : op == 2 ? MAX(sh[l], sh[l + s])                                                  \
                          : CUSTOM(sh[l], sh[l + s]);                                              \
    return sh[0];                                                                                  \
  }                                                                                                \
  /* inclusive scan into incl[] */                                                                 \
  static void SUF##_scan(const C *v, int n, int op, C *incl) {                                     \
    C next[256];                                                                                   \
    memcpy(incl, v, (size_t)n * sizeof *incl);                                                     \
    for (int off = 1; off < n; off <<= 1) {                                                        \
      for (int l = 0; l < n; l++)                                                                  \
        next[l] = l < off   ? incl[l]                                                              \
                  : op == 0 ? ADD(incl[l - off], incl[l])                                          \
                  : op == 2 ? MAX(incl[l - off], incl[l])                                          \
                            : CUSTOM(incl[l - off], incl[l]);                                      \
      memcpy(incl, next, (size_t)n * sizeof *incl);                                                \
    }                                                                                              \
  }                                                                                                \
  /* want[l][k]: the kernel's ten outputs for thread l of tile `tile` */                           \
  static void SUF##_tile(const C *v, int n, int tile, int mul, C want[][NOUT]) {                   \
    C incl_sum[256], incl_max[256], incl_custom[256];                                              \
    SUF##_scan(v, n, 0, incl_sum);                                                                 \
    SUF##_scan(v, n, 2, incl_max);                                                                 \
    SUF##_scan(v, n, 3, incl_custom);                                                              \
    const C sum = SUF##_reduce(v, n, 0), lo = SUF##_reduce(v, n, 1), hi = SUF##_reduce(v, n, 2),   \
            custom = SUF##_reduce(v, n, 3);                                                        \
    for (int l = 0; l < n; l++) {                                                                  \
      want[l][0] = sum;                                                                            \
      want[l][1] = lo;                                                                             \
      want[l][2] = hi;                                                                             \
      want[l][3] = incl_sum[l];                                                                    \
      want[l][4] = l ? incl_sum[l - 1] : (C)0;                                                     \
      want[l][5] = l ? incl_max[l - 1] : LOWEST;                                                   \
      want[l][6] = incl_max[n - 1];                                                                \
      want[l][7] = v[(tile * mul) % n];                                                            \
      want[l][8] = custom;                                                                         \
      want[l][9] = incl_custom[l];                                                                 \
    }                                                                                              \
    (void)(HIGHEST);                                                                               \
    (void)(CUSTOM_ID);                                                                             \
  }                                                                                                \
  /* the same over raw elements, for the table of the types below */                               \
  static void SUF##_tile_raw(const void *v, int n, int tile, int mul, void *want) {                \
    SUF##_tile((const C *)v, n, tile, mul, (C(*)[NOUT])want);                                      \
  }

#define ADD(a, b)    ((a) + (b))
#define IMIN(a, b)   ((a) < (b) ? (a) : (b))
#define IMAX(a, b)   ((a) > (b) ? (a) : (b))
#define XOR(a, b)    ((a) ^ (b))
#define LARGER(a, b) ((a) > (b) ? (a) : (b))
HOST_COLLECTIVES(int32_t, i32, ADD, IMIN, IMAX, XOR, 0, INT32_MIN, INT32_MAX)
HOST_COLLECTIVES(uint32_t, u32, ADD, IMIN, IMAX, XOR, 0, 0u, UINT32_MAX)
HOST_COLLECTIVES(int64_t, i64, ADD, IMIN, IMAX, XOR, 0, INT64_MIN, INT64_MAX)
HOST_COLLECTIVES(uint64_t, u64, ADD, IMIN, IMAX, XOR, 0, 0u, UINT64_MAX)
HOST_COLLECTIVES(float, f32, ADD, fminf, fmaxf, LARGER, -INFINITY, -INFINITY, INFINITY)
HOST_COLLECTIVES(double, f64, ADD, fmin, fmax, LARGER, -INFINITY, -INFINITY, INFINITY)

/* The host's outputs of a tile by type index, in the order of main's elems. */
static void (*const host_tile[6])(const void *v, int n, int tile, int mul, void *want) = {
    i32_tile_raw, u32_tile_raw, i64_tile_raw, u64_tile_raw, f32_tile_raw, f64_tile_raw};

typedef struct {
  const char *cl, *opts;
  amp_elem_type type;
  size_t size;
} elem;

static uint64_t hash(uint64_t i) {
  i = (i + 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
  i = (i ^ (i >> 31)) * 0x94d049bb133111ebull;
  return i ^ (i >> 29);
}

/* Element i's value for type index t: ints of both signs, uints and ulongs near the top (sums
 * wrap), longs up to 2^40, floats and doubles of every size in [-1000, 1000). */
static void value(int t, uint64_t i, void *out) {
  uint64_t h = hash(i);
  switch (t) {
  case 0:
    *(int32_t *)out = (int32_t)(h % 2000001) - 1000000;
    break;
  case 1:
    *(uint32_t *)out = (uint32_t)h | 0x80000000u;
    break;
  case 2:
    *(int64_t *)out = (int64_t)(h % (1ull << 41)) - (int64_t)(1ull << 40);
    break;
  case 3:
    *(uint64_t *)out = h | (1ull << 63);
    break;
  case 4:
    *(float *)out = (float)((double)(h >> 11) * 0x1.0p-53 * 2000.0 - 1000.0);
    break;
  default:
    *(double *)out = (double)(h >> 11) * 0x1.0p-53 * 2000.0 - 1000.0;
    break;
  }
}

static void check_type(amp_accelerator_view *av, int t, const elem *e) {
  amp_program *p = NULL;
  amp_kernel *k = NULL, *k1 = NULL;
  char opts[96];
  /* int at the default bound on tiles (1024), the others at 256, which the largest tile here
   * reaches: a shorter run on a CPU device, and both settings checked */
  snprintf(opts, sizeof opts, "-DT=%s %s%s", e->cl, e->opts,
           t == 0 ? "" : " -DAMP_TILE_COLLECTIVES_MAX=256");
  CHECK_OK(amp_program_create(source, opts, &p));
  if (p) {
    CHECK_OK(amp_kernel_create(p, "coll", &k));
    CHECK_OK(amp_kernel_create(p, "coll1", &k1));
  }
  amp_program_release(p);
  if (!k || !k1) {
    amp_kernel_release(k);
    amp_kernel_release(k1);
    return;
  }
  for (size_t run = 0; run < 2 * sizeof shapes / sizeof shapes[0]; run++) {
    /* each shape with `coll`, the 1-D ones also with `coll1` */
    const size_t s = run / 2;
    const shape *sh = &shapes[s];
    amp_kernel *kern = run % 2 ? k1 : k;
    if ((test_small() && sh->tier != SMALL) || (!test_full() && sh->tier == GPU) ||
        (run % 2 && sh->rank != 1))
      continue;
    if (test_tile_allowed(av, kern, sh->rank, sh->tile) == TEST_TILE_ABOVE_DEVICE) {
      printf("%s: a tile of %d x %d x %d is above what the device allows: not run\n",
             run % 2 ? "coll1" : "coll", sh->tile[0], sh->rank > 1 ? sh->tile[1] : 1,
             sh->rank > 2 ? sh->tile[2] : 1);
      continue;
    }
    int n = 1, threads = 1;
    for (int d = 0; d < sh->rank; d++) {
      n *= sh->ext[d];
      threads *= sh->tile[d];
    }
    unsigned char *in = malloc((size_t)n * e->size), *out = calloc((size_t)n * NOUT, e->size);
    int *where = calloc((size_t)n * 2, sizeof *where);
    for (int i = 0; i < n; i++)
      value(t, (uint64_t)(i + 1000 * s), in + (size_t)i * e->size);
    amp_array_view *vin = NULL, *vout = NULL, *vwhere = NULL;
    CHECK_OK(amp_array_view_create_const(amp_extent1(n), e->type, in, &vin));
    CHECK_OK(amp_array_view_create(amp_extent2(n, NOUT), e->type, out, &vout));
    CHECK_OK(amp_array_view_create(amp_extent2(n, 2), AMP_INT32, where, &vwhere));
    const int mul = 5;
    amp_arg args[] = {amp_arg_view(vin), amp_arg_view(vout), amp_arg_view(vwhere),
                      amp_arg_int(mul)};
    amp_launch l = {amp_extent1(n), 1, {0, 0, 0}, kern, args, AMP_NARGS(args)};
    l.domain.rank = sh->rank;
    for (int d = 0; d < sh->rank; d++) {
      l.domain.dim[d] = sh->ext[d];
      l.tile[d] = sh->tile[d];
    }
    CHECK_OK(amp_parallel_for_each_ex(av, &l, NULL));
    CHECK_OK(amp_array_view_synchronize(vout));
    CHECK_OK(amp_array_view_synchronize(vwhere));
    /* the tile's values in thread order, then the host's answers */
    int tiles = n / threads, bad = 0;
    unsigned char *v = malloc((size_t)threads * e->size),
                  *want = malloc((size_t)threads * NOUT * 8);
    int *at = malloc((size_t)threads * sizeof *at);
    for (int tile = 0; tile < tiles && !bad; tile++) {
      int found = 0;
      for (int g = 0; g < n; g++)
        if (where[2 * g] == tile && where[2 * g + 1] >= 0 && where[2 * g + 1] < threads) {
          at[where[2 * g + 1]] = g;
          memcpy(v + (size_t)where[2 * g + 1] * e->size, in + (size_t)g * e->size, e->size);
          found++;
        }
      if (found != threads) {
        fprintf(stderr, "tile %d: %d threads reported it, expected %d\n", tile, found, threads);
        bad = 1;
        break;
      }
      host_tile[t](v, threads, tile, mul, want);
      for (int lid = 0; lid < threads && !bad; lid++)
        for (int c = 0; c < NOUT && !bad; c++)
          if (memcmp(out + ((size_t)at[lid] * NOUT + c) * e->size,
                     want + ((size_t)lid * NOUT + c) * e->size, e->size) != 0) {
            fprintf(stderr,
                    "%s, %s, %d-D tile of %d threads: tile %d thread %d output %d differs\n", e->cl,
                    run % 2 ? "coll1" : "coll", sh->rank, threads, tile, lid, c);
            bad = 1;
          }
    }
    CHECK_EQ_INT(bad, 0);
    amp_array_view_release(vin);
    amp_array_view_release(vout);
    amp_array_view_release(vwhere);
    free(in);
    free(out);
    free(where);
    free(v);
    free(want);
    free(at);
  }
  amp_kernel_release(k);
  amp_kernel_release(k1);
}

int main(void) {
  REQUIRE_TEST_DEVICE_VIEW(av);
  amp_accelerator_properties props;
  REQUIRE_OK(test_props(av, &props));
  const elem elems[] = {
      {"int", "-DT_INT", AMP_INT32, 4},  {"uint", "-DT_INT", AMP_UINT32, 4},
      {"long", "-DT_INT", AMP_INT64, 8}, {"ulong", "-DT_INT", AMP_UINT64, 8},
      {"float", "", AMP_FLOAT, 4},       {"double", "", AMP_DOUBLE, 8},
  };
  for (int t = 0; t < 6; t++) {
    if (t == 5 && !props.supports_double_precision)
      continue;
    check_type(av, t, &elems[t]);
  }
  return check_done();
}
