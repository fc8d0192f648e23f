/* runtime/exec/kernel_pool.c: pools of cl_kernel objects, one per (build, kernel name), with what
 * the compiler says about the kernel's parameters and tile. clSetKernelArg is not thread-safe on
 * a shared cl_kernel, so each launch takes its own object from the pool and gives it back after
 * enqueueing (exec/launch.c). */
#include "core/clobjects.h"
#include "core/device_limits.h"
#include "exec/param_text.h"
#include "exec/param_type.h"
#include "exec/program_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct amp__cache_entry cache_entry;

void amp__params_free(amp__param *params, cl_uint n) {
  for (cl_uint i = 0; params && i < n; i++) {
    free(params[i].type);
    free(params[i].canon);
    free(params[i].name);
  }
  free(params);
}

/* A string parameter of clGetKernelArgInfo, whatever its length (malloc'd), or NULL. */
static char *arg_info_string(cl_kernel k, cl_uint i, cl_kernel_arg_info what) {
  size_t n = 0;
  if (clGetKernelArgInfo(k, i, what, 0, NULL, &n) != CL_SUCCESS || n == 0)
    return NULL;
  char *s = malloc(n + 1);
  if (s && clGetKernelArgInfo(k, i, what, n, s, NULL) != CL_SUCCESS) {
    free(s);
    return NULL;
  }
  if (s)
    s[n] = '\0';
  return s;
}

static void strip_spaces(char *s) {
  char *o = s;
  for (; *s; s++)
    if (*s != ' ')
      *o++ = *s;
  *o = '\0';
}

/* Whether the kernel's last parameter is AMP_ASSERTS' record: by its name, or where the driver
 * gives no parameter names, by the user's source (after the prelude's `#line 1 "...`) using it. */
static int has_asserts(const amp__kernel_pool *pool, const char *text) {
  if (!pool->nparams)
    return 0;
  if (pool->params)
    return strcmp(pool->params[pool->nparams - 1].name, "amp__asserts") == 0;
  const char *user = strstr(text, "\n#line 1 \"");
  return user && strstr(user, "AMP_ASSERTS") != NULL;
}

amp_status amp__kernel_pool_new(cache_entry *e, const char *name, const char *source,
                                amp_accelerator *acc, amp__kernel_pool **out) {
  amp_status status = AMP_SUCCESS;
  cl_kernel k = NULL;
  amp__kernel_pool *pool = calloc(1, sizeof *pool);
  if (!pool || !(pool->name = strdup(name))) {
    free(pool);
    return amp__set_error(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  cl_int err = CL_SUCCESS;
  k = clCreateKernel(e->program, name, &err);
  amp__clobj(AMP_CL_KERNEL, k ? 1 : 0);
  if (err == CL_INVALID_KERNEL_NAME)
    AMP__FAIL(AMP_CL_INVALID_KERNEL_NAME, "the program has no kernel function named \"%s\"", name);
  AMP__CL(err, "clCreateKernel");
  pthread_mutex_init(&pool->lock, NULL);
  pool->program = e->program;
  pool->checked = e->checked;
  pool->entry = e;
  AMP__CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof pool->nparams, &pool->nparams, NULL),
          "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
  AMP__CL(clGetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof pool->work_group_size, &pool->work_group_size, NULL),
          "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
  pool->work_group_size = amp__device_limits_kernel_tile(acc, pool->work_group_size);
  if (clGetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                               sizeof pool->required_tile, pool->required_tile, NULL) != CL_SUCCESS)
    memset(pool->required_tile, 0, sizeof pool->required_tile);
  if (clGetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof pool->static_local,
                               &pool->static_local, NULL) != CL_SUCCESS)
    pool->static_local = 0;
  pool->params = calloc(pool->nparams ? pool->nparams : 1, sizeof *pool->params);
  if (!pool->params)
    AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  for (cl_uint i = 0; i < pool->nparams; i++) {
    amp__param *pa = &pool->params[i];
    if (acc->fault_no_arg_info || /* AMP_DEVICE_LIMITS=arg_info=0: as such a driver */
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof pa->address, &pa->address,
                           NULL) != CL_SUCCESS ||
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof pa->qualifier, &pa->qualifier,
                           NULL) != CL_SUCCESS ||
        !(pa->type = arg_info_string(k, i, CL_KERNEL_ARG_TYPE_NAME))) {
      /* no argument info from this driver (ampcl asks for it with -cl-kernel-arg-info): the
       * checks that need it are skipped */
      amp__params_free(pool->params, pool->nparams);
      pool->params = NULL;
      break;
    }
    if (!(pa->name = arg_info_string(k, i, CL_KERNEL_ARG_NAME))) {
      char num[16];
      snprintf(num, sizeof num, "#%u", i);
      if (!(pa->name = strdup(num)))
        AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    strip_spaces(pa->type);
    if (!(pa->canon = amp__canonical_type(source, pa->type)))
      AMP__FAIL(AMP_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  pool->ntext = -1;
  if (!pool->params) /* what launch_args.c checks instead, read once here and not at each launch */
    pool->ntext = amp__kernel_text_params(e->text, name, &pool->text);
  amp__param_sizes(k, e, pool->params, pool->nparams);
  pool->asserts = has_asserts(pool, e->text);
  amp__kernel_give_back(pool, k);
  *out = pool;
  return AMP_SUCCESS;
fail:
  if (k)
    clReleaseKernel(k);
  amp__clobj(AMP_CL_KERNEL, k ? -1 : 0);
  amp__params_free(pool->params, pool->nparams);
  free(pool->name);
  free(pool);
  return status;
}

void amp__kernel_pool_free(amp__kernel_pool *pool) {
  for (size_t i = 0; i < pool->nfree; i++) {
    amp__release_kernel(pool->free[i]);
  }
  pthread_mutex_destroy(&pool->lock);
  free(pool->free);
  amp__params_free(pool->params, pool->nparams);
  amp__text_params_free(pool->text, pool->ntext);
  free(pool->name);
  free(pool);
}

amp_status amp__kernel_take(amp__kernel_pool *pool, cl_kernel *out) {
  amp_status status = AMP_SUCCESS;
  pthread_mutex_lock(&pool->lock);
  cl_kernel k = pool->nfree ? pool->free[--pool->nfree] : NULL;
  pthread_mutex_unlock(&pool->lock);
  if (!k) {
    cl_int err = CL_SUCCESS;
    k = clCreateKernel(pool->program, pool->name, &err);
    AMP__CL(err, "clCreateKernel");
    amp__clobj(AMP_CL_KERNEL, 1);
  }
  *out = k;
fail:
  return status;
}

void amp__kernel_give_back(amp__kernel_pool *pool, cl_kernel k) {
  pthread_mutex_lock(&pool->lock);
  if (pool->nfree == pool->cap) {
    size_t cap = pool->cap ? 2 * pool->cap : 4;
    cl_kernel *p = realloc(pool->free, cap * sizeof *p);
    if (!p) {
      pthread_mutex_unlock(&pool->lock);
      amp__release_kernel(k);
      return;
    }
    pool->free = p;
    pool->cap = cap;
  }
  pool->free[pool->nfree++] = k;
  pthread_mutex_unlock(&pool->lock);
}
