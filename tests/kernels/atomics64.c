/* kernel_atomics64: the prelude's atomics on 64-bit long and ulong (kernels_cl/prelude/
 * ampcl_atomics.h), in global and tile_static memory, where the device lists the extensions, and a
 * build error naming the missing extension and the device where it does not.
 *
 * Which extensions the device has is read from its own answer (CL_DEVICE_EXTENSIONS), lowered by
 * AMP_DEVICE_LIMITS' int64_atomics=N where a run sets it (kernel_atomics64.none, .base), which is
 * how devices without them are tested here. With cl_khr_int64_base_atomics every work item hits
 * one counter with add, sub, inc, dec and exchange, with operands above 2^32: the values returned
 * plus the final one must be, as a multiset, the initial value plus op(returned, operand) for each
 * work item (the chain check of kernel_atomics), and fetch_inc returns a permutation of the values
 * from the start; compare-exchange loops build a maximum; tile_static counters sum each tile. With
 * cl_khr_int64_extended_atomics the same for min, max, and, or and xor (signed and unsigned told
 * apart by operands of both signs). Without one, building a kernel that uses its functions fails
 * with AMP_ERROR_BUILD_FAILED naming the extension and the device. */
#include <ampcl/opencl.h>
#include <stdint.h>

#include "check.h"

enum { N = 4096, TILE_MAX = 64 };
/* The tile of tile_op: 64 threads, or the device's limit where that is smaller (AMP_DEVICE_LIMITS
 * tile=32 in .ci/faults.sh). */
static int tile = TILE_MAX;

static amp_accelerator_view *av;
static char device_path[256];

/* T is long or ulong (-DT=...); OP selects the operation. */
static const char *src =
    "__kernel void rmw(AMP_VIEW(T, c), AMP_CONST_VIEW(T, v), AMP_VIEW(T, old)) {\n"
    "  AMP_INDEX1(i);\n"
    "  volatile __global T *p = &amp_at(c, 0);\n"
    "  const T x = amp_at(v, i[0]);\n"
    "  T r;\n"
    "#if OP == 0\n"
    "  r = amp_atomic_fetch_add(p, x);\n"
    "#elif OP == 1\n"
    "  r = amp_atomic_fetch_sub(p, x);\n"
    "#elif OP == 2\n"
    "  r = amp_atomic_fetch_inc(p);\n"
    "#elif OP == 3\n"
    "  r = amp_atomic_fetch_dec(p);\n"
    "#elif OP == 4\n"
    "  r = amp_atomic_exchange(p, x);\n"
    "#elif OP == 5\n"
    "  r = amp_atomic_fetch_max(p, x);\n"
    "#elif OP == 6\n"
    "  r = amp_atomic_fetch_min(p, x);\n"
    "#elif OP == 7\n"
    "  r = amp_atomic_fetch_and(p, x);\n"
    "#elif OP == 8\n"
    "  r = amp_atomic_fetch_or(p, x);\n"
    "#else\n"
    "  r = amp_atomic_fetch_xor(p, x);\n"
    "#endif\n"
    "  amp_at(old, i[0]) = r;\n"
    "}\n"
    /* a maximum by compare-exchange, the expected value in private memory */
    "__kernel void cas_max(AMP_VIEW(T, c), AMP_CONST_VIEW(T, v)) {\n"
    "  AMP_INDEX1(i);\n"
    "  const T mine = amp_at(v, i[0]);\n"
    "  T seen = 0;\n"
    "  while (seen < mine && !amp_atomic_compare_exchange(&amp_at(c, 0), &seen, mine)) {}\n"
    "}\n"
    /* per tile: a tile_static counter, added to (OP 0) or maxed (OP 5) by every thread */
    "AMP_TILE_SHAPE(TILE) __kernel void tile_op(AMP_CONST_VIEW(T, v), AMP_VIEW(T, out)) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static T acc;\n"
    "  if (idx.local_id[0] == 0) acc = amp_at(v, idx.tile_origin[0]);\n"
    "  amp_barrier_wait();\n"
    "  if (idx.local_id[0] != 0) {\n"
    "#if OP == 5\n"
    "    amp_atomic_fetch_max(&acc, amp_at(v, idx.global_id[0]));\n"
    "#else\n"
    "    amp_atomic_fetch_add(&acc, amp_at(v, idx.global_id[0]));\n"
    "#endif\n"
    "  }\n"
    "  amp_barrier_wait();\n"
    "  if (idx.local_id[0] == 0) amp_at(out, idx.tile[0]) = acc;\n"
    "}\n";

static const char *op_name[] = {"add", "sub", "inc", "dec", "exchange",
                                "max", "min", "and", "or",  "xor"};

/* op on 64-bit values as the device computes it, signed (is_signed) or not */
static uint64_t apply(int op, uint64_t a, uint64_t x, int is_signed) {
  switch (op) {
  case 0:
    return a + x;
  case 1:
    return a - x;
  case 2:
    return a + 1;
  case 3:
    return a - 1;
  case 4:
    return x;
  case 5:
    return is_signed ? ((int64_t)a > (int64_t)x ? a : x) : (a > x ? a : x);
  case 6:
    return is_signed ? ((int64_t)a < (int64_t)x ? a : x) : (a < x ? a : x);
  case 7:
    return a & x;
  case 8:
    return a | x;
  default:
    return a ^ x;
  }
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The level the device has: 0 none, 1 base, 2 extended too; lowered by the run's
 * AMP_DEVICE_LIMITS int64_atomics=N. */
static int device_level(void) {
  amp_accelerator *acc = NULL;
  cl_device_id d = NULL;
  char ext[8192] = "";
  if (amp_accelerator_view_get_accelerator(av, &acc) || amp_accelerator_get_cl_device(acc, &d) ||
      clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL) != CL_SUCCESS)
    return -1;
  int level = !strstr(ext, "cl_khr_int64_base_atomics")       ? 0
              : !strstr(ext, "cl_khr_int64_extended_atomics") ? 1
                                                              : 2;
  const char *lim = getenv("AMP_DEVICE_LIMITS"), *at = lim ? strstr(lim, "int64_atomics=") : NULL;
  if (at && at[14] >= '0' && at[14] - '0' < level)
    level = at[14] - '0';
  return level;
}

static amp_kernel *kernel(const char *name, const char *type, int op, amp_status *built) {
  char opts[64];
  snprintf(opts, sizeof opts, "-DT=%s -DOP=%d -DTILE=%d", type, op, tile);
  amp_program *p = NULL;
  amp_kernel *k = NULL;
  amp_accelerator *acc = NULL;
  *built = amp_program_create(src, opts, &p);
  if (*built == AMP_SUCCESS)
    *built = amp_accelerator_view_get_accelerator(av, &acc);
  if (*built == AMP_SUCCESS) /* built here, for the error, not at the first launch */
    *built = amp_program_build(p, acc);
  if (*built == AMP_SUCCESS)
    *built = amp_kernel_create(p, name, &k);
  amp_program_release(p);
  return k;
}

/* Every work item applies op to one counter: the chain check. */
static void chain(int op, int is_signed) {
  static uint64_t v[N], old[N], a[N + 1], b[N + 1];
  uint64_t init = is_signed ? (uint64_t) - ((int64_t)1 << 40) + 12345 : ((uint64_t)1 << 40) + 12345;
  uint64_t c = init;
  for (int i = 0; i < N; i++) {
    uint64_t big = ((uint64_t)(i * 2654435761u) << 21) ^ (uint64_t)i; /* above 2^32 */
    v[i] = op == 7 ? ~((uint64_t)1 << (i % 64)) : op >= 8 ? (uint64_t)1 << (i % 64) : big;
    if (is_signed && i % 2 && op >= 5 && op <= 6)
      v[i] = (uint64_t) - (int64_t)v[i];
  }
  amp_status built;
  amp_kernel *k = kernel("rmw", is_signed ? "long" : "ulong", op, &built);
  CHECK_OK(built);
  if (built != AMP_SUCCESS) {
    amp_kernel_release(k);
    return;
  }
  amp_array_view *vc = NULL, *vv = NULL, *vo = NULL;
  amp_elem_type t = is_signed ? AMP_INT64 : AMP_UINT64;
  CHECK_OK(amp_array_view_create(amp_extent1(1), t, &c, &vc));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), t, v, &vv));
  CHECK_OK(amp_array_view_create(amp_extent1(N), t, old, &vo));
  amp_arg args[] = {amp_arg_view(vc), amp_arg_view(vv), amp_arg_view(vo)};
  CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 3));
  CHECK_OK(amp_array_view_synchronize(vc));
  CHECK_OK(amp_array_view_synchronize(vo));
  for (int i = 0; i < N; i++) {
    a[i] = old[i];
    b[i] = apply(op, old[i], v[i], is_signed);
  }
  a[N] = c;
  b[N] = init;
  qsort(a, N + 1, sizeof *a, cmp_u64);
  qsort(b, N + 1, sizeof *b, cmp_u64);
  int bad = memcmp(a, b, sizeof a) != 0;
  if (op == 2) { /* fetch_inc: a permutation of init .. init + N - 1 */
    qsort(old, N, sizeof *old, cmp_u64);
    for (int i = 0; i < N; i++)
      bad += old[i] != init + (uint64_t)i;
  }
  if (bad)
    fprintf(stderr, "%s on %s: the values returned are not a chain of the operation\n", op_name[op],
            is_signed ? "long" : "ulong");
  CHECK_EQ_INT(bad, 0);
  amp_array_view_release(vc);
  amp_array_view_release(vv);
  amp_array_view_release(vo);
  amp_kernel_release(k);
}

/* The maximum by compare-exchange (base), and a tile_static sum or max per tile. */
static void cas_and_tiles(int with_max) {
  static int64_t v[N], out[N];
  int64_t c = 0, want = 0;
  for (int i = 0; i < N; i++) {
    v[i] = ((int64_t)(i * 7919 % N) << 34) + i;
    want = v[i] > want ? v[i] : want;
  }
  amp_status built;
  amp_kernel *k = kernel("cas_max", "long", 0, &built);
  CHECK_OK(built);
  amp_array_view *vc = NULL, *vv = NULL, *vo = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(1), AMP_INT64, &c, &vc));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), AMP_INT64, v, &vv));
  CHECK_OK(amp_array_view_create(amp_extent1(N / tile), AMP_INT64, out, &vo));
  amp_arg args[] = {amp_arg_view(vc), amp_arg_view(vv)};
  if (built == AMP_SUCCESS) {
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, args, 2));
    CHECK_OK(amp_array_view_synchronize(vc));
    CHECK(c == want);
  }
  amp_kernel_release(k);
  for (int op = 0; op <= (with_max ? 5 : 0); op += 5) {
    k = kernel("tile_op", "long", op, &built);
    CHECK_OK(built);
    amp_arg targs[] = {amp_arg_view(vv), amp_arg_view(vo)};
    if (built == AMP_SUCCESS) {
      CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, targs, 2)); /* the kernel's tile */
      CHECK_OK(amp_array_view_synchronize(vo));
      int bad = 0;
      for (int t = 0; t < N / tile; t++) {
        int64_t r = v[t * tile];
        for (int i = 1; i < tile; i++)
          r = op ? (v[t * tile + i] > r ? v[t * tile + i] : r) : r + v[t * tile + i];
        bad += out[t] != r;
      }
      CHECK_EQ_INT(bad, 0);
    }
    amp_kernel_release(k);
  }
  amp_array_view_release(vc);
  amp_array_view_release(vv);
  amp_array_view_release(vo);
}

/* A kernel using op where its extension is missing: refused at the build, naming it and the
 * device. */
static void refused(int op, const char *extension) {
  amp_status built;
  amp_kernel *k = kernel("rmw", "ulong", op, &built);
  CHECK_STATUS(built, AMP_ERROR_BUILD_FAILED);
  CHECK_MSG(extension);
  CHECK_MSG(device_path);
  amp_kernel_release(k);
}

int main(void) {
  av = test_view();
  if (!av)
    return 1;
  amp_accelerator_properties props;
  REQUIRE_OK(test_props(av, &props));
  snprintf(device_path, sizeof device_path, "%s", props.device_path);
  if (props.max_tile_size < TILE_MAX)
    tile = (int)props.max_tile_size;
  int level = device_level();
  CHECK(level >= 0);
  printf("%s: 64-bit atomics level %d (0 none, 1 base, 2 extended)\n", device_path, level);
  for (int op = 0; op <= 9; op++) {
    int needs = op <= 4 ? 1 : 2;
    if (level < needs) {
      refused(op, needs == 1 ? "cl_khr_int64_base_atomics" : "cl_khr_int64_extended_atomics");
      continue;
    }
    chain(op, 0);
    chain(op, 1);
  }
  if (level >= 1)
    cas_and_tiles(level >= 2);
  return check_done();
}
