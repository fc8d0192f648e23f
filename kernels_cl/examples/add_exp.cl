/* add_exp.cl: result[i] = first[i] + exp(second[i]), the C++ AMP article's VectorAddExpPointwise.
 *
 * Element type: float only (fast_math functions are float-only, as in C++ AMP); the three views
 * are rank-1 views of AMP_FLOAT of the same length n (result's extent is taken as n).
 *
 *   add_exp       One element per thread, fast_math_exp (native_exp). No tile.
 *                 Domain: amp_extent1(n).
 *
 *   add_exp_vec4  The step it adds: four elements per thread as float4, so each thread issues one
 *                 16-byte load per input, one exp on a vector and one 16-byte store (fewer,
 *                 wider memory transactions and a quarter of the threads). Thread i handles
 *                 elements 4i .. 4i+3. Domain: amp_extent1((n + 3) / 4), no tile. The last
 *                 thread may hold fewer than 4 elements (n % 4 of them): a guard sends it, and
 *                 any view whose offset is not a multiple of 4 elements (a section), down a
 *                 scalar path, so float4 accesses are always 16-byte aligned.
 *
 * Launch (host C, errors elided to CHECK):
 *
 *     CHECK(amp_program_create_builtin("add_exp", NULL, &prog));
 *     CHECK(amp_kernel_create(prog, "add_exp_vec4", &k));
 *     CHECK(amp_array_view_create_const(amp_extent1(n), AMP_FLOAT, first, &vf));
 *     CHECK(amp_array_view_create_const(amp_extent1(n), AMP_FLOAT, second, &vs));
 *     CHECK(amp_array_view_create(amp_extent1(n), AMP_FLOAT, result, &vr));
 *     CHECK(amp_array_view_discard_data(vr));
 *     amp_arg args[] = {amp_arg_view(vf), amp_arg_view(vs), amp_arg_view(vr)};
 *     CHECK(amp_parallel_for_each(av, amp_extent1((n + 3) / 4), k, args, AMP_NARGS(args)));
 *     CHECK(amp_array_view_synchronize(vr));
 *
 * For add_exp the domain is amp_extent1(n). Precision is the device's native_exp: a few ulp on
 * GPUs, not IEEE exp; use precise_math_exp in your own copy where that matters. */

__kernel void add_exp(AMP_CONST_VIEW(float, first), AMP_CONST_VIEW(float, second),
                      AMP_VIEW(float, result)) {
  AMP_INDEX1(idx);
  const int i = idx[0];
  if (i >= amp_extent(result, 0))
    return;
  amp_at(result, i) = amp_at(first, i) + fast_math_exp(amp_at(second, i));
}

/* add_exp with an assert that always holds (the inputs are below exp's overflow), for amp-bench's
 * "assert" column: what amp_assert costs against "naive" (docs/KERNELS.md). */
__kernel void add_exp_assert(AMP_CONST_VIEW(float, first), AMP_CONST_VIEW(float, second),
                             AMP_VIEW(float, result), AMP_ASSERTS) {
  AMP_INDEX1(idx);
  const int i = idx[0];
  if (i >= amp_extent(result, 0))
    return;
  const float x = amp_at(second, i);
  amp_assert(x < 88.0f);
  amp_at(result, i) = amp_at(first, i) + fast_math_exp(x);
}

__kernel void add_exp_vec4(AMP_CONST_VIEW(float, first), AMP_CONST_VIEW(float, second),
                           AMP_VIEW(float, result)) {
  AMP_INDEX1(idx);
  const int n = amp_extent(result, 0), i = 4 * idx[0];
  if (i >= n)
    return;
  const int aligned = ((first_shape.s3 | second_shape.s3 | result_shape.s3) & 3) == 0;
  if (aligned && i + 3 < n) {
    const float4 x = *(__global const float4 *)&amp_at(first, i);
    const float4 y = *(__global const float4 *)&amp_at(second, i);
    *(__global float4 *)&amp_at(result, i) = x + fast_math_exp(y);
  } else {
    const int end = min(i + 4, n);
    for (int e = i; e < end; e++)
      amp_at(result, e) = amp_at(first, e) + fast_math_exp(amp_at(second, e));
  }
}

/* add_exp_cpu: for CPU devices (POCL). A CPU runtime gets its SIMD from the vector types in the
 * code, so each work-item handles CHUNK elements (-DCHUNK=256 by default) as float16 vectors:
 * vload16 and vstore16 need no alignment, and native_exp on a float16 is one vectorised call
 * instead of sixteen scalar ones. Fewer, larger work-items also cut the runtime's per-item cost.
 * The tail (n not a multiple of 16 within the last chunk) takes the scalar path.
 * Domain: amp_extent1((n + CHUNK - 1) / CHUNK), untiled. On a GPU use add_exp_vec4. */
#ifndef CHUNK /* add_exp_cpu's elements per work-item */
#define CHUNK 256
#endif
/* Streaming stores, for results too big to stay in the cache (n >= AE_STREAM_MIN elements,
 * default 2^23: 96 MB moved). A normal store first reads the cache line it writes into (to own
 * it), so each result element costs 8 bytes of memory traffic instead of 4: 16 bytes an element
 * in all, not 12. A non-temporal store writes around the cache. OpenCL C has no word for it;
 * clang, which POCL compiles with, has __builtin_nontemporal_store, and x86 needs an sfence after
 * such stores (OpenCL's own fences compile to nothing there). Smaller results are better left in
 * the cache, where the next kernel finds them. Elsewhere, or with -DAE_STREAM=0, vstore16 only.
 * On a 2-core CI machine this made 2^24 elements about a tenth faster (lab/NOTEBOOK.md). */
#ifndef AE_STREAM
#if defined(__clang__) && defined(__has_builtin) && (defined(__x86_64__) || defined(__i386__))
#if __has_builtin(__builtin_nontemporal_store) && __has_builtin(__builtin_ia32_sfence)
#define AE_STREAM 1
#endif
#endif
#endif
#ifndef AE_STREAM /* 1: add_exp_cpu's streaming stores (where clang and x86 allow them), 0: none */
#define AE_STREAM 0
#endif
#ifndef AE_STREAM_MIN /* add_exp_cpu streams its stores from this many elements on */
#define AE_STREAM_MIN (1 << 23)
#endif
__kernel void add_exp_cpu(AMP_CONST_VIEW(float, first), AMP_CONST_VIEW(float, second),
                          AMP_VIEW(float, result)) {
  AMP_INDEX1(idx);
  const int n = amp_extent(result, 0), start = CHUNK * idx[0], end = min(start + CHUNK, n);
  int i = start;
#if AE_STREAM
  /* Streaming stores need aligned vectors: every 16-element step of this chunk is 64-byte aligned
   * when the chunk's start is. */
  const int stream = n >= AE_STREAM_MIN && ((size_t)&amp_at(result, start) & 63) == 0;
#endif
  for (; i + 16 <= end; i += 16) {
    const float16 v = vload16(0, &amp_at(first, i)) + fast_math_exp(vload16(0, &amp_at(second, i)));
#if AE_STREAM
    if (stream)
      __builtin_nontemporal_store(v, (__global float16 *)&amp_at(result, i));
    else
#endif
      vstore16(v, 0, &amp_at(result, i));
  }
  for (; i < end; i++)
    amp_at(result, i) = amp_at(first, i) + fast_math_exp(amp_at(second, i));
#if AE_STREAM
  /* One sfence per tile of threads, after a barrier (n is the same everywhere, so every thread
   * reaches it): a CPU runtime runs a tile on one core, and a fence per work-item would stall
   * each 1 KB chunk on its own writes. */
  if (n >= AE_STREAM_MIN) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 0)
      __builtin_ia32_sfence();
  }
#endif
}
