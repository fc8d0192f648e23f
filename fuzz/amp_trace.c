/* fuzz/amp_trace.c: amp-trace's reader (examples/amp_trace/amp_trace.c) on arbitrary bytes: the
 * JSON parser on a buffer with no terminating NUL, then, for a document with a traceEvents array,
 * both of the tool's passes over it (summary and check). The tool's file is compiled in here
 * whole, its main renamed, so the fuzzed code is the shipped code. Its output goes to /dev/null. */
#include "fuzz.h"

int amp_trace_main(int argc, char **argv);
#define main amp_trace_main
#include "../examples/amp_trace/amp_trace.c"
#undef main

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  if (!freopen("/dev/null", "w", stdout))
    return 0;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  jnode *root = parse((const char *)data, size, "fuzz input");
  const jnode *events = jget(root, "traceEvents");
  if (events && events->type == J_ARR) {
    summary(events);
    check(events);
  }
  jfree(root);
  return 0;
}
