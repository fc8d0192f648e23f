/* runtime/exec/launch.c: parallel_for_each (AMP §7).
 *
 * A launch is checked whole before anything moves: domain, tile limits, argument kinds against
 * the kernel's parameters (from -cl-kernel-arg-info), access and fp64. Only then are views made
 * valid on the accelerator (source.c) and the kernel enqueued. A failed launch leaves host data
 * and every copy as they were. The arguments are walked only through the launch's table
 * (launch_table.h), each through its kind's hooks (arg_kinds.h); docs/ARCHITECTURE.md draws the
 * path. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/device_limits.h"
#include "core/trace_impl.h"
#include "data/source.h"
#include "exec/launch.h"
#include "exec/launch_args.h"
#include "exec/launch_assert.h"
#include "exec/launch_debug.h"
#include "exec/launch_table.h"
#include "exec/launch_texture.h"
#include "exec/launch_tile_static.h"
#include "exec/program.h"

/* "16 x 16": n sizes of an OpenCL-order triple, written in AMP order. */
static void amp_order(const size_t *cl3, int n, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int d = 0; d < n && o < cap; d++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%zu", d ? " x " : "", cl3[n - 1 - d]);
}

/* A kernel written for one tile shape (reqd_work_group_size, e.g. through AMP_TILE_SHAPE) runs
 * only with that tile: another tile would give wrong results or none. (An untiled launch has
 * taken the kernel's tile before this: tile_of_kernel.) */
static amp_status check_required_tile(const amp_launch *l, const amp__kernel_pool *pool,
                                      const size_t *local) {
  const size_t *rt = pool->required_tile;
  if (!rt[0] && !rt[1] && !rt[2])
    return AMP_SUCCESS;
  int krank = rt[2] > 1 ? 3 : rt[1] > 1 ? 2 : 1, rank = l->domain.rank;
  int n = krank > rank ? krank : rank;
  char want[64], got[64];
  amp_order(rt, n, want, sizeof want);
  size_t lc[3] = {local[0], local[1], local[2]};
  for (int d = rank; d < 3; d++)
    lc[d] = 1;
  if (lc[0] != rt[0] || lc[1] != rt[1] || lc[2] != rt[2]) {
    amp_order(lc, n, got, sizeof got);
    return amp__set_error(AMP_ERROR_INVALID_ARGUMENT,
                          "parallel_for_each(%s): the kernel is written for tiles of %s "
                          "(reqd_work_group_size / AMP_TILE_SHAPE), but it was launched with "
                          "tiles of %s (AMP order)",
                          pool->name, want, got);
  }
  return AMP_SUCCESS;
}

/* An untiled launch of a kernel written for one tile shape runs tiled with that shape, so a
 * program states its tile once, in the kernel: *own is the launch to run (l itself otherwise).
 * A kernel's tile of higher rank than the extent is refused, naming both. */
static amp_status tile_of_kernel(const amp_launch *l, const amp__kernel_pool *pool,
                                 amp_launch *own) {
  const size_t *rt = pool->required_tile;
  const int rank = l->domain.rank;
  *own = *l;
  if (l->tiled || (!rt[0] && !rt[1] && !rt[2]) || rank < 1 || rank > AMP_MAX_RANK)
    return AMP_SUCCESS; /* check_domain reports a bad rank */
  int krank = rt[2] > 1 ? 3 : rt[1] > 1 ? 2 : 1;
  if (krank > rank) {
    char want[64];
    amp_order(rt, krank, want, sizeof want);
    return amp__set_error(AMP_ERROR_RANK_MISMATCH,
                          "parallel_for_each(%s): the kernel is written for tiles of %s "
                          "(reqd_work_group_size / AMP_TILE_SHAPE), of rank %d, but the extent "
                          "has rank %d",
                          pool->name, want, krank, rank);
  }
  own->tiled = 1;
  for (int d = 0; d < rank; d++)
    own->tile[d] = (int)rt[rank - 1 - d];
  return AMP_SUCCESS;
}

/* Checks the domain; fills OpenCL global and local sizes (reversed: AMP's last dimension is
 * OpenCL's dimension 0). */
/* ", though DEVICE allows N" where the device would take more than AMP's limit: code that ran
 * there would fail on a GPU. Formatted into a per-thread buffer (only on the error path). */
static const char *device_allows_note(const amp_accelerator *acc) {
  static _Thread_local char note[256];
  note[0] = '\0';
  if (acc->device_max_tile > AMP__MAX_TILE_THREADS)
    snprintf(note, sizeof note,
             " (%s itself allows %zu, but code written for that fails on a GPU: amp_kernel_limits "
             "and max_tile_size report 1024)",
             acc->props.device_path, acc->device_max_tile);
  return note;
}

/* tile_by_kernel: the tile is the kernel's own (tile_of_kernel), for the messages. */
static amp_status check_domain(const amp_launch *l, const amp_accelerator *acc,
                               const amp__kernel_pool *pool, int tile_by_kernel, size_t *global,
                               size_t *local) {
  amp_status status = AMP_SUCCESS;
  const amp_extent e = l->domain;
  const char *kname = pool->name;
  if (!amp_extent_is_valid(e))
    AMP__FAIL(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
              "parallel_for_each(%s): the extent (rank %d, %d x %d x %d) is not valid: ampcl "
              "supports ranks 1 to 3, and every dimension must be > 0",
              kname, e.rank, e.dim[0], e.dim[1], e.dim[2]);
  size_t threads = 1;
  for (int d = 0; d < e.rank; d++) {
    global[e.rank - 1 - d] = (size_t)e.dim[d];
    if (!l->tiled)
      continue;
    int t = l->tile[d];
    if (t <= 0)
      AMP__FAIL(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                "parallel_for_each(%s): tile size %d in dimension %d is not positive", kname, t, d);
    if (e.dim[d] % t != 0)
      AMP__FAIL(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                "parallel_for_each(%s): tile size %d%s does not divide the extent's dimension %d "
                "(%d); pad the tiled extent (amp_tiled_extent_pad) and check bounds in the kernel, "
                "or truncate it",
                kname, t, tile_by_kernel ? " (the kernel's own tile)" : "", d, e.dim[d]);
    size_t lim = acc->props.max_tile_extent[AMP_MAX_RANK - e.rank + d];
    if ((size_t)t > AMP__MAX_TILE_THREADS)
      AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
                "parallel_for_each(%s): tile size %d in dimension %d exceeds C++ AMP's limit of "
                "%d threads per tile, which ampcl keeps on every device%s",
                kname, t, d, AMP__MAX_TILE_THREADS, device_allows_note(acc));
    if (e.rank == 3 && d == 0 && t > AMP__MAX_TILE_DEPTH)
      AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
                "parallel_for_each(%s): tile size %d in dimension 0 of a rank-3 tile exceeds C++ "
                "AMP's limit of %d threads in that dimension, which ampcl keeps on every device",
                kname, t, AMP__MAX_TILE_DEPTH);
    if ((size_t)t > lim)
      AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
                "parallel_for_each(%s): tile size %d in dimension %d exceeds %s's limit of %zu "
                "threads in that dimension",
                kname, t, d, acc->props.device_path, lim);
    local[e.rank - 1 - d] = (size_t)t;
    threads *= (size_t)t;
  }
  if (l->tiled && threads > AMP__MAX_TILE_THREADS)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): a tile of %zu threads exceeds C++ AMP's limit of %d threads "
              "per tile, which ampcl keeps on every device%s",
              kname, threads, AMP__MAX_TILE_THREADS, device_allows_note(acc));
  if (l->tiled && threads > acc->props.max_tile_size)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): a tile of %zu threads exceeds %s's limit of %zu threads per "
              "tile",
              kname, threads, acc->props.device_path, acc->props.max_tile_size);
  AMP__TRY(check_required_tile(l, pool, local));
  /* The kernel's own limit (registers, local memory). CL_KERNEL_WORK_GROUP_SIZE is not trusted as
   * one on any implementation (accelerator_impl.h): a larger tile is tried, and the driver's
   * refusal, remembered, is the limit. Debug mode says when a launch is such a try. */
  size_t refused = atomic_load(&pool->refused_tile);
  if (l->tiled && threads > pool->work_group_size && refused && threads >= refused)
    AMP__FAIL(AMP_ERROR_LIMIT_EXCEEDED,
              "parallel_for_each(%s): a tile of %zu threads exceeds this kernel's limit on %s "
              "(whose own limit is %zu): the driver refused a tile of %zu threads "
              "(CL_KERNEL_WORK_GROUP_SIZE %zu; its registers (private memory) or its %llu bytes of "
              "tile_static memory (of %llu) allow no more; amp_kernel_limits reports them)",
              kname, threads, acc->props.device_path, acc->props.max_tile_size, refused,
              pool->work_group_size, (unsigned long long)pool->static_local,
              (unsigned long long)acc->props.local_memory);
  if (l->tiled && threads > pool->work_group_size && amp__debug_enabled())
    fprintf(stderr,
            "[ampcl] debug: parallel_for_each(%s): a tile of %zu threads is above the %zu that %s "
            "reports for this kernel (CL_KERNEL_WORK_GROUP_SIZE); the launch is tried, and the "
            "driver's answer decides\n",
            kname, threads, pool->work_group_size, acc->props.device_path);
fail:
  return status;
}

/* The status of a kernel enqueue the driver refused. A tile above the kernel's reported limit
 * (check_domain let it through) refused for lack of resources is the kernel's real limit: it is
 * remembered, so the next launch of that size is refused before data moves, and reported as
 * such. */
static amp_status refused_launch(const amp_launch *l, const amp_accelerator *acc,
                                 amp__kernel_pool *pool, const size_t *local, cl_int err) {
  size_t threads = local[0] * local[1] * local[2];
  if (l->tiled && threads > pool->work_group_size &&
      (err == CL_OUT_OF_RESOURCES || err == CL_INVALID_WORK_GROUP_SIZE)) {
    size_t seen = atomic_load(&pool->refused_tile);
    while ((!seen || threads < seen) &&
           !atomic_compare_exchange_weak(&pool->refused_tile, &seen, threads))
      ;
    return amp__set_error(AMP_ERROR_LIMIT_EXCEEDED,
                          "parallel_for_each(%s): a tile of %zu threads exceeds this kernel's "
                          "limit on %s: the driver refused it (%s): the kernel needs more "
                          "registers or memory per thread than a tile this large can have; "
                          "CL_KERNEL_WORK_GROUP_SIZE %zu always runs",
                          pool->name, threads, acc->props.device_path,
                          amp_status_name(amp__cl_status(err)), pool->work_group_size);
  }
  return amp__set_error(
      amp__cl_status(err), "parallel_for_each(%s): clEnqueueNDRangeKernel failed: %s (%d)%s",
      pool->name, amp_status_name(amp__cl_status(err)), (int)err, amp__device_fault_hint(err));
}

amp_status amp__launch(amp_accelerator_view *view, const amp_launch *launch, amp_future **done,
                       int *enqueued) {
  amp_status status = AMP_SUCCESS;
  *enqueued = 0;
  AMP__TRACE_BEGIN;
  amp__kernel_pool *pool = NULL;
  cl_kernel k = NULL;
  amp__use stack_uses[16], *uses = stack_uses;
  amp__evlist wait = {0};
  amp__launch_table table = {0};
  amp__launch_debug debug = {0};
  amp__launch_assert asserts = {0};
  amp__tex_uses tex = {0};
  cl_event ev = NULL;
  size_t nuses = 0;
  int acquired = 0;
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};

  AMP__CHECK(view, AMP__MAGIC_VIEW, "accelerator view");
  if (!launch)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each_ex: launch is NULL");
  AMP__CHECK(launch->kernel, AMP__MAGIC_KERNEL, "kernel");
  if (launch->nargs && !launch->args)
    AMP__FAIL(AMP_ERROR_INVALID_ARGUMENT, "parallel_for_each(%s): args is NULL but nargs is %zu",
              launch->kernel->name, launch->nargs);
  amp_accelerator *acc = view->acc;
  AMP__TRY(amp__kernel_pool_get(launch->kernel, acc, &pool));
  amp_launch own;
  AMP__TRY(tile_of_kernel(launch, pool, &own));
  const int tile_by_kernel = own.tiled && !launch->tiled;
  launch = &own;
  AMP__TRY(check_domain(launch, acc, pool, tile_by_kernel, global, local));
  if (launch->nargs > 16 && !(uses = malloc(launch->nargs * sizeof *uses)))
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  AMP__TRY(amp__launch_table_init(&table, launch, acc, pool));
  AMP__TRY(amp__check_args(&table));
  nuses = amp__launch_uses(&table, uses);
  AMP__TRY(amp__kernel_take(pool, &k));
  AMP__TRY(amp__launch_set_args(&table, k));
  AMP__TRY(amp__check_tile_static(&table, k));
  if (pool->checked)
    AMP__TRY(amp__debug_begin(&debug, &table, k));
  if (pool->asserts)
    AMP__TRY(amp__assert_begin(&asserts, &table, k));

  /* Everything is checked: now data may move. */
  char why[160] = "";
  if (amp__trace_on()) /* the reason is written only for the trace */
    snprintf(why, sizeof why, "copy in for kernel %s", pool->name);
  const char *prev_reason = amp__trace_reason(why);
  status = amp__uses_acquire(view, uses, nuses, &wait);
  amp__trace_reason(prev_reason);
  if (status != AMP_SUCCESS)
    goto fail;
  acquired = 1;
  for (size_t u = 0; pool->checked == AMP__CHECKED_DEBUG && u < nuses; u++) /* debug: poison */
    AMP__TRY(amp__use_poison(view, &uses[u], &wait));
  AMP__TRY(amp__texture_uses_acquire(&table, &tex, &wait)); /* textures stay locked */
  AMP__TRY(amp__launch_set_data(&table, k));                /* the views' buffers, now there */
  int rank = launch->domain.rank;
  amp__flush_producers(wait.ev, wait.n, view->queue);
  /* An event only when something needs one: views to record, a future, or the trace. */
  const int tracing = amp__trace_on();
  const uint64_t t_enq = tracing ? amp__trace_now() : 0;
  /* AMP_DEVICE_LIMITS' kernel_tile: a simulated driver refuses a tile above it */
  cl_int err = amp__device_limits_enqueue(acc, launch->tiled ? local : NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(
        view->queue, k, (cl_uint)rank, NULL, global, launch->tiled ? local : NULL, (cl_uint)wait.n,
        wait.n ? wait.ev : NULL, nuses || tex.n || done || tracing ? &ev : NULL);
  if (err != CL_SUCCESS)
    AMP__TRY(refused_launch(launch, acc, pool, local, err));
  *enqueued = 1;
  if (tracing) {
    char shape[96];
    int o =
        snprintf(shape, sizeof shape, "global %zu x %zu x %zu", global[2], global[1], global[0]);
    if (launch->tiled && o > 0 && (size_t)o < sizeof shape)
      snprintf(shape + o, sizeof shape - (size_t)o, ", tile %zu x %zu x %zu", local[2], local[1],
               local[0]);
    amp__trace_command(acc, view->queue, ev, "kernel", 0, pool->name, shape, t_enq);
  }
  amp__uses_finish(view, uses, nuses, ev);
  amp__texture_uses_finish(&tex, ev);
  acquired = 0;
  amp__view_enqueued(view);
  if (pool->checked ==
      AMP__CHECKED_DEBUG) { /* debug mode: wait, report a bad access or a discarded read */
    AMP__TRY(amp__debug_end(&debug, view->queue, &table));
    AMP__TRY(amp__debug_poison_check(view, &table, &debug, uses, nuses));
  }
  if (pool->asserts) /* amp_assert: wait, and report the first failure */
    AMP__TRY(amp__assert_end(&asserts, view->queue, &table));
  if (done) {
    AMP__TRY(amp__future_create(ev, 1, done));
    ev = NULL;
  }
fail:
  if (acquired)
    amp__uses_finish(view, uses, nuses, NULL);
  amp__texture_uses_finish(&tex, NULL); /* unlocks what is still locked; nothing if none */
  if (k)
    amp__kernel_give_back(pool, k);
  amp__debug_release(&debug);
  amp__assert_release(&asserts);
  if (ev)
    clReleaseEvent(ev);
  amp__evlist_free(&wait);
  amp__uses_poison_free(uses, nuses);
  if (uses != stack_uses)
    free(uses);
  amp__launch_table_free(&table);
  AMP__TRACE_END("amp_parallel_for_each");
  return status;
}

amp_status amp_parallel_for_each_ex(amp_accelerator_view *view, const amp_launch *launch,
                                    amp_future **done) {
  int enqueued;
  return amp__launch(view, launch, done, &enqueued);
}

amp_status amp_parallel_for_each(amp_accelerator_view *view, amp_extent domain, amp_kernel *kernel,
                                 const amp_arg *args, size_t nargs) {
  amp_launch l = {domain, 0, {1, 1, 1}, kernel, args, nargs};
  return amp_parallel_for_each_ex(view, &l, NULL);
}

amp_status amp_parallel_for_each_tiled(amp_accelerator_view *view, amp_tiled_extent domain,
                                       amp_kernel *kernel, const amp_arg *args, size_t nargs) {
  amp_status status = AMP_SUCCESS;
  AMP__CHECK(kernel, AMP__MAGIC_KERNEL, "kernel");
  if (domain.extent.rank >= 1 && domain.extent.rank <= AMP_MAX_RANK && domain.tile_rank != 0 &&
      domain.tile_rank != domain.extent.rank)
    AMP__FAIL(AMP_ERROR_RANK_MISMATCH,
              "parallel_for_each(%s): a rank-%d tile was given for a rank-%d extent; use "
              "amp_tile%d",
              kernel->name, domain.tile_rank, domain.extent.rank, domain.extent.rank);
  amp_launch l = {domain.extent, 1,    {domain.tile[0], domain.tile[1], domain.tile[2]},
                  kernel,        args, nargs};
  return amp_parallel_for_each_ex(view, &l, NULL);
fail:
  return status;
}

amp_status amp_parallel_for_each_default(amp_extent domain, amp_kernel *kernel, const amp_arg *args,
                                         size_t nargs) {
  amp_status status = AMP_SUCCESS;
  amp_accelerator_view *view;
  AMP__TRY(amp_default_view(&view));
  AMP__TRY(amp_parallel_for_each(view, domain, kernel, args, nargs));
fail:
  return status;
}
