/* amp-info: lists the accelerators ampcl sees, the way C++ AMP's enumeration samples do
 * (accelerator::get_all(), then each one's properties), and marks the default.
 *
 *   amp-info            all accelerators
 *   amp-info --default  only the default accelerator's device path (for scripts)
 *   amp-info --kernel FILE.cl [--options "..."]
 *                       each kernel's tile limits on each accelerator (kernel_limits.c)
 *
 * With no OpenCL platform at all it lists the CPU accelerator alone, as the default, and says
 * what to install: kernels cannot run, but that is the answer, not a failure.
 *
 * Exit status: 0, or 1 when no accelerator can be listed (the reason is printed). */
#include <ampcl.h>
#include <stdio.h>
#include <string.h>

#include "kernel_limits.h"

static int fail(const char *what, amp_status st) {
  fprintf(stderr, "amp-info: %s failed: %s\n  %s\n", what, amp_status_name(st), amp_last_error());
  return 1;
}

static void print_size(const char *label, unsigned long long bytes) {
  if (bytes >= (1ull << 30))
    printf("  %-34s %.1f GiB\n", label, (double)bytes / (1ull << 30));
  else
    printf("  %-34s %llu KiB\n", label, bytes >> 10);
}

/* The texture formats (ampcl/texture.h) the device supports: value type, bits, and the ranks it
 * can make and read (r) and write in kernels (w). */
static void print_texture_formats(amp_accelerator *acc) {
  amp_texture_format_support fs[64];
  size_t n = 0;
  if (amp_texture_formats(acc, fs, 64, &n) != AMP_SUCCESS) {
    printf("  %-34s none (%s)\n", "texture formats", amp_last_error());
    return;
  }
  printf("  %-34s %zu (value type/bits: ranks read, written)\n", "texture formats", n);
  for (size_t i = 0; i < n && i < 64; i++) {
    char r[4] = "---", w[4] = "---";
    for (int k = 0; k < 3; k++) {
      if (fs[i].ranks & (1u << k))
        r[k] = (char)('1' + k);
      if (fs[i].write_ranks & (1u << k))
        w[k] = (char)('1' + k);
    }
    printf("%s%-9s%2d: %s %s", i % 4 == 0 ? "    " : "   ", amp_texel_type_name(fs[i].format),
           fs[i].format.bits, r, w);
    if (i % 4 == 3 || i + 1 == n)
      printf("\n");
  }
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "--kernel") == 0) {
    if (argc == 3)
      return amp_info_kernel_limits(argv[2], NULL);
    if (argc == 5 && strcmp(argv[3], "--options") == 0)
      return amp_info_kernel_limits(argv[2], argv[4]);
    fprintf(stderr, "usage: amp-info --kernel FILE.cl [--options \"...\"]\n");
    return 2;
  }
  amp_status st;
  size_t n = 0;
  amp_accelerator *def = NULL;
  if ((st = amp_accelerator_count(&n)) != AMP_SUCCESS)
    return fail("enumerating accelerators", st);
  amp_status def_st = amp_accelerator_get_default(&def);
  if (argc > 1 && strcmp(argv[1], "--default") == 0) {
    if (def_st != AMP_SUCCESS)
      return fail("choosing the default accelerator", def_st);
    amp_accelerator_properties p;
    amp_accelerator_get_properties(def, &p);
    printf("%s\n", p.device_path);
    return 0;
  }
  if (argc > 1) {
    fprintf(stderr, "usage: amp-info [--default | --kernel FILE.cl [--options \"...\"]]\n");
    return strcmp(argv[1], "--help") == 0 ? 0 : 2;
  }

  printf("ampcl %d.%d.%d sees %zu accelerator%s:\n\n", AMPCL_VERSION_MAJOR, AMPCL_VERSION_MINOR,
         AMPCL_VERSION_PATCH, n, n == 1 ? "" : "s");
  for (size_t i = 0; i < n; i++) {
    amp_accelerator *acc;
    amp_accelerator_properties p;
    if ((st = amp_accelerator_get(i, &acc)) != AMP_SUCCESS ||
        (st = amp_accelerator_get_properties(acc, &p)) != AMP_SUCCESS)
      return fail("reading an accelerator", st);
    printf("%s%s\n", p.device_path, acc == def ? "   <-- default" : "");
    printf("  %-34s %s\n", "description", p.description);
    if (p.is_host) {
      printf("  %-34s %s\n", "kind", "host location (not a kernel target)");
      printf("\n");
      continue;
    }
    printf("  %-34s %s\n", "version", p.version);
    printf("  %-34s %s\n", "platform", p.platform_name);
    print_size("dedicated memory", (unsigned long long)p.dedicated_memory);
    printf("  %-34s %s\n", "is emulated", p.is_emulated ? "yes (CPU device: ampcl's WARP)" : "no");
    printf("  %-34s %s\n", "supports double precision", p.supports_double_precision ? "yes" : "no");
    printf("  %-34s %s\n", "supports limited double precision",
           p.supports_limited_double_precision ? "yes" : "no");
    printf("  %-34s %s\n", "supports cpu shared memory",
           p.supports_cpu_shared_memory ? "yes" : "no");
    printf("  %-34s %zu threads (per dimension %zu x %zu x %zu)\n", "max tile size",
           p.max_tile_size, p.max_tile_extent[0], p.max_tile_extent[1], p.max_tile_extent[2]);
    print_size("tile_static memory per tile", (unsigned long long)p.local_memory);
    printf("  %-34s %u at %u MHz\n", "compute units", p.compute_units, p.max_clock_mhz);
    if (p.compute_capability)
      printf("  %-34s %u.%u\n", "NVIDIA compute capability", p.compute_capability / 10,
             p.compute_capability % 10);
    print_texture_formats(acc);
    printf("\n");
  }
  if (def_st != AMP_SUCCESS)
    return fail("choosing the default accelerator", def_st);
  const char *why = NULL;
  if (amp_accelerator_default_reason(&why) == AMP_SUCCESS)
    printf("default: %s\n", why);
  amp_accelerator_properties dp;
  if (amp_accelerator_get_properties(def, &dp) == AMP_SUCCESS && dp.is_host) {
    /* AMP's fallback: no device, or "cpu" named as the default. Say why kernels will not run. */
    amp_accelerator_view *v = NULL;
    if (amp_default_view(&v) != AMP_SUCCESS)
      printf("note: the default accelerator is the CPU accelerator (host memory only): kernels "
             "cannot run.\n  %s\n",
             amp_last_error());
  }
  return 0;
}
