/* kernel_atomics: the prelude's atomics (kernels_cl/prelude/ampcl_atomics.h) under contention, on
 * int and unsigned, in global and tile_static memory, and on float.
 *
 * Every work item of many tiles hits one counter. For each read-modify-write operation the values
 * it returned are checked, not only the counter's final value: an atomic operation run n times
 * takes the counter through a chain init -> c1 -> ... -> final, and returns the value before each
 * step, so the returned values plus the final one must be, as a multiset, exactly the values each
 * step produced (op(returned, operand), computed on the host) plus the initial one. fetch_add of 1
 * must also return a permutation of 0..n-1. Signed and unsigned max and min are told apart by
 * operands that differ as int and as uint. compare_exchange: of n work items trying to swap the
 * same expected value, exactly one wins and every loser gets the winner's value back in
 * *expected (private, global and tile_static expected values); a compare-exchange loop builds a
 * lock-free max. Float add (a CAS loop) is checked bit for bit along the chain and its total
 * exactly (the operands are multiples of 1/8 whose sum float holds exactly). */
#include <stdint.h>

#include "check.h"

enum { N = 1 << 14, MAX_TILE = 256 };
/* the tile_static tests' tile: 256 threads, or the most (a power of two) the device allows */
static int TILE = MAX_TILE, TILES = N / MAX_TILE;

static amp_accelerator_view *av;

/* T is int or uint (-DT=...). APPLY(r, p, x, op): r = the atomic operation `op` on *p with x. */
static const char *int_src =
    "#define APPLY(r, p, x, op) switch (op) { \\\n"
    "  case 0: r = amp_atomic_fetch_add(p, x); break; \\\n"
    "  case 1: r = amp_atomic_fetch_sub(p, x); break; \\\n"
    "  case 2: r = amp_atomic_fetch_inc(p); break; \\\n"
    "  case 3: r = amp_atomic_fetch_dec(p); break; \\\n"
    "  case 4: r = amp_atomic_fetch_max(p, x); break; \\\n"
    "  case 5: r = amp_atomic_fetch_min(p, x); break; \\\n"
    "  case 6: r = amp_atomic_fetch_and(p, x); break; \\\n"
    "  case 7: r = amp_atomic_fetch_or(p, x); break; \\\n"
    "  case 8: r = amp_atomic_fetch_xor(p, x); break; \\\n"
    "  default: r = amp_atomic_exchange(p, x); break; }\n"
    "__kernel void rmw(AMP_VIEW(T, c), AMP_CONST_VIEW(T, v), AMP_VIEW(T, old), int op) {\n"
    "  AMP_INDEX1(idx);\n"
    "  T r;\n"
    "  APPLY(r, &amp_at(c, 0), amp_at(v, idx[0]), op);\n"
    "  amp_at(old, idx[0]) = r;\n"
    "}\n"
    "/* the same on a tile_static counter per tile, loaded from and stored to c[tile] */\n"
    "__kernel void rmw_tile(AMP_VIEW(T, c), AMP_CONST_VIEW(T, v), AMP_VIEW(T, old), int op) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static T t;\n"
    "  if (idx.local_id[0] == 0) t = amp_at(c, idx.tile[0]);\n"
    "  amp_barrier_wait();\n"
    "  T r;\n"
    "  APPLY(r, &t, amp_at(v, idx.global_id[0]), op);\n"
    "  amp_at(old, idx.global_id[0]) = r;\n"
    "  amp_barrier_wait();\n"
    "  if (idx.local_id[0] == 0) amp_at(c, idx.tile[0]) = t;\n"
    "}\n"
    "/* every work item swaps i+1 for the same expected value: private (mode 0) or global */\n"
    "__kernel void cas_once(AMP_VIEW(T, c), AMP_VIEW(T, expected), AMP_VIEW(int, won), int mode) "
    "{\n"
    "  AMP_INDEX1(idx);\n"
    "  const int i = idx[0];\n"
    "  if (mode == 0) {\n"
    "    T e = amp_at(expected, i);\n"
    "    amp_at(won, i) = amp_atomic_compare_exchange(&amp_at(c, 0), &e, (T)(i + 1));\n"
    "    amp_at(expected, i) = e;\n"
    "  } else {\n"
    "    amp_at(won, i) = amp_atomic_compare_exchange(&amp_at(c, 0), &amp_at(expected, i), (T)(i "
    "+ 1));\n"
    "  }\n"
    "}\n"
    "/* the same on a tile_static location, with tile_static expected values */\n"
    "__kernel void cas_tile(AMP_VIEW(T, c), AMP_VIEW(T, expected), AMP_VIEW(int, won)) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static T t;\n"
    "  tile_static T e[256];\n"
    "  const int l = idx.local_id[0], i = idx.global_id[0];\n"
    "  if (l == 0) t = amp_at(c, idx.tile[0]);\n"
    "  e[l] = amp_at(expected, i);\n"
    "  amp_barrier_wait();\n"
    "  amp_at(won, i) = amp_atomic_compare_exchange(&t, &e[l], (T)(i + 1));\n"
    "  amp_at(expected, i) = e[l];\n"
    "  amp_barrier_wait();\n"
    "  if (l == 0) amp_at(c, idx.tile[0]) = t;\n"
    "}\n"
    "/* a lock-free max from compare_exchange: the retry loop needs no re-read */\n"
    "__kernel void cas_max(AMP_VIEW(T, best), AMP_CONST_VIEW(T, v)) {\n"
    "  AMP_INDEX1(idx);\n"
    "  const T mine = amp_at(v, idx[0]);\n"
    "  T seen = amp_at(best, 0);\n"
    "  while (seen < mine && !amp_atomic_compare_exchange(&amp_at(best, 0), &seen, mine)) {}\n"
    "}\n";

static const char *float_src =
    "__kernel void frmw(AMP_VIEW(float, c), AMP_CONST_VIEW(float, v), AMP_VIEW(float, old),\n"
    "                   int op) {\n"
    "  AMP_INDEX1(idx);\n"
    "  const float x = amp_at(v, idx[0]);\n"
    "  amp_at(old, idx[0]) = op == 0 ? amp_atomic_fetch_add(&amp_at(c, 0), x)\n"
    "                                : amp_atomic_exchange(&amp_at(c, 0), x);\n"
    "}\n"
    "__kernel void frmw_tile(AMP_VIEW(float, c), AMP_CONST_VIEW(float, v), AMP_VIEW(float, old),\n"
    "                        int op) {\n"
    "  AMP_TILED_INDEX1(idx);\n"
    "  tile_static float t;\n"
    "  if (idx.local_id[0] == 0) t = amp_at(c, idx.tile[0]);\n"
    "  amp_barrier_wait();\n"
    "  const float x = amp_at(v, idx.global_id[0]);\n"
    "  amp_at(old, idx.global_id[0]) = op == 0 ? amp_atomic_fetch_add(&t, x)\n"
    "                                          : amp_atomic_exchange(&t, x);\n"
    "  amp_barrier_wait();\n"
    "  if (idx.local_id[0] == 0) amp_at(c, idx.tile[0]) = t;\n"
    "}\n";

enum { OP_ADD, OP_SUB, OP_INC, OP_DEC, OP_MAX, OP_MIN, OP_AND, OP_OR, OP_XOR, OP_XCHG, NOPS };
static const char *op_names[NOPS] = {"add", "sub", "inc", "dec", "max",
                                     "min", "and", "or",  "xor", "exchange"};

static uint32_t lcg_state = 12345u;
static uint32_t lcg(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state;
}

static float as_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static uint32_t as_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* The value op leaves in a location that held a (signed: int semantics for max and min). Op -1 is
 * float add. */
static uint32_t host_op(int op, int is_signed, uint32_t a, uint32_t x) {
  switch (op) {
  case -1:
    return as_bits(as_float(a) + as_float(x));
  case OP_ADD:
    return a + x;
  case OP_SUB:
    return a - x;
  case OP_INC:
    return a + 1u;
  case OP_DEC:
    return a - 1u;
  case OP_MAX:
    return is_signed ? ((int32_t)a > (int32_t)x ? a : x) : (a > x ? a : x);
  case OP_MIN:
    return is_signed ? ((int32_t)a < (int32_t)x ? a : x) : (a < x ? a : x);
  case OP_AND:
    return a & x;
  case OP_OR:
    return a | x;
  case OP_XOR:
    return a ^ x;
  default:
    return x;
  }
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The returned values `old` of n operations (operands v) that took a location from init to fin
 * form one chain of steps: {old} + {fin} == {op(old_i, v_i)} + {init} as multisets. */
static int chain_ok(int op, int is_signed, uint32_t init, uint32_t fin, const uint32_t *v,
                    const uint32_t *old, size_t n) {
  uint32_t *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
  int ok = a && b;
  for (size_t i = 0; ok && i < n; i++) {
    a[i] = old[i];
    b[i] = host_op(op, is_signed, old[i], v[i]);
  }
  if (ok) {
    a[n] = fin;
    b[n] = init;
    qsort(a, n + 1, sizeof *a, cmp_u32);
    qsort(b, n + 1, sizeof *b, cmp_u32);
    ok = memcmp(a, b, (n + 1) * sizeof *a) == 0;
  }
  free(a);
  free(b);
  return ok;
}

/* The operands and initial value for op: chosen so that each operation's result depends on them
 * (and on signedness, for max and min). */
static uint32_t operands(int op, uint32_t *v, size_t n, int is_signed) {
  for (size_t i = 0; i < n; i++) {
    uint32_t perm = (uint32_t)((i * 7919u) % n);
    switch (op) {
    case OP_MAX:
    case OP_MIN:
      v[i] = perm - (uint32_t)(n / 2); /* negative as int, huge as uint */
      break;
    case OP_AND:
      v[i] = lcg() | lcg() | lcg();
      break;
    case OP_OR:
      v[i] = lcg() & lcg() & lcg();
      break;
    case OP_XOR:
      v[i] = lcg();
      break;
    case OP_XCHG:
      v[i] = (uint32_t)i * 2654435761u + 1u;
      break;
    default:
      v[i] = 1u;
    }
  }
  switch (op) {
  case OP_SUB:
    return (uint32_t)n;
  case OP_INC:
    return is_signed ? 0u : 0xffffffffu - (uint32_t)(n / 2); /* uint wraps around */
  case OP_DEC:
    return 5u;
  case OP_MAX:
    return is_signed ? 0x80000000u : 0u; /* the type's smallest value */
  case OP_MIN:
    return is_signed ? 0x7fffffffu : 0xffffffffu;
  case OP_AND:
    return 0xffffffffu;
  case OP_XOR:
    return 0x12345678u;
  default:
    return 0u;
  }
}

/* n values from init by +1 steps (mod 2^32), in any order. */
static int steps_of_one(const uint32_t *old, size_t n, uint32_t init, int32_t dir) {
  unsigned char *seen = calloc(n, 1);
  int ok = seen != NULL;
  for (size_t i = 0; ok && i < n; i++) {
    uint32_t k = dir > 0 ? old[i] - init : init - old[i];
    ok = k < n && !seen[k];
    if (ok)
      seen[k] = 1;
  }
  free(seen);
  return ok;
}

/* Launches N work items: kernel k with the four arguments a, or with `tiled` its tile_static form
 * kt in tiles of TILE, with the first nt of them. */
static void launch_n(amp_kernel *k, amp_kernel *kt, int tiled, const amp_arg a[4], size_t nt) {
  if (tiled)
    CHECK_OK(amp_parallel_for_each_tiled(av, amp_tile1(amp_extent1(N), TILE), kt, a, nt));
  else
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, a, 4));
}

/* Runs operation op over N work items: on c[0] with kernel k, or with kt (tiled) on one
 * tile_static counter per tile, loaded from and stored back to c[tile]. v holds the operands,
 * old gets the returned values; all are 32-bit elements of type et. */
static void launch_rmw(amp_kernel *k, amp_kernel *kt, int tiled, amp_elem_type et, uint32_t *c,
                       uint32_t *v, uint32_t *old, int op) {
  amp_array_view *vc, *vv, *vo;
  CHECK_OK(amp_array_view_create(amp_extent1(tiled ? TILES : 1), et, c, &vc));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), et, v, &vv));
  CHECK_OK(amp_array_view_create(amp_extent1(N), et, old, &vo));
  amp_arg a[] = {amp_arg_view(vc), amp_arg_view(vv), amp_arg_view(vo), amp_arg_int(op)};
  launch_n(k, kt, tiled, a, 4);
  CHECK_OK(amp_array_view_synchronize(vc));
  CHECK_OK(amp_array_view_synchronize(vo));
  amp_array_view_release(vc);
  amp_array_view_release(vv);
  amp_array_view_release(vo);
}

/* Kernel `name` of int_src built for the element type `type` ("int" or "uint"). */
static amp_kernel *int_kernel(const char *type, const char *name) {
  char opts[32];
  snprintf(opts, sizeof opts, "-DT=%s", type);
  return test_kernel(int_src, opts, name);
}

/* Every operation, on one global counter and on one tile_static counter per tile. */
static void test_rmw(const char *type) {
  const int is_signed = strcmp(type, "int") == 0;
  amp_kernel *k = int_kernel(type, "rmw");
  amp_kernel *kt = int_kernel(type, "rmw_tile");
  static uint32_t v[N], old[N], c[N];
  const amp_elem_type et = is_signed ? AMP_INT32 : AMP_UINT32;
  for (int op = 0; k && kt && op < NOPS; op++) {
    uint32_t init = operands(op, v, N, is_signed);
    for (int tiled = 0; tiled < 2; tiled++) {
      for (int t = 0; t < TILES; t++)
        c[t] = init;
      launch_rmw(k, kt, tiled, et, c, v, old, op);
      int groups = tiled ? TILES : 1, per = tiled ? TILE : N, bad = 0;
      for (int g = 0; g < groups; g++) {
        const uint32_t *gv = v + (size_t)g * per, *go = old + (size_t)g * per;
        int ok = chain_ok(op, is_signed, init, c[g], gv, go, (size_t)per);
        /* the final value: the operation folded over the operands, where that is defined */
        uint32_t fold = init;
        for (int i = 0; i < per; i++)
          fold = host_op(op, is_signed, fold, gv[i]);
        if (op != OP_XCHG)
          ok = ok && c[g] == fold;
        if (op == OP_ADD || op == OP_INC)
          ok = ok && steps_of_one(go, (size_t)per, init, 1);
        if (op == OP_SUB || op == OP_DEC)
          ok = ok && steps_of_one(go, (size_t)per, init, -1);
        if (!ok && bad++ == 0)
          fprintf(stderr, "%s %s (%s): group %d: final %#x, fold %#x\n", type, op_names[op],
                  tiled ? "tile_static" : "global", g, c[g], fold);
      }
      CHECK_EQ_INT(bad, 0);
    }
  }
  amp_kernel_release(k);
  amp_kernel_release(kt);
}

/* n work items swap i+1 for expected value 0 in a location holding 0: one wins, the others get
 * its value back. Global location (private and global expected), and tile_static. */
static void test_compare_exchange(const char *type) {
  const amp_elem_type et = strcmp(type, "int") == 0 ? AMP_INT32 : AMP_UINT32;
  amp_kernel *k = int_kernel(type, "cas_once");
  amp_kernel *kt = int_kernel(type, "cas_tile");
  static int32_t c[N], expected[N], won[N];
  for (int mode = 0; k && kt && mode < 3; mode++) {
    const int tiled = mode == 2, groups = tiled ? TILES : 1, per = tiled ? TILE : N;
    memset(c, 0, sizeof c);
    memset(expected, 0, sizeof expected);
    memset(won, 0xff, sizeof won);
    amp_array_view *vc, *ve, *vw;
    CHECK_OK(amp_array_view_create(amp_extent1(groups), et, c, &vc));
    CHECK_OK(amp_array_view_create(amp_extent1(N), et, expected, &ve));
    CHECK_OK(amp_array_view_create(amp_extent1(N), AMP_INT32, won, &vw));
    amp_arg a[] = {amp_arg_view(vc), amp_arg_view(ve), amp_arg_view(vw), amp_arg_int(mode)};
    launch_n(k, kt, tiled, a, 3);
    CHECK_OK(amp_array_view_synchronize(vc));
    CHECK_OK(amp_array_view_synchronize(ve));
    CHECK_OK(amp_array_view_synchronize(vw));
    int bad = 0;
    for (int g = 0; g < groups; g++) {
      int winners = 0, winner = -1;
      for (int i = g * per; i < (g + 1) * per; i++)
        if (won[i] == 1) {
          winners++;
          winner = i;
        } else if (won[i] != 0) {
          winners = -1000; /* not a bool */
        }
      int ok = winners == 1 && c[g] == winner + 1 && expected[winner] == 0;
      for (int i = g * per; ok && i < (g + 1) * per; i++)
        ok = i == winner || expected[i] == winner + 1;
      if (!ok && bad++ == 0)
        fprintf(stderr, "%s compare_exchange mode %d group %d: %d winners, location %d\n", type,
                mode, g, winners, c[g]);
    }
    CHECK_EQ_INT(bad, 0);
    amp_array_view_release(vc);
    amp_array_view_release(ve);
    amp_array_view_release(vw);
  }
  amp_kernel_release(k);
  amp_kernel_release(kt);
}

/* A lock-free max from a compare-exchange loop, with the operands as int and as uint. */
static void test_cas_max(const char *type) {
  const int is_signed = strcmp(type, "int") == 0;
  amp_kernel *k = int_kernel(type, "cas_max");
  static uint32_t v[N];
  uint32_t best = operands(OP_MAX, v, N, is_signed), want = best;
  for (int i = 0; i < N; i++)
    want = host_op(OP_MAX, is_signed, want, v[i]);
  amp_array_view *vb, *vv;
  const amp_elem_type et = is_signed ? AMP_INT32 : AMP_UINT32;
  CHECK_OK(amp_array_view_create(amp_extent1(1), et, &best, &vb));
  CHECK_OK(amp_array_view_create_const(amp_extent1(N), et, v, &vv));
  amp_arg a[] = {amp_arg_view(vb), amp_arg_view(vv)};
  if (k)
    CHECK_OK(amp_parallel_for_each(av, amp_extent1(N), k, a, 2));
  CHECK_OK(amp_array_view_synchronize(vb));
  CHECK_EQ_INT(best, want);
  CHECK_EQ_INT(want, is_signed ? (uint32_t)(N / 2 - 1) : 0xffffffffu); /* the operands differ */
  amp_array_view_release(vb);
  amp_array_view_release(vv);
  amp_kernel_release(k);
}

/* Float add and exchange, global and tile_static. */
static void test_float(void) {
  amp_kernel *k = test_kernel(float_src, NULL, "frmw");
  amp_kernel *kt = test_kernel(float_src, NULL, "frmw_tile");
  /* the floats' bits, so the chain check can compare them exactly */
  static uint32_t v[N], old[N], c[N];
  for (int i = 0; i < N; i++)
    v[i] = as_bits((float)((i * 37) % 11) * 0.125f + 0.125f);
  for (int op = 0; k && kt && op < 2; op++)
    for (int tiled = 0; tiled < 2; tiled++) {
      const float init = 0.5f;
      for (int t = 0; t < TILES; t++)
        c[t] = as_bits(init);
      launch_rmw(k, kt, tiled, AMP_FLOAT, c, v, old, op);
      int groups = tiled ? TILES : 1, per = tiled ? TILE : N, bad = 0;
      for (int g = 0; g < groups; g++) {
        int ok = chain_ok(op == 0 ? -1 : OP_XCHG, 0, as_bits(init), c[g], v + (size_t)g * per,
                          old + (size_t)g * per, (size_t)per);
        if (op == 0) { /* exact: multiples of 1/8 far below 2^21 */
          double sum = init;
          for (int i = g * per; i < (g + 1) * per; i++)
            sum += as_float(v[i]);
          ok = ok && (double)as_float(c[g]) == sum;
        }
        if (!ok && bad++ == 0)
          fprintf(stderr, "float %s (%s) group %d: final %g\n", op == 0 ? "add" : "exchange",
                  tiled ? "tile_static" : "global", g, (double)as_float(c[g]));
      }
      CHECK_EQ_INT(bad, 0);
    }
  amp_kernel_release(k);
  amp_kernel_release(kt);
}

/* A const view cannot be an atomic's destination, and short has no atomics (64-bit ones:
 * kernel_atomics64): both fail to build, with the compiler's reason. */
static void test_misuse(void) {
  amp_accelerator *acc;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  const char *bad[] = {
      "__kernel void k(AMP_CONST_VIEW(int, c)) { amp_atomic_fetch_add(&amp_at(c, 0), 1); }\n",
      "__kernel void k(__global short *c) { amp_atomic_fetch_add(c, (short)1); }\n",
      "__kernel void k(AMP_CONST_VIEW(uint, c)) {\n"
      "  uint e = 0;\n"
      "  amp_atomic_compare_exchange(&amp_at(c, 0), &e, 1u);\n"
      "}\n"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    amp_program *p = NULL;
    CHECK_OK(amp_program_create(bad[i], NULL, &p));
    CHECK_STATUS(amp_program_build(p, acc), AMP_ERROR_BUILD_FAILED);
    CHECK_MSG(i == 1 ? "amp_atomic_fetch_add" : "cannot be const");
    amp_program_release(p);
  }
}

int main(void) {
  if (!(av = test_view()))
    return 1;
  while (TILE > 1 && test_tile_allowed(av, NULL, 1, &TILE) != TEST_TILE_RUNS)
    TILE /= 2;
  TILES = N / TILE;
  if (TILE < MAX_TILE)
    printf("tile_static counters in tiles of %d threads, the most this device allows (not %d)\n",
           TILE, MAX_TILE);
  test_rmw("int");
  test_rmw("uint");
  test_compare_exchange("int");
  test_compare_exchange("uint");
  test_cas_max("int");
  test_cas_max("uint");
  test_float();
  test_misuse();
  return check_done();
}
