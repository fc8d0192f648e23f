/* runtime/data/texture.c: textures (ampcl/texture.h): an OpenCL image on one accelerator, made
 * empty or from host data, its copies to and from host memory and between textures (blocking, or
 * left running behind a future for the _async forms), and the ordering of the commands that use it.
 *
 * Unlike a view, a texture has no host copy and no coherence protocol: its one copy lives on its
 * accelerator. Commands on it (copies here, kernels in exec/launch_texture.c) may come from any
 * accelerator view of that accelerator, so each records its event: a read waits for the last
 * write, a write for the last write and the reads since. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_limit.h"
#include "core/clobjects.h"
#include "core/trace_impl.h"
#include "data/texture_impl.h"

/* ---- ordering ------------------------------------------------------------------------------- */

amp_status amp__texture_wait_list(amp_texture *t, int write, amp__evlist *wait) {
  if (t->last_write && amp__evlist_push(wait, t->last_write))
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; write && i < t->reads.n; i++)
    if (amp__evlist_push(wait, t->reads.ev[i]))
      return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  return AMP_SUCCESS;
}

/* Drops the reads that have finished, so a texture read many times keeps a short list. */
static void prune_reads(amp_texture *t) {
  size_t k = 0;
  for (size_t i = 0; i < t->reads.n; i++) {
    cl_int st = CL_QUEUED;
    clGetEventInfo(t->reads.ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (st == CL_COMPLETE)
      clReleaseEvent(t->reads.ev[i]);
    else
      t->reads.ev[k++] = t->reads.ev[i];
  }
  t->reads.n = k;
}

void amp__texture_record(amp_texture *t, int write, cl_event ev) {
  if (!ev)
    return;
  if (write) {
    if (t->last_write)
      clReleaseEvent(t->last_write);
    clRetainEvent(ev);
    t->last_write = ev;
    amp__evlist_clear(&t->reads);
  } else {
    prune_reads(t);
    if (amp__evlist_push(&t->reads, ev)) /* out of memory: wait now instead of recording it */
      amp__event_wait(ev);
  }
}

/* ---- create and release -------------------------------------------------------------------- */

static size_t dev_size(cl_device_id d, cl_device_info what) {
  size_t v = 0;
  if (clGetDeviceInfo(d, what, sizeof v, &v, NULL) != CL_SUCCESS)
    return 0;
  return v;
}

/* The extent against ranks 1..3, dimensions >= 1 and the device's image limits; the size in bytes,
 * overflow-checked. */
static amp_status check_extent(amp_accelerator *acc, amp_extent e, size_t texel, size_t *bytes,
                               const char *fn) {
  amp_status status = AMP_SUCCESS;
  if (e.rank < 1 || e.rank > 3)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: rank %d; textures have rank 1, 2 or 3", fn, e.rank);
  size_t n = texel;
  for (int d = 0; d < e.rank; d++) {
    if (e.dim[d] < 1)
      AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
                "%s: dimension %d of the extent is %d; every dimension of a texture must be >= 1",
                fn, d, e.dim[d]);
    if (n > SIZE_MAX / (size_t)e.dim[d])
      AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED, "%s: the texture's size in bytes overflows size_t", fn);
    n *= (size_t)e.dim[d];
  }
  /* Limits in AMP order: the last dimension is the image's width. */
  static const cl_device_info lim[3][3] = {
      {CL_DEVICE_IMAGE2D_MAX_WIDTH, 0, 0},
      {CL_DEVICE_IMAGE2D_MAX_HEIGHT, CL_DEVICE_IMAGE2D_MAX_WIDTH, 0},
      {CL_DEVICE_IMAGE3D_MAX_DEPTH, CL_DEVICE_IMAGE3D_MAX_HEIGHT, CL_DEVICE_IMAGE3D_MAX_WIDTH}};
  static const char *const lim_name[3][3] = {
      {"CL_DEVICE_IMAGE2D_MAX_WIDTH", "", ""},
      {"CL_DEVICE_IMAGE2D_MAX_HEIGHT", "CL_DEVICE_IMAGE2D_MAX_WIDTH", ""},
      {"CL_DEVICE_IMAGE3D_MAX_DEPTH", "CL_DEVICE_IMAGE3D_MAX_HEIGHT",
       "CL_DEVICE_IMAGE3D_MAX_WIDTH"}};
  for (int d = 0; d < e.rank; d++) {
    size_t max = dev_size(acc->device, lim[e.rank - 1][d]);
    if (max && (size_t)e.dim[d] > max)
      AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
                "%s: dimension %d of the extent is %d, above %s's limit of %zu for rank-%d "
                "textures (%s)",
                fn, d, e.dim[d], acc->props.device_path, max, e.rank, lim_name[e.rank - 1][d]);
  }
  AMP__TRY(amp__check_alloc(acc, n, fn));
  *bytes = n;
fail:
  return status;
}

static const char *rank_list(unsigned ranks, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int r = 0; r < 3; r++)
    if (ranks & (1u << r))
      o += (size_t)snprintf(buf + o, cap - o, "%s%d", o ? ", " : "", r + 1);
  return o ? buf : "none";
}

static amp_status create(amp_accelerator_view *view, amp_extent extent, amp_texel_format format,
                         amp_texture **out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp_texture *t = NULL;
  cl_context ctx;
  unsigned ranks = 0, write = 0;
  size_t bytes = 0;
  AMP__TRY(amp__check_handle(view, AMP__MAGIC_VIEW, "accelerator view", fn));
  if (!out)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
  AMP__TRY(amp__texel_format_check(format, fn));
  amp_accelerator *acc = view->acc;
  AMP__TRY(amp__texel_support(acc, format, &ranks, &write, fn));
  if (extent.rank >= 1 && extent.rank <= 3 && !(ranks & (1u << (extent.rank - 1)))) {
    char fbuf[64], rbuf[16];
    amp__texel_describe(format, fbuf, sizeof fbuf);
    AMP__FAIL(AMP_ERROR_UNSUPPORTED_FEATURE,
              "%s: %s does not support rank-%d textures of %s (ranks it supports for this format: "
              "%s; amp_texture_formats and amp-info list its formats)",
              fn, acc->props.device_path, extent.rank, fbuf, rank_list(ranks, rbuf, sizeof rbuf));
  }
  AMP__TRY(check_extent(acc, extent, amp_texel_size(format), &bytes, fn));
  AMP__TRY(amp__context(acc, &ctx));
  t = amp__handle_alloc(sizeof *t);
  if (!t)
    AMP__TRY(amp__handle_alloc_status());
  cl_image_format cf = amp__texel_cl_format(format);
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = extent.rank == 1   ? CL_MEM_OBJECT_IMAGE1D
                    : extent.rank == 2 ? CL_MEM_OBJECT_IMAGE2D
                                       : CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = (size_t)extent.dim[extent.rank - 1];
  desc.image_height = extent.rank >= 2 ? (size_t)extent.dim[extent.rank - 2] : 1;
  desc.image_depth = extent.rank == 3 ? (size_t)extent.dim[0] : 1;
  cl_int err = CL_SUCCESS;
  t->image = clCreateImage(ctx, CL_MEM_READ_WRITE, &cf, &desc, NULL, &err);
  if (err != CL_SUCCESS)
    AMP__FAIL(amp__cl_status(err), "%s: clCreateImage (%zu bytes on %s) failed: %s (%d)", fn, bytes,
              acc->props.device_path, amp_status_name(amp__cl_status(err)), (int)err);
  amp__clobj(AMP_CL_MEM, 1);
  pthread_mutex_init(&t->lock, NULL);
  amp_accelerator_view_retain(view);
  t->view = view;
  t->extent = extent;
  for (int d = extent.rank; d < AMP_MAX_RANK; d++)
    t->extent.dim[d] = 0;
  t->format = format;
  t->texel_bytes = amp_texel_size(format);
  t->bytes = bytes;
  t->magic = AMP__MAGIC_TEXTURE;
  t->refs = 1;
  *out = t;
  return AMP_SUCCESS;
fail:
  amp__handle_retire(t);
  return status;
}

amp_status amp_texture_create(amp_accelerator_view *view, amp_extent extent,
                              amp_texel_format format, amp_texture **out) {
  return create(view, extent, format, out, "amp_texture_create");
}

amp_status amp_texture_create_from(amp_accelerator_view *view, amp_extent extent,
                                   amp_texel_format format, const void *src, size_t bytes,
                                   amp_texture **out) {
  amp_status status = AMP_SUCCESS;
  amp_texture *t = NULL;
  const char *fn = "amp_texture_create_from";
  if (!src)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: src is NULL", fn);
  AMP__TRY(create(view, extent, format, &t, fn));
  if (bytes != t->bytes)
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH, "%s: %zu bytes given, but the texture holds %zu bytes", fn,
              bytes, t->bytes);
  AMP__TRY(amp_copy_to_texture(src, bytes, t));
  *out = t;
  return AMP_SUCCESS;
fail:
  amp_texture_release(t); /* NULL where it was not made: nothing */
  return status;
}

AMP__DEFINE_GETTER(amp_texture_get_extent, amp_texture, AMP__MAGIC_TEXTURE, "texture", amp_extent,
                   h->extent)
AMP__DEFINE_GETTER(amp_texture_get_format, amp_texture, AMP__MAGIC_TEXTURE, "texture",
                   amp_texel_format, h->format)
AMP__DEFINE_GETTER(amp_texture_get_bytes, amp_texture, AMP__MAGIC_TEXTURE, "texture", size_t,
                   h->bytes)
AMP__DEFINE_GETTER(amp_texture_get_accelerator_view, amp_texture, AMP__MAGIC_TEXTURE, "texture",
                   amp_accelerator_view *, h->view)

/* The last reference went: the image goes once the commands using it are done (OpenCL keeps it
 * alive for them), and so do the events and the accelerator view. */
static amp_status texture_destroy(amp_texture *t) {
  amp_accelerator_view *view = t->view;
  cl_mem image = t->image;
  if (t->last_write)
    clReleaseEvent(t->last_write);
  amp__evlist_free(&t->reads);
  pthread_mutex_destroy(&t->lock);
  amp__handle_retire(t);
  amp__release_mem(image);
  amp_accelerator_view_release(view);
  return AMP_SUCCESS;
}

AMP__DEFINE_REFCOUNT(amp_texture, AMP__MAGIC_TEXTURE, "texture", texture_destroy)

/* ---- copies ---------------------------------------------------------------------------------- */

static void region_of(const amp_texture *t, size_t region[3]) {
  const amp_extent e = t->extent;
  region[0] = (size_t)e.dim[e.rank - 1];
  region[1] = e.rank >= 2 ? (size_t)e.dim[e.rank - 2] : 1;
  region[2] = e.rank == 3 ? (size_t)e.dim[0] : 1;
}

static amp_status check_host_copy(amp_texture *t, const void *host, size_t bytes, int to_texture,
                                  const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(t, AMP__MAGIC_TEXTURE, "texture", fn));
  if (!host)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, to_texture ? "src" : "dst");
  if (bytes != t->bytes)
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH, "%s: %zu bytes given, but the texture holds %zu bytes", fn,
              bytes, t->bytes);
fail:
  return status;
}

static void dims_text(amp_extent e, char *buf, size_t cap) {
  size_t o = 0;
  for (int d = 0; d < e.rank && o < cap; d++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%d", d ? " x " : "", e.dim[d]);
}

static amp_status check_texture_copy(amp_texture *s, amp_texture *d, const char *fn) {
  amp_status status = AMP_SUCCESS;
  AMP__TRY(amp__check_handle(s, AMP__MAGIC_TEXTURE, "texture", fn));
  AMP__TRY(amp__check_handle(d, AMP__MAGIC_TEXTURE, "texture", fn));
  if (s->extent.rank != d->extent.rank || !amp_extent_equal(s->extent, d->extent)) {
    char a[48], b[48];
    dims_text(s->extent, a, sizeof a);
    dims_text(d->extent, b, sizeof b);
    AMP__FAIL(AMP_ERROR_EXTENT_MISMATCH,
              "%s: the source texture is %s (rank %d) but the destination %s (rank %d)", fn, a,
              s->extent.rank, b, d->extent.rank);
  }
  if (s->format.kind != d->format.kind || s->format.channels != d->format.channels ||
      s->format.bits != d->format.bits) {
    char a[64], b[64];
    amp__texel_describe(s->format, a, sizeof a);
    amp__texel_describe(d->format, b, sizeof b);
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT,
              "%s: the source texture holds %s but the destination %s; copies never convert "
              "texels",
              fn, a, b);
  }
fail:
  return status;
}

/* Host memory into the texture (to_texture) or out of it, ordered after the commands that use it
 * and recorded before the call returns, so that every later command is ordered after it. Blocking,
 * or (async_out) left running with its event as the future. */
static amp_status host_copy(amp_texture *t, void *host, size_t bytes, int to_texture,
                            amp_future **async_out, const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp__evlist wait = {0};
  cl_event ev = NULL;
  size_t origin[3] = {0, 0, 0}, region[3];
  AMP__TRY(check_host_copy(t, host, bytes, to_texture, fn));
  region_of(t, region);
  amp_accelerator_view *v = t->view;
  pthread_mutex_lock(&t->lock);
  status = amp__texture_wait_list(t, to_texture, &wait);
  if (status == AMP_SUCCESS) {
    amp__flush_producers(wait.ev, wait.n, v->queue);
    cl_bool block = async_out ? CL_FALSE : CL_TRUE;
    cl_int err = to_texture
                     ? clEnqueueWriteImage(v->queue, t->image, block, origin, region, 0, 0, host,
                                           (cl_uint)wait.n, wait.n ? wait.ev : NULL, &ev)
                     : clEnqueueReadImage(v->queue, t->image, block, origin, region, 0, 0, host,
                                          (cl_uint)wait.n, wait.n ? wait.ev : NULL, &ev);
    if (err != CL_SUCCESS)
      status = amp__set_error(amp__cl_status(err), "%s: %s failed: %s (%d)", fn,
                              to_texture ? "clEnqueueWriteImage" : "clEnqueueReadImage",
                              amp_status_name(amp__cl_status(err)), (int)err);
    else
      amp__texture_record(t, to_texture, ev);
  }
  pthread_mutex_unlock(&t->lock);
  if (status == AMP_SUCCESS) {
    amp__count_transfer(v->acc, to_texture ? AMP__TO_DEVICE : AMP__TO_HOST, bytes);
    status = amp__future_hand_over(&ev, async_out);
  }
fail:
  if (ev)
    clReleaseEvent(ev);
  amp__evlist_free(&wait);
  return status;
}

amp_status amp_copy_to_texture(const void *src, size_t bytes, amp_texture *dst) {
  return host_copy(dst, (void *)(uintptr_t)src, bytes, 1, NULL, "amp_copy_to_texture");
}

amp_status amp_copy_from_texture(amp_texture *src, void *dst, size_t bytes) {
  return host_copy(src, dst, bytes, 0, NULL, "amp_copy_from_texture");
}

/* On one accelerator: one device copy on the destination's queue, after the source's last write
 * and the destination's last write and reads; blocking, or (async_out) left running. */
static amp_status device_copy(amp_texture *s, amp_texture *d, amp_future **async_out,
                              const char *fn) {
  amp_status status = AMP_SUCCESS;
  amp__evlist wait = {0};
  cl_event ev = NULL;
  size_t origin[3] = {0, 0, 0}, region[3];
  region_of(s, region);
  amp_texture *first = (uintptr_t)s < (uintptr_t)d ? s : d, *second = first == s ? d : s;
  pthread_mutex_lock(&first->lock);
  pthread_mutex_lock(&second->lock);
  status = amp__texture_wait_list(s, 0, &wait);
  if (status == AMP_SUCCESS)
    status = amp__texture_wait_list(d, 1, &wait);
  if (status == AMP_SUCCESS) {
    amp__flush_producers(wait.ev, wait.n, d->view->queue);
    cl_int err = clEnqueueCopyImage(d->view->queue, s->image, d->image, origin, origin, region,
                                    (cl_uint)wait.n, wait.n ? wait.ev : NULL, &ev);
    if (err != CL_SUCCESS)
      status = amp__set_error(amp__cl_status(err), "%s: clEnqueueCopyImage failed: %s (%d)", fn,
                              amp_status_name(amp__cl_status(err)), (int)err);
    else {
      amp__texture_record(s, 0, ev);
      amp__texture_record(d, 1, ev);
      amp__count_transfer(d->view->acc, AMP__DEVICE_COPY, s->bytes);
    }
  }
  pthread_mutex_unlock(&second->lock);
  pthread_mutex_unlock(&first->lock);
  if (status == AMP_SUCCESS && async_out)
    status = amp__future_hand_over(&ev, async_out);
  else if (status == AMP_SUCCESS) /* blocking, as AMP's copy */
    status = amp__event_wait(ev) == CL_SUCCESS
                 ? AMP_SUCCESS
                 : amp__set_error(AMP_CL_EXEC_STATUS_ERROR, "%s: the device copy failed", fn);
  if (ev)
    clReleaseEvent(ev);
  amp__evlist_free(&wait);
  return status;
}

/* Texture to texture. On one accelerator a device copy, left running behind a future for
 * async_out; between accelerators through the host, done before it returns (a ready future). */
static amp_status texture_copy(amp_texture *src, amp_texture *dst, amp_future **async_out,
                               const char *fn) {
  amp_status status = AMP_SUCCESS;
  void *tmp = NULL;
  AMP__TRY(check_texture_copy(src, dst, fn));
  if (src != dst && src->view->acc == dst->view->acc)
    return device_copy(src, dst, async_out, fn);
  if (src != dst) { /* different accelerators: through the host */
    if (!(tmp = malloc(src->bytes)))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes", fn, src->bytes);
    AMP__TRY(host_copy(src, tmp, src->bytes, 0, NULL, fn));
    AMP__TRY(host_copy(dst, tmp, dst->bytes, 1, NULL, fn));
  }
  if (async_out)
    AMP__TRY(amp__future_done(AMP_SUCCESS, async_out));
fail:
  free(tmp);
  return status;
}

amp_status amp_copy_texture(amp_texture *src, amp_texture *dst) {
  return texture_copy(src, dst, NULL, "amp_copy_texture");
}

/* ---- asynchronous copies ---------------------------------------------------------------------
 * Each enqueues its command in the call, in the texture's order, exactly as the blocking form does,
 * and leaves it running: a later copy or kernel on the texture, from any thread or accelerator
 * view, waits for it, and the caller's host memory must stay as it is until the future is ready. */

amp_status amp_copy_to_texture_async(const void *src, size_t bytes, amp_texture *dst,
                                     amp_future **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK_OUT(out);
  AMP__TRY(host_copy(dst, (void *)(uintptr_t)src, bytes, 1, out, "amp_copy_to_texture_async"));
fail:
  return status;
}

amp_status amp_copy_from_texture_async(amp_texture *src, void *dst, size_t bytes,
                                       amp_future **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK_OUT(out);
  AMP__TRY(host_copy(src, dst, bytes, 0, out, "amp_copy_from_texture_async"));
fail:
  return status;
}

amp_status amp_copy_texture_async(amp_texture *src, amp_texture *dst, amp_future **out) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK_OUT(out);
  AMP__TRY(texture_copy(src, dst, out, "amp_copy_texture_async"));
fail:
  return status;
}
