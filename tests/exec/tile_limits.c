/* tile_limits: a kernel's own tile limits (amp_kernel_limits) and tiles up to AMP's 1024 threads.
 *
 * Proves: amp_kernel_limits reports the kernel's and the device's limits (the kernel's at most the
 * device's, the device's local memory, a reqd_work_group_size in AMP order) and refuses NULL and
 * the host "cpu"; a tiled vector add and a tiled tile_static reduction are right with tiles
 * (1024), (32,32), (1,1024), (64,4,4), (64,16,1); launches of 65535 tiles of 1 and 131070 tiles
 * of 2 (and, with the argument "big", 65535 tiles of 1024 = 67,107,840 threads) run every thread
 * of every tile exactly once: each thread adds 1 to its tile's counter and sets its local id's
 * bit in its tile's mask, and the host checks count == tile size and every bit set.
 *
 * Prints one line per case, so it also serves as a report on a GPU (AMP_DEFAULT_ACCELERATOR). */
#include <stdint.h>

#include "check.h"

static amp_accelerator_view *av;

static const char *src =
    "#if RANK == 1\n"
    "#define IDX AMP_TILED_INDEX1(idx); const int tile = idx.tile[0]; const int lid = "
    "idx.local_id[0]\n"
    "#elif RANK == 2\n"
    "#define IDX AMP_TILED_INDEX2(idx); const int tile = idx.tile[0] * nt1 + idx.tile[1]; \\\n"
    "  const int lid = idx.local_id[0] * idx.tile_extent[1] + idx.local_id[1]\n"
    "#else\n"
    "#define IDX AMP_TILED_INDEX3(idx); \\\n"
    "  const int tile = (idx.tile[0] * nt1 + idx.tile[1]) * nt2 + idx.tile[2]; \\\n"
    "  const int lid = (idx.local_id[0] * idx.tile_extent[1] + idx.local_id[1]) * \\\n"
    "                  idx.tile_extent[2] + idx.local_id[2]\n"
    "#endif\n"
    "__kernel void cover(AMP_VIEW(int, cnt), AMP_VIEW(uint, mask), int words, int nt1, int nt2) "
    "{\n"
    "  IDX;\n"
    "  atomic_inc(&amp_at(cnt, tile));\n"
    "  atomic_or(&amp_at(mask, tile * words + lid / 32), 1u << (lid % 32));\n"
    "}\n"
    "__kernel void add_reduce(AMP_CONST_VIEW(int, a), AMP_CONST_VIEW(int, b), AMP_VIEW(int, c),\n"
    "                         AMP_VIEW(int, sums), int T, int nt1, int nt2) {\n"
    "  IDX;\n"
    "  tile_static int part[1024];\n"
    "  const int g = tile * T + lid;\n"
    "  amp_at(c, g) = amp_at(a, g) + amp_at(b, g);\n"
    "  part[lid] = amp_at(a, g);\n"
    "  amp_barrier_wait();\n"
    "  for (int s = T / 2; s > 0; s /= 2) {\n"
    "    if (lid < s) part[lid] += part[lid + s];\n"
    "    amp_barrier_wait();\n"
    "  }\n"
    "  if (lid == 0) amp_at(sums, tile) = part[0];\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(16, 4, 1))) void fixed(AMP_VIEW(int, o)) {\n"
    "  AMP_TILED_INDEX2(idx); amp_at(o, idx.global_id[0], idx.global_id[1]) = 1;\n"
    "}\n";

static amp_kernel *kern(int rank, const char *name) {
  char opts[32];
  snprintf(opts, sizeof opts, "-DRANK=%d", rank);
  return test_kernel(src, opts, name);
}

static amp_tiled_extent shape(int rank, const int *tile, const int *ntiles) {
  if (rank == 1)
    return amp_tile1(amp_extent1(tile[0] * ntiles[0]), tile[0]);
  if (rank == 2)
    return amp_tile2(amp_extent2(tile[0] * ntiles[0], tile[1] * ntiles[1]), tile[0], tile[1]);
  return amp_tile3(amp_extent3(tile[0] * ntiles[0], tile[1] * ntiles[1], tile[2] * ntiles[2]),
                   tile[0], tile[1], tile[2]);
}

/* One line per case: the launch succeeded and no slot was wrong. */
static void report(const char *what, const char *label, int NT, int T, amp_status st, long bad) {
  CHECK(st == AMP_SUCCESS && bad == 0);
  printf("%-10s %-16s %6d tiles of %4d threads: %s (%ld wrong)\n", what, label, NT, T,
         st == AMP_SUCCESS && bad == 0 ? "ok" : "FAILED", bad);
}

/* Every thread of every tile ran exactly once. */
static void cover(const char *label, int rank, const int *tile, const int *ntiles) {
  int T = 1, NT = 1;
  for (int d = 0; d < rank; d++) {
    T *= tile[d];
    NT *= ntiles[d];
  }
  int words = (T + 31) / 32;
  int *cnt = calloc((size_t)NT, sizeof *cnt);
  unsigned *mask = calloc((size_t)NT * (size_t)words, sizeof *mask);
  amp_kernel *k = kern(rank, "cover");
  amp_array_view *vc = NULL, *vm = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(NT), AMP_INT32, cnt, &vc));
  CHECK_OK(amp_array_view_create(amp_extent1(NT * words), AMP_UINT32, mask, &vm));
  amp_arg args[] = {amp_arg_view(vc), amp_arg_view(vm), amp_arg_int(words),
                    amp_arg_int(rank > 1 ? ntiles[1] : 1), amp_arg_int(rank > 2 ? ntiles[2] : 1)};
  amp_status st = amp_parallel_for_each_tiled(av, shape(rank, tile, ntiles), k, args, 5);
  CHECK_OK(st);
  CHECK_OK(amp_array_view_synchronize(vc));
  CHECK_OK(amp_array_view_synchronize(vm));
  long bad = 0;
  for (int t = 0; t < NT; t++) {
    bad += cnt[t] != T;
    for (int w = 0; w < words; w++) {
      int bits = T - w * 32 >= 32 ? 32 : T - w * 32;
      unsigned want = bits == 32 ? 0xffffffffu : (1u << bits) - 1u;
      bad += mask[(size_t)t * (size_t)words + (size_t)w] != want;
    }
  }
  report("cover", label, NT, T, st, bad);
  amp_array_view_release(vc);
  amp_array_view_release(vm);
  amp_kernel_release(k);
  free(cnt);
  free(mask);
}

/* Tiled vector add and tile_static reduction against the host. */
static void add_reduce(const char *label, int rank, const int *tile, const int *ntiles) {
  int T = 1, NT = 1;
  for (int d = 0; d < rank; d++) {
    T *= tile[d];
    NT *= ntiles[d];
  }
  int n = T * NT;
  int *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
  int *c = calloc((size_t)n, sizeof *c), *sums = calloc((size_t)NT, sizeof *sums);
  for (int i = 0; i < n; i++) {
    a[i] = (i * 7) % 101 - 50;
    b[i] = (i * 13) % 97;
  }
  amp_kernel *k = kern(rank, "add_reduce");
  amp_array_view *va = NULL, *vb = NULL, *vc = NULL, *vs = NULL;
  CHECK_OK(amp_array_view_create(amp_extent1(n), AMP_INT32, a, &va));
  CHECK_OK(amp_array_view_create(amp_extent1(n), AMP_INT32, b, &vb));
  CHECK_OK(amp_array_view_create(amp_extent1(n), AMP_INT32, c, &vc));
  CHECK_OK(amp_array_view_create(amp_extent1(NT), AMP_INT32, sums, &vs));
  amp_arg args[] = {amp_arg_view(va),
                    amp_arg_view(vb),
                    amp_arg_view(vc),
                    amp_arg_view(vs),
                    amp_arg_int(T),
                    amp_arg_int(rank > 1 ? ntiles[1] : 1),
                    amp_arg_int(rank > 2 ? ntiles[2] : 1)};
  amp_status st = amp_parallel_for_each_tiled(av, shape(rank, tile, ntiles), k, args, 7);
  CHECK_OK(st);
  CHECK_OK(amp_array_view_synchronize(vc));
  CHECK_OK(amp_array_view_synchronize(vs));
  long bad = 0;
  for (int i = 0; i < n; i++)
    bad += c[i] != a[i] + b[i];
  for (int t = 0; t < NT; t++) {
    int want = 0;
    for (int l = 0; l < T; l++)
      want += a[t * T + l];
    bad += sums[t] != want;
  }
  report("add+reduce", label, NT, T, st, bad);
  amp_array_view_release(va);
  amp_array_view_release(vb);
  amp_array_view_release(vc);
  amp_array_view_release(vs);
  amp_kernel_release(k);
  free(a);
  free(b);
  free(c);
  free(sums);
}

static void limits(void) {
  amp_accelerator *acc = NULL;
  CHECK_OK(amp_accelerator_view_get_accelerator(av, &acc));
  amp_accelerator_properties p;
  CHECK_OK(amp_accelerator_get_properties(acc, &p));
  amp_kernel *k = kern(1, "add_reduce"), *f = kern(2, "fixed");
  amp_kernel_limits_info li;
  memset(&li, 0, sizeof li);
  CHECK_OK(amp_kernel_limits(k, acc, &li));
  CHECK(li.max_tile_threads >= 1 && li.max_tile_threads <= li.device_max_tile_threads);
  CHECK(li.device_max_tile_threads == p.max_tile_size);
  CHECK(li.device_local_bytes == p.local_memory);
  /* part[1024]; some drivers (POCL 5) report a kernel's tile_static bytes as 0 */
  CHECK(li.static_local_bytes >= 1024 * sizeof(int) || li.static_local_bytes == 0);
  CHECK(li.preferred_multiple >= 1);
  CHECK_EQ_INT(li.required_rank, 0);
  printf("limits add_reduce on %s: %zu threads per tile (device %zu), multiple %zu, private %llu "
         "B, local %llu of %llu B\n",
         p.device_path, li.max_tile_threads, li.device_max_tile_threads, li.preferred_multiple,
         (unsigned long long)li.private_bytes, (unsigned long long)li.static_local_bytes,
         (unsigned long long)li.device_local_bytes);
  CHECK_OK(amp_kernel_limits(f, acc, &li));
  CHECK_EQ_INT(li.required_rank, 2);
  CHECK_EQ_INT(li.required_tile[0], 4);
  CHECK_EQ_INT(li.required_tile[1], 16);
  /* bad input: *out unchanged */
  amp_kernel_limits_info keep = li;
  CHECK_STATUS(amp_kernel_limits(k, acc, NULL), AMP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(amp_kernel_limits(NULL, acc, &li), AMP_ERROR_INVALID_HANDLE);
  CHECK_STATUS(amp_kernel_limits(k, NULL, &li), AMP_ERROR_INVALID_HANDLE);
  amp_accelerator *cpu = NULL;
  if (amp_accelerator_find("cpu", &cpu) == AMP_SUCCESS) {
    CHECK_STATUS(amp_kernel_limits(k, cpu, &li), AMP_ERROR_UNSUPPORTED_FEATURE);
    CHECK_MSG("cpu");
  }
  CHECK(memcmp(&keep, &li, sizeof li) == 0);
  amp_kernel_release(k);
  amp_kernel_release(f);
}

int main(int argc, char **argv) {
  av = test_view();
  if (!av)
    return 1;
  limits();
  static const struct {
    const char *label;
    int rank, tile[3], ntiles[3];
  } cases[] = {
      {"(1024)", 1, {1024}, {3}},
      {"(32,32)", 2, {32, 32}, {2, 3}},
      {"(1,1024)", 2, {1, 1024}, {3, 2}},
      {"(64,4,4)", 3, {64, 4, 4}, {2, 1, 3}},
      {"(64,16,1)", 3, {64, 16, 1}, {1, 2, 3}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    add_reduce(cases[i].label, cases[i].rank, cases[i].tile, cases[i].ntiles);
    cover(cases[i].label, cases[i].rank, cases[i].tile, cases[i].ntiles);
  }
  cover("(1) x 65535", 1, (const int[]){1}, (const int[]){65535});
  cover("(2) x 65535", 1, (const int[]){2}, (const int[]){65535});
  if (argc > 1 && strcmp(argv[1], "big") == 0)
    cover("(1024) x 65535", 1, (const int[]){1024}, (const int[]){65535});
  return check_done();
}
