/* ampcl/kernel.h: kernels in OpenCL C and parallel_for_each (C++ AMP §7).
 *
 * C has no restrict(amp) lambdas, so a kernel body is an OpenCL C kernel function. ampcl prepends
 * its kernel prelude (kernels_cl/prelude/ampcl_prelude.h, documented in docs/KERNELS.md) to every
 * source, which gives kernels AMP's vocabulary: AMP_INDEX / AMP_TILED_INDEX for idx, idx.global_id,
 * idx.local_id and idx.tile; tile_static; amp_barrier_wait() and its fence variants; fast_math_*
 * and precise_math_*; and AMP_VIEW / AMP_CONST_VIEW parameters whose extent is known inside the
 * kernel, read with amp_at(view, i, j). Also AMP's atomics (amp_atomic_fetch_add, ...,
 * amp_atomic_compare_exchange), its standalone fences (amp_all_memory_fence, ...), and its index
 * and extent arithmetic (amp_index2_add, amp_extent2_contains, ...).
 *
 * Debug mode: with AMP_DEBUG set in the environment (to anything but 0), programs are built with
 * -DAMP_DEBUG=1, every amp_at() checks its indexes against the view, and launches wait for their
 * kernel and fail with AMP_ERROR_OUT_OF_RANGE on an access outside a view, naming the view, the
 * index, the source line and the work item; the bad access itself went to a dummy element, so it
 * corrupted nothing (C++ AMP's REF accelerator played this part). docs/KERNELS.md has the details.
 *
 * A program is built once per device, at its first launch there (or at amp_program_build), and
 * cached in memory for the life of the process, keyed by source, options and device. A source
 * that fails to build gives AMP_ERROR_BUILD_FAILED, and amp_last_error() holds the compiler's whole
 * log, with line numbers counted in your source (the prelude is not counted).
 *
 * Threads: programs, kernels and launches may be used from any number of threads at once. */
#ifndef AMPCL_KERNEL_H
#define AMPCL_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "accelerator.h"
#include "array_view.h"
#include "export.h"
#include "extent.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* OpenCL C source plus build options, built on demand per device. Reference counted. */
typedef struct amp_program amp_program;
/* One kernel function of a program. Reference counted; holds a reference to its program. */
typedef struct amp_kernel amp_kernel;

/* A program from OpenCL C source text. `options` (may be NULL) are passed to the OpenCL compiler,
 * e.g. "-DTILE=16". The source is copied. */
AMP_API amp_status amp_program_create(const char *source, const char *options, amp_program **out);

/* A program from a .cl file, read now. AMP_ERROR_IO names the file if it cannot be read. */
AMP_API amp_status amp_program_create_from_file(const char *path, const char *options,
                                                amp_program **out);

/* A program from the kernels embedded in the library from kernels_cl/, by file name without
 * ".cl" (e.g. "matmul_tiled"). AMP_ERROR_NOT_FOUND lists the names there are. */
AMP_API amp_status amp_program_create_builtin(const char *name, const char *options,
                                              amp_program **out);

/* Builds the program for the accelerator now, rather than at its first launch: a way to pay the
 * compile time up front and to see build errors early. Everything a build costs is paid here:
 * when a kernel of the program has a struct parameter, the one probe build that finds its sizeof
 * runs here too (AMP_TRACE shows it as "ampcl parameter-size probe (program build)"), so a first
 * launch afterwards only creates its kernel object. */
AMP_API amp_status amp_program_build(amp_program *program, amp_accelerator *acc);

AMP_API amp_status amp_program_retain(amp_program *program);
AMP_API amp_status amp_program_release(amp_program *program);

/* The kernel function `name` of the program. Whether it exists is checked when the program is
 * first built for a device (AMP_CL_INVALID_KERNEL_NAME, naming it). */
AMP_API amp_status amp_kernel_create(amp_program *program, const char *name, amp_kernel **out);
AMP_API amp_status amp_kernel_retain(amp_kernel *kernel);
AMP_API amp_status amp_kernel_release(amp_kernel *kernel);

/* What one kernel argument is. */
typedef enum amp_arg_kind {
  AMP_ARG_VIEW = 1, /* an array view: fills two kernel parameters, AMP_VIEW(T, name) */
  AMP_ARG_INT32,
  AMP_ARG_UINT32,
  AMP_ARG_FLOAT,
  AMP_ARG_DOUBLE,
  AMP_ARG_BYTES,   /* a by-value struct: a pointer to its bytes and their size */
  AMP_ARG_LOCAL,   /* a __local (tile_static) buffer of the given size, allocated per tile */
  AMP_ARG_TEXTURE, /* a texture (ampcl/texture.h: amp_arg_texture) */
  AMP_ARG_SAMPLER, /* a sampler (ampcl/texture.h: amp_arg_sampler) */
  AMP_ARG_ARRAY,   /* an array, as its whole view (ampcl/array.h: amp_arg_array) */
  AMP_ARG_POINTER  /* a view passed as a plain pointer (amp_arg_pointer): one kernel parameter */
} amp_arg_kind;

/* One kernel argument. Make them with the amp_arg_* functions below, in the kernel's parameter
 * order: one argument per parameter as written, a view for each AMP_VIEW / AMP_CONST_VIEW.
 * Messages about arguments give their index in the array, counting from 0 ("argument 0" is
 * args[0]), name the parameter (v for AMP_VIEW(T, v)) and give both in ampcl's terms ("a view of
 * float", "int (by value)"); every mismatched argument of a launch is in one message. */
typedef struct amp_arg {
  amp_arg_kind kind;
  union {
    amp_array_view *view;
    int32_t i32;
    uint32_t u32;
    float f32;
    double f64;
    struct {
      const void *data;
      size_t size;
    } bytes;
    size_t local_size;
    struct amp_texture *texture;
    struct {
      int filter, address;
    } sampler;
    struct amp_array *array;
  } u;
} amp_arg;

/* A view for an AMP_VIEW / AMP_CONST_VIEW parameter, or for a plain pointer parameter of an
 * unchanged OpenCL kernel (`__global float *a`, `__global const float *a`, `__constant float *a`):
 * there it binds as amp_arg_pointer does, since the driver names the parameter a pointer. */
AMP_API amp_arg amp_arg_view(amp_array_view *view);
/* A view as a plain pointer parameter (`__global T *p`): the address of its element 0. Its
 * elements must be contiguous (a whole view, or a section whose rows follow each other; a strided
 * section is AMP_ERROR_KERNEL_ARGS, saying so), and its element type must be the pointer's. A const
 * or __constant pointer is a read (the view is not marked written); any other is a read and a
 * write. A section that starts inside its data must start on the device's base address alignment
 * (CL_DEVICE_MEM_BASE_ADDR_ALIGN; an error names both otherwise). amp_arg_view does the same for
 * such a parameter; this form also fills one parameter where the driver gives no parameter
 * information. In debug mode accesses through pointers are not checked: each launch with one says
 * so on stderr, naming them (docs/PORTING_OPENCL.md). */
AMP_API amp_arg amp_arg_pointer(amp_array_view *view);
AMP_API amp_arg amp_arg_int(int32_t value);
AMP_API amp_arg amp_arg_uint(uint32_t value);
AMP_API amp_arg amp_arg_float(float value);
AMP_API amp_arg amp_arg_double(double value);
AMP_API amp_arg amp_arg_bytes(const void *data, size_t size);
AMP_API amp_arg amp_arg_local(size_t bytes);

/* The number of elements in a fixed array of amp_arg. */
#define AMP_NARGS(args) (sizeof(args) / sizeof((args)[0]))

/* Runs `kernel` once for every index of `domain` on the accelerator view (AMP's
 * parallel_for_each(av, extent, lambda)). Views among the arguments are synchronised first (lazy
 * copy-in, rule 2 of the model) and count as written afterwards if the kernel parameter they fill
 * is not const and the view is not read-only. The launch is asynchronous: the call returns once
 * the kernel is enqueued, and synchronisation points wait for it.
 *
 * Errors leave host data untouched and enqueue nothing: a rank mismatch, an invalid extent, an
 * argument that does not match its parameter (AMP_ERROR_KERNEL_ARGS, naming the argument's index
 * from 0 and both types: a view for a scalar parameter, a scalar or amp_arg_bytes for a view or
 * pointer, a view of another element type; views of structs and amp_arg_bytes are compared by
 * size with the parameter's type: typedefs and one-token macros of built-in types are followed by
 * name, and for a struct ampcl asks the compiler its sizeof once, when the program is built), a
 * read-only view given to a non-const parameter (AMP_ERROR_ACCESS_DENIED), double data or arguments
 * on an accelerator without fp64 (AMP_ERROR_UNSUPPORTED_FEATURE), and a build failure (the build
 * log in amp_last_error()). A kernel written for a tile shape (AMP_TILE_SHAPE /
 * reqd_work_group_size) runs tiled with that shape, as amp_parallel_for_each_tiled would: its tile
 * is stated once, in the kernel (AMP_ERROR_INVALID_COMPUTE_DOMAIN where it does not divide the
 * extent, AMP_ERROR_RANK_MISMATCH where it has more dimensions than the extent). AMP_SUCCESS means
 * the kernel was enqueued; a failure while it runs is reported by the next call that waits for it
 * (a synchronize, amp_future_wait, ..._wait). */
AMP_API amp_status amp_parallel_for_each(amp_accelerator_view *view, amp_extent domain,
                                         amp_kernel *kernel, const amp_arg *args, size_t nargs);

/* The same over a tiled extent (AMP's parallel_for_each(av, tiled_extent, lambda)): threads run in
 * tiles that share tile_static memory and barriers. The tile must divide the extent
 * (AMP_ERROR_INVALID_COMPUTE_DOMAIN otherwise; see amp_tiled_extent_pad), and fit the device and
 * the kernel (AMP_ERROR_LIMIT_EXCEEDED names the limit: threads per tile, per dimension, or
 * tile_static bytes, declared in the kernel plus amp_arg_local, against the device's local memory;
 * on NVIDIA's OpenCL a kernel may declare more when the launch passes no amp_arg_local: see
 * docs/KERNELS.md, "tile_static memory beyond 48 KB on NVIDIA").
 * A kernel written for one tile shape (AMP_TILE_SHAPE(t0, t1) in the prelude, OpenCL's
 * reqd_work_group_size) runs only with that tile: another is AMP_ERROR_INVALID_ARGUMENT, naming
 * both shapes in AMP order. */
AMP_API amp_status amp_parallel_for_each_tiled(amp_accelerator_view *view, amp_tiled_extent domain,
                                               amp_kernel *kernel, const amp_arg *args,
                                               size_t nargs);

/* amp_parallel_for_each on the default accelerator's default view. It is the only _default
 * form: for a tiled launch on the default view, pass amp_default_view's view (accelerator.h) to
 * amp_parallel_for_each_tiled. */
AMP_API amp_status amp_parallel_for_each_default(amp_extent domain, amp_kernel *kernel,
                                                 const amp_arg *args, size_t nargs);

/* Everything one launch needs, for amp_parallel_for_each_ex. tile[] is used when tiled != 0. */
typedef struct amp_launch {
  amp_extent domain;
  int tiled;
  int tile[AMP_MAX_RANK];
  amp_kernel *kernel;
  const amp_arg *args;
  size_t nargs;
} amp_launch;

/* The general form: launches as above and, when done != NULL, returns a future for the kernel's
 * completion, whose amp_future_elapsed_ns() gives the kernel's device time. */
AMP_API amp_status amp_parallel_for_each_ex(amp_accelerator_view *view, const amp_launch *launch,
                                            amp_future **done);

/* A launch in OpenCL's terms, for a kernel ported unchanged from a raw OpenCL host program: what
 * clEnqueueNDRangeKernel(queue, k, work_dim, NULL, global_size, local_size, ...) would run, with
 * the arguments checked and the views' data moved as for amp_parallel_for_each_ex. global_size and
 * local_size are in OpenCL's order, dimension 0 the fastest (get_global_id(0) walks a row); AMP's
 * extent puts the slowest first, so global_size[d] becomes extent.dim[work_dim - 1 - d] (a 2-D
 * global_size {width, height} is amp_extent2(height, width)), and local_size likewise the tile.
 * local_size NULL: untiled (the driver picks the work-group size). Each local_size[d] must divide
 * global_size[d]; every size must be 1 to INT_MAX (AMP_ERROR_INVALID_COMPUTE_DOMAIN names the
 * dimension, in OpenCL's order); work_dim 1 to 3 (AMP_ERROR_INVALID_ARGUMENT). done: as for
 * amp_parallel_for_each_ex (NULL: no future). */
AMP_API amp_status amp_parallel_for_each_ndrange(amp_accelerator_view *view, amp_kernel *kernel,
                                                 unsigned work_dim, const size_t *global_size,
                                                 const size_t *local_size, const amp_arg *args,
                                                 size_t nargs, amp_future **done);

/* What the typed launchers call: those ampcl_embed_cl generates from a .cl file, one C function
 * NAME_launch per kernel NAME with a typed parameter per kernel parameter (docs/KERNELS.md, "Typed
 * launchers"); a program calls those, not this. It launches like amp_parallel_for_each_ex, on the
 * default accelerator's default view when `view` is NULL, after these checks, each an error
 * naming NAME_launch: the kernel is not NULL and is the kernel function `kernel_name`; no view or
 * texture among the arguments is NULL (params[i] names args[i]'s parameter); a view's element type
 * is the one the kernel's text declares (elems[i], the T of AMP_VIEW(T, v) as written, NULL for
 * other parameters; elems NULL: none), which needs no argument information from the driver; and a
 * tiled launch's tile has the extent's rank (tile_rank, amp_tiled_extent's; 0 for the extent's
 * own). */
AMP_API amp_status amp_parallel_for_each_typed(amp_accelerator_view *view, const amp_launch *launch,
                                               int tile_rank, const char *kernel_name,
                                               const char *const *params, const char *const *elems,
                                               amp_future **done);

#ifdef __cplusplus
}
#endif

#endif /* AMPCL_KERNEL_H */
