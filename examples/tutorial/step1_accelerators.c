/* Step 1 of docs/TUTORIAL.md: the accelerators ampcl sees, and which one is the default.
 * C++ AMP: accelerator::get_all(), accelerator().device_path. */
#include "tutorial.h"

int main(void) {
  size_t n;
  amp_accelerator *def;
  TRY(amp_accelerator_count(&n));
  TRY(amp_accelerator_get_default(&def));
  for (size_t i = 0; i < n; i++) {
    amp_accelerator *acc;
    amp_accelerator_properties p;
    TRY(amp_accelerator_get(i, &acc));
    TRY(amp_accelerator_get_properties(acc, &p));
    printf("%zu: %-40s %s%s%s\n", i, p.device_path, p.description,
           p.is_emulated ? " (emulated: a CPU device)" : "", acc == def ? "  <- default" : "");
    if (!p.is_host)
      printf("   %u compute units, tiles of up to %zu threads, %llu KiB of tile_static memory\n",
             p.compute_units, p.max_tile_size, (unsigned long long)(p.local_memory >> 10));
  }
  return 0;
}
