/* tests/oclgrind/whole_writes.c: a preloaded library for the runs under oclgrind 21.10 with
 * --uninitialized (grind.sh loads it in front of oclgrind's OpenCL runtime; docs/CHECKING.md,
 * "Every kernel under oclgrind").
 *
 * Why: oclgrind 21.10's uninitialised-value checker keeps one shadow buffer per cl_mem, and every
 * host-side store into a buffer (clEnqueueWriteBuffer, each row of a rect write, a copy, each
 * pattern of a fill) replaces that shadow with a new one the size of the store, starting at the
 * buffer's start. A write of elements 4..7 therefore leaves 4..7 "uninitialised", and anything the
 * host or a kernel wrote before is forgotten. ampcl copies a section at a nonzero origin to its
 * place in the buffer, so every kernel that reads such a section would be reported.
 *
 * What it does: after each such command that does not cover its whole buffer, it reads the whole
 * buffer back and writes it again, unchanged, on the same queue and ordered after the command (the
 * caller's event becomes the rewrite's event). Oclgrind then sees one store of the whole buffer,
 * so every byte of a buffer the host has written counts as initialised. The cost: a read of a
 * byte of such a buffer that nobody ever wrote is not reported. Buffers the host never writes
 * (discarded views, arrays created empty, kernel outputs) and tile_static and private memory are
 * checked exactly as before.
 *
 * A buffer created from host memory (CL_MEM_COPY_HOST_PTR: ampcl's debug record) is not recorded
 * as written at all, so it is written once more, whole, as it is created.
 *
 * Second, the same checker never drops the shadow of a released buffer, and oclgrind hands a
 * released buffer's number to the next buffer created: the new buffer inherits the old one's
 * shadow (its size too, so stores past it are not recorded and later reads of them are reported,
 * and a kernel output is not marked uninitialised when first used). So clReleaseMemObject keeps
 * the buffer's last reference here: no number is ever reused. The memory is held to the end of
 * the process, which the small sizes of these runs afford.
 *
 * Third, the checker stops a work item at LLVM's `freeze` instruction ("Unsupported instruction:
 * freeze"; oclgrind supports it after 21.10), which the optimiser puts in wherever a kernel
 * computes both x / y and x % y (LLVM's DivRemPairs pass rewrites the remainder as
 * x - (x / y) * y on frozen operands). Building without optimisation avoids it but makes the
 * simulation several times slower. So after each successful clBuildProgram, the program's LLVM
 * bitcode (oclgrind's binary) is disassembled (AMP_OCLGRIND_LLVM_DIS), each `freeze T x` becomes
 * `add T x, 0` (`fsub T x, 0.0` for floating point), which passes x's initialised-ness through
 * unchanged as the remainder had it before the pass, and is assembled again (AMP_OCLGRIND_LLVM_AS);
 * clCreateKernel on the program then creates its kernels from that rebuilt program. A program
 * without a freeze is left as it is. */
#define CL_TARGET_OPENCL_VERSION 120
#define _GNU_SOURCE
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef cl_int (*write_fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint,
                           const cl_event *, cl_event *);
typedef cl_int (*write_rect_fn)(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *,
                                const size_t *, size_t, size_t, size_t, size_t, const void *,
                                cl_uint, const cl_event *, cl_event *);
typedef cl_int (*copy_fn)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                          const cl_event *, cl_event *);
typedef cl_int (*copy_rect_fn)(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *,
                               const size_t *, size_t, size_t, size_t, size_t, cl_uint,
                               const cl_event *, cl_event *);
typedef cl_int (*fill_fn)(cl_command_queue, cl_mem, const void *, size_t, size_t, size_t, cl_uint,
                          const cl_event *, cl_event *);

/* *fn = the definition of `name` after this library's (oclgrind's runtime). ISO C has no cast
 * from an object pointer to a function pointer: the bits are copied. */
static void next(const char *name, void *fn, size_t size) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f || size != sizeof f) {
    fprintf(stderr, "whole_writes: %s not found after this library (load it first)\n", name);
    abort();
  }
  memcpy(fn, &f, size);
}

/* Host copies of rewrites still in flight, freed once their write has completed. */
typedef struct pending {
  cl_event done;
  void *copy;
  struct pending *next;
} pending;
static pending *in_flight;

static void free_completed(void) {
  for (pending **p = &in_flight; *p;) {
    cl_int st = CL_QUEUED;
    clGetEventInfo((*p)->done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (st == CL_COMPLETE || st < 0) {
      pending *gone = *p;
      *p = gone->next;
      clReleaseEvent(gone->done);
      free(gone->copy);
      free(gone);
    } else {
      p = &(*p)->next;
    }
  }
}

static size_t buffer_size(cl_mem buf) {
  size_t size = 0;
  if (clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS)
    return 0;
  return size;
}

/* The caller's command has been enqueued with event *mine; enqueue the whole buffer's read and
 * unchanged write after it. The caller gets the write's event (or, where it asked for none, it is
 * released once done). */
static cl_int rewrite(cl_command_queue q, cl_mem buf, cl_bool blocking, cl_event mine,
                      cl_event *caller, const char *what) {
  static write_fn write_whole;
  if (!write_whole)
    next("clEnqueueWriteBuffer", &write_whole, sizeof write_whole);
  free_completed();
  const size_t size = buffer_size(buf);
  if (getenv("AMP_WHOLE_WRITES_TRACE"))
    fprintf(stderr, "whole_writes: %s into buffer %p of %zu bytes: rewritten whole\n", what,
            (void *)buf, size);
  void *copy = size ? malloc(size) : NULL;
  pending *p = malloc(sizeof *p);
  cl_event got = NULL, put = NULL;
  cl_int err = CL_OUT_OF_HOST_MEMORY;
  if (copy && p)
    err = clEnqueueReadBuffer(q, buf, CL_FALSE, 0, size, copy, 1, &mine, &got);
  if (err == CL_SUCCESS)
    err = write_whole(q, buf, blocking, 0, size, copy, 1, &got, &put);
  if (got)
    clReleaseEvent(got);
  if (err != CL_SUCCESS) {
    /* the caller's command stands; only the shadow fix is lost, so say so */
    fprintf(stderr, "whole_writes: rewriting a buffer of %zu bytes failed (%d)\n", size, err);
    free(copy);
    free(p);
    if (caller)
      *caller = mine;
    else
      clReleaseEvent(mine);
    return CL_SUCCESS;
  }
  clReleaseEvent(mine);
  p->done = put;
  p->copy = copy;
  p->next = in_flight;
  in_flight = p;
  if (caller) {
    clRetainEvent(put);
    *caller = put;
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buf,
                                                     cl_bool blocking, size_t offset, size_t size,
                                                     const void *ptr, cl_uint n,
                                                     const cl_event *wait, cl_event *ev) {
  static write_fn real;
  if (!real)
    next("clEnqueueWriteBuffer", &real, sizeof real);
  if (offset == 0 && size == buffer_size(buf))
    return real(q, buf, blocking, offset, size, ptr, n, wait, ev);
  cl_event mine = NULL;
  cl_int err = real(q, buf, blocking, offset, size, ptr, n, wait, &mine);
  return err != CL_SUCCESS ? err : rewrite(q, buf, blocking, mine, ev, "clEnqueueWriteBuffer");
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBufferRect(cl_command_queue q, cl_mem buf, cl_bool blocking, const size_t *buf_origin,
                         const size_t *host_origin, const size_t *region, size_t buf_row,
                         size_t buf_slice, size_t host_row, size_t host_slice, const void *ptr,
                         cl_uint n, const cl_event *wait, cl_event *ev) {
  static write_rect_fn real;
  if (!real)
    next("clEnqueueWriteBufferRect", &real, sizeof real);
  cl_event mine = NULL;
  cl_int err = real(q, buf, blocking, buf_origin, host_origin, region, buf_row, buf_slice, host_row,
                    host_slice, ptr, n, wait, &mine);
  return err != CL_SUCCESS ? err : rewrite(q, buf, blocking, mine, ev, "clEnqueueWriteBufferRect");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                                    size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint n, const cl_event *wait,
                                                    cl_event *ev) {
  static copy_fn real;
  if (!real)
    next("clEnqueueCopyBuffer", &real, sizeof real);
  if (dst_offset == 0 && size == buffer_size(dst))
    return real(q, src, dst, src_offset, dst_offset, size, n, wait, ev);
  cl_event mine = NULL;
  cl_int err = real(q, src, dst, src_offset, dst_offset, size, n, wait, &mine);
  return err != CL_SUCCESS ? err : rewrite(q, dst, CL_FALSE, mine, ev, "clEnqueueCopyBuffer");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue q, cl_mem src, cl_mem dst, const size_t *src_origin, const size_t *dst_origin,
    const size_t *region, size_t src_row, size_t src_slice, size_t dst_row, size_t dst_slice,
    cl_uint n, const cl_event *wait, cl_event *ev) {
  static copy_rect_fn real;
  if (!real)
    next("clEnqueueCopyBufferRect", &real, sizeof real);
  cl_event mine = NULL;
  cl_int err = real(q, src, dst, src_origin, dst_origin, region, src_row, src_slice, dst_row,
                    dst_slice, n, wait, &mine);
  return err != CL_SUCCESS ? err : rewrite(q, dst, CL_FALSE, mine, ev, "clEnqueueCopyBufferRect");
}

/* A fill stores its pattern once per element, each store replacing the shadow: even a fill of
 * the whole buffer leaves only its first pattern's bytes initialised. */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem buf,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t offset, size_t size, cl_uint n,
                                                    const cl_event *wait, cl_event *ev) {
  static fill_fn real;
  if (!real)
    next("clEnqueueFillBuffer", &real, sizeof real);
  cl_event mine = NULL;
  cl_int err = real(q, buf, pattern, pattern_size, offset, size, n, wait, &mine);
  return err != CL_SUCCESS ? err : rewrite(q, buf, CL_FALSE, mine, ev, "clEnqueueFillBuffer");
}

/* The buffer's last reference is kept (see the top of the file); the others are released. */
CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem buf) {
  static cl_int (*real)(cl_mem);
  if (!real)
    next("clReleaseMemObject", &real, sizeof real);
  cl_uint refs = 0;
  cl_int err = clGetMemObjectInfo(buf, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  if (err != CL_SUCCESS)
    return real(buf); /* an invalid handle: oclgrind reports it */
  return refs > 1 ? real(buf) : CL_SUCCESS;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size,
                                               void *host, cl_int *err) {
  static cl_mem (*real)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
  if (!real)
    next("clCreateBuffer", &real, sizeof real);
  cl_mem buf = real(ctx, flags, size, host, err);
  if (!buf || !host || !(flags & CL_MEM_COPY_HOST_PTR))
    return buf;
  size_t bytes = 0;
  cl_device_id *devs = NULL;
  cl_command_queue q = NULL;
  cl_int e = clGetContextInfo(ctx, CL_CONTEXT_DEVICES, 0, NULL, &bytes);
  if (e == CL_SUCCESS && bytes && (devs = malloc(bytes)))
    e = clGetContextInfo(ctx, CL_CONTEXT_DEVICES, bytes, devs, NULL);
  if (e == CL_SUCCESS && devs)
    q = clCreateCommandQueue(ctx, devs[0], 0, &e);
  if (q)
    e = clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, size, host, 0, NULL, NULL);
  if (!q || e != CL_SUCCESS)
    fprintf(stderr, "whole_writes: writing a new buffer of %zu bytes again failed (%d)\n", size, e);
  if (q)
    clReleaseCommandQueue(q);
  free(devs);
  return buf;
}

/* ---- freeze ------------------------------------------------------------------------------ */

typedef struct swap {
  cl_program built, unfrozen;
  struct swap *next;
} swap;
static swap *swaps;
static pthread_mutex_t swaps_lock = PTHREAD_MUTEX_INITIALIZER;

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[n] = 0;
    *len = (size_t)n;
  }
  return buf;
}

static int write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return 0;
  int ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

/* Whether `word` occurs in [t, end). */
static int within(const char *t, const char *end, const char *word) {
  const char *w = strstr(t, word);
  return w && w < end;
}

/* The IR text with every `= freeze T x` rewritten; NULL when there is none (or on failure). */
static char *unfreeze_text(const char *ir) {
  static const char key[] = "= freeze ";
  size_t count = 0;
  for (const char *p = ir; (p = strstr(p, key)); p += sizeof key - 1)
    count++;
  if (!count)
    return NULL;
  char *out = malloc(strlen(ir) + count * 32 + 1), *o = out;
  if (!out)
    return NULL;
  const char *p = ir, *f;
  while ((f = strstr(p, key))) {
    f += 2; /* at "freeze " */
    memcpy(o, p, (size_t)(f - p));
    o += f - p;
    const char *t = f + 7, *end = t; /* the type: "<N x T>" or one word */
    if (*t == '<')
      end = strchr(t, '>') + 1;
    else
      while (*end && *end != ' ')
        end++;
    const char *x = end + 1, *xe = x; /* the operand, to ',' or the line's end */
    while (*xe && *xe != ',' && *xe != '\n')
      xe++;
    const int fp = within(t, end, "float") || within(t, end, "double") || within(t, end, "half");
    const int vec = *t == '<';
    o += sprintf(o, "%s ", fp ? "fsub" : "add"); /* x - (+0.0) is x for every x, -0.0 too */
    memcpy(o, t, (size_t)(xe - t));
    o += xe - t;
    o += sprintf(o, ", %s", vec ? "zeroinitializer" : fp ? "0.000000e+00" : "0");
    p = xe;
  }
  strcpy(o, p);
  return out;
}

/* Builds the freeze-free copy of `prog`, if it needs one; NULL otherwise. */
static cl_program unfreeze(cl_program prog, const cl_device_id *devs, cl_uint ndev,
                           const char *options) {
  const char *dis = getenv("AMP_OCLGRIND_LLVM_DIS"), *as = getenv("AMP_OCLGRIND_LLVM_AS");
  if (!dis || !*dis || strstr(dis, "NOTFOUND") || !as || !*as || strstr(as, "NOTFOUND") || ndev > 1)
    return NULL;
  size_t size = 0;
  if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS ||
      !size)
    return NULL;
  unsigned char *bin = malloc(size);
  char dir[] = "/tmp/amp-unfreeze-XXXXXX", cmd[4096], bc[64], ll[64], out[64];
  cl_program result = NULL;
  char *ir = NULL, *fixed = NULL, *rebuilt = NULL;
  if (!bin || clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS ||
      !mkdtemp(dir))
    goto done;
  snprintf(bc, sizeof bc, "%s/in.bc", dir);
  snprintf(ll, sizeof ll, "%s/in.ll", dir);
  snprintf(out, sizeof out, "%s/out.bc", dir);
  size_t len = 0;
  snprintf(cmd, sizeof cmd, "env -u LD_PRELOAD '%s' -o '%s' '%s'", dis, ll, bc);
  if (!write_file(bc, bin, size) || system(cmd) != 0 || !(ir = read_file(ll, &len)))
    goto fail;
  if (!(fixed = unfreeze_text(ir)))
    goto done; /* nothing to do */
  snprintf(cmd, sizeof cmd, "env -u LD_PRELOAD '%s' -o '%s' '%s'", as, out, ll);
  if (!write_file(ll, fixed, strlen(fixed)) || system(cmd) != 0 ||
      !(rebuilt = read_file(out, &len)))
    goto fail;
  cl_context ctx = NULL;
  cl_device_id dev = NULL;
  cl_int err = clGetProgramInfo(prog, CL_PROGRAM_CONTEXT, sizeof ctx, &ctx, NULL);
  if (err == CL_SUCCESS)
    err = devs ? CL_SUCCESS : clGetProgramInfo(prog, CL_PROGRAM_DEVICES, sizeof dev, &dev, NULL);
  if (devs)
    dev = devs[0];
  const unsigned char *bins[1] = {(const unsigned char *)rebuilt};
  if (err == CL_SUCCESS)
    result = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, NULL, &err);
  if (result && clBuildProgram(result, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
    clReleaseProgram(result);
    result = NULL;
  }
  if (result)
    goto done;
fail:
  fprintf(stderr, "whole_writes: rebuilding a program without freeze failed (%s, %s)\n", dis, as);
done:
  if (dir[sizeof dir - 7] != 'X') {
    unlink(bc);
    unlink(ll);
    unlink(out);
    rmdir(dir);
  }
  free(bin);
  free(ir);
  free(fixed);
  free(rebuilt);
  return result;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program prog, cl_uint ndev,
                                               const cl_device_id *devs, const char *options,
                                               void(CL_CALLBACK *notify)(cl_program, void *),
                                               void *data) {
  static cl_int (*real)(cl_program, cl_uint, const cl_device_id *, const char *,
                        void(CL_CALLBACK *)(cl_program, void *), void *);
  if (!real)
    next("clBuildProgram", &real, sizeof real);
  cl_int err = real(prog, ndev, devs, options, notify, data);
  if (err != CL_SUCCESS)
    return err;
  cl_program unfrozen = unfreeze(prog, devs, ndev, options);
  if (unfrozen) {
    swap *s = malloc(sizeof *s);
    if (!s)
      return CL_OUT_OF_HOST_MEMORY;
    s->built = prog;
    s->unfrozen = unfrozen;
    pthread_mutex_lock(&swaps_lock);
    s->next = swaps;
    swaps = s;
    pthread_mutex_unlock(&swaps_lock);
  }
  return err;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program prog, const char *name, cl_int *err) {
  static cl_kernel (*real)(cl_program, const char *, cl_int *);
  if (!real)
    next("clCreateKernel", &real, sizeof real);
  pthread_mutex_lock(&swaps_lock);
  for (swap *s = swaps; s; s = s->next)
    if (s->built == prog) {
      prog = s->unfrozen;
      break;
    }
  pthread_mutex_unlock(&swaps_lock);
  return real(prog, name, err);
}

/* A released program's rebuilt copy goes with it (a later program may get the same handle). */
CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program prog) {
  static cl_int (*real)(cl_program);
  if (!real)
    next("clReleaseProgram", &real, sizeof real);
  cl_uint refs = 0;
  if (clGetProgramInfo(prog, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL) == CL_SUCCESS &&
      refs == 1) {
    pthread_mutex_lock(&swaps_lock);
    for (swap **s = &swaps; *s; s = &(*s)->next)
      if ((*s)->built == prog) {
        swap *gone = *s;
        *s = gone->next;
        real(gone->unfrozen);
        free(gone);
        break;
      }
    pthread_mutex_unlock(&swaps_lock);
  }
  return real(prog);
}
