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
 * Second, the same checker never drops the shadow of a released buffer, and oclgrind hands a
 * released buffer's number to the next buffer created: the new buffer inherits the old one's
 * shadow (its size too, so stores past it are not recorded and later reads of them are reported,
 * and a kernel output is not marked uninitialised when first used). So clReleaseMemObject keeps
 * the buffer's last reference here: no number is ever reused. The memory is held to the end of
 * the process, which the small sizes of these runs afford. */
#define CL_TARGET_OPENCL_VERSION 120
#define _GNU_SOURCE
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef cl_int (*write_fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *,
                           cl_uint, const cl_event *, cl_event *);
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

static void *next(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "whole_writes: %s not found after this library (load it first)\n", name);
    abort();
  }
  return f;
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
  static write_fn write;
  if (!write)
    write = (write_fn)next("clEnqueueWriteBuffer");
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
    err = write(q, buf, blocking, 0, size, copy, 1, &got, &put);
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
    real = (write_fn)next("clEnqueueWriteBuffer");
  if (offset == 0 && size == buffer_size(buf))
    return real(q, buf, blocking, offset, size, ptr, n, wait, ev);
  cl_event mine = NULL;
  cl_int err = real(q, buf, blocking, offset, size, ptr, n, wait, &mine);
  return err != CL_SUCCESS ? err : rewrite(q, buf, blocking, mine, ev, "clEnqueueWriteBuffer");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue q, cl_mem buf, cl_bool blocking, const size_t *buf_origin,
    const size_t *host_origin, const size_t *region, size_t buf_row, size_t buf_slice,
    size_t host_row, size_t host_slice, const void *ptr, cl_uint n, const cl_event *wait,
    cl_event *ev) {
  static write_rect_fn real;
  if (!real)
    real = (write_rect_fn)next("clEnqueueWriteBufferRect");
  cl_event mine = NULL;
  cl_int err = real(q, buf, blocking, buf_origin, host_origin, region, buf_row, buf_slice,
                    host_row, host_slice, ptr, n, wait, &mine);
  return err != CL_SUCCESS ? err : rewrite(q, buf, blocking, mine, ev, "clEnqueueWriteBufferRect");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                                    size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint n, const cl_event *wait,
                                                    cl_event *ev) {
  static copy_fn real;
  if (!real)
    real = (copy_fn)next("clEnqueueCopyBuffer");
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
    real = (copy_rect_fn)next("clEnqueueCopyBufferRect");
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
    real = (fill_fn)next("clEnqueueFillBuffer");
  cl_event mine = NULL;
  cl_int err = real(q, buf, pattern, pattern_size, offset, size, n, wait, &mine);
  return err != CL_SUCCESS ? err : rewrite(q, buf, CL_FALSE, mine, ev, "clEnqueueFillBuffer");
}

/* The buffer's last reference is kept (see the top of the file); the others are released. */
CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem buf) {
  static cl_int (*real)(cl_mem);
  if (!real)
    real = (cl_int(*)(cl_mem))next("clReleaseMemObject");
  cl_uint refs = 0;
  cl_int err = clGetMemObjectInfo(buf, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
  if (err != CL_SUCCESS)
    return real(buf); /* an invalid handle: oclgrind reports it */
  return refs > 1 ? real(buf) : CL_SUCCESS;
}
