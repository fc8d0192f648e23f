/* ampcl kernel prelude, part 2 of 4: C++ AMP's atomic functions and memory fences.
 *
 * The runtime puts this after ampcl_prelude.h in front of every program; an installed
 * ampcl_prelude.h includes it. docs/KERNELS.md explains it with examples.
 *
 *   C++ AMP                                    ampcl kernel (OpenCL C)
 *   ----------------------------------------   -------------------------------------------------
 *   atomic_fetch_add(&x, v), _sub              amp_atomic_fetch_add(&x, v), amp_atomic_fetch_sub
 *   atomic_fetch_inc(&x), atomic_fetch_dec     amp_atomic_fetch_inc(&x), amp_atomic_fetch_dec
 *   atomic_fetch_max, _min, _and, _or, _xor    amp_atomic_fetch_max, _min, _and, _or, _xor
 *   atomic_exchange(&x, v)                     amp_atomic_exchange(&x, v)   (int, unsigned, float)
 *   atomic_compare_exchange(&x, &expected, v)  amp_atomic_compare_exchange(&x, &expected, v)
 *   (none)                                     amp_atomic_fetch_add(&f, v) on a float (see below)
 *   all_memory_fence(idx.barrier)              amp_all_memory_fence()
 *   global_memory_fence(idx.barrier)           amp_global_memory_fence()
 *   tile_static_memory_fence(idx.barrier)      amp_tile_static_memory_fence()
 *
 * Operands: 32-bit int or unsigned int (uint), in global memory (a view's element: &amp_at(v, i))
 * or in tile_static memory; 64-bit long and ulong too where the device has 64-bit atomics (below).
 * The amp_ prefix is there because OpenCL C 2.0 and later define atomic_fetch_add and friends for
 * their own atomic_int types.
 *
 * Return values are AMP's (spec §8.2):
 *   - every fetch operation and amp_atomic_exchange return the value the location held just
 *     before the operation (the "original value"); amp_atomic_fetch_inc and _dec too;
 *   - amp_atomic_compare_exchange(dest, expected, value) compares *dest with *expected; when they
 *     are equal it stores value in *dest and returns true; otherwise it stores the value it read
 *     from *dest in *expected and returns false. It never fails spuriously: false always means
 *     *dest held something else, and *expected now holds it, so a retry loop needs no re-read:
 *
 *       int seen = amp_at(best, 0);
 *       while (seen < mine && !amp_atomic_compare_exchange(&amp_at(best, 0), &seen, mine)) {}
 *
 * Ordering: like OpenCL C 1.2's atomics (and AMP's), these are atomic on their own location and
 * order nothing else. To publish other data through an atomic (a flag, a counter), put a fence
 * between writing the data and the atomic, and another between the atomic and reading the data.
 *
 * These are overloaded functions (clang's __attribute__((overloadable)), as OpenCL C's own
 * builtins are declared in every clang-based OpenCL compiler), so one name covers both address
 * spaces and all element types, and a wrong operand (a const view, a double) fails to compile
 * with "no matching function". */
#ifndef AMPCL_ATOMICS_H
#define AMPCL_ATOMICS_H

#define AMP__OVERLOAD static inline __attribute__((overloadable))

/* One overload per element type and address space: name(dest, value) calls builtin(dest, value),
 * and name(dest) calls builtin(dest). */
#define AMP__ATOMIC_V(name, builtin, T, AS)                                                        \
  AMP__OVERLOAD T name(volatile AS T *dest, T value) {                                             \
    return builtin(dest, value);                                                                   \
  }
#define AMP__ATOMIC_0(name, builtin, T, AS)                                                        \
  AMP__OVERLOAD T name(volatile AS T *dest) {                                                      \
    return builtin(dest);                                                                          \
  }
#define AMP__ATOMIC_INTS(kind, name, builtin)                                                      \
  kind(name, builtin, int, __global) kind(name, builtin, uint, __global)                           \
      kind(name, builtin, int, __local) kind(name, builtin, uint, __local)

/* A const destination (an AMP_CONST_VIEW's element) would only draw a warning from C's rules;
 * these overloads match it exactly and make it an error that says why. */
#define AMP__CONST_DEST                                                                            \
  __attribute__((unavailable("an atomic's destination cannot be const (a read-only view?)")))
#define AMP__CONST_V(name, builtin, T, AS)                                                         \
  AMP__OVERLOAD AMP__CONST_DEST T name(const volatile AS T *dest, T value);
#define AMP__CONST_0(name, builtin, T, AS)                                                         \
  AMP__OVERLOAD AMP__CONST_DEST T name(const volatile AS T *dest);

/* ---- read-modify-write: each returns the original value ----------------------------------- */
AMP__ATOMIC_INTS(AMP__ATOMIC_V, amp_atomic_fetch_add, atomic_add)
AMP__ATOMIC_INTS(AMP__ATOMIC_V, amp_atomic_fetch_sub, atomic_sub)
AMP__ATOMIC_INTS(AMP__ATOMIC_0, amp_atomic_fetch_inc, atomic_inc)
AMP__ATOMIC_INTS(AMP__ATOMIC_0, amp_atomic_fetch_dec, atomic_dec)
AMP__ATOMIC_INTS(AMP__ATOMIC_V, amp_atomic_fetch_max, atomic_max)
AMP__ATOMIC_INTS(AMP__ATOMIC_V, amp_atomic_fetch_min, atomic_min)
AMP__ATOMIC_INTS(AMP__ATOMIC_V, amp_atomic_fetch_and, atomic_and)
AMP__ATOMIC_INTS(AMP__ATOMIC_V, amp_atomic_fetch_or, atomic_or)
AMP__ATOMIC_INTS(AMP__ATOMIC_V, amp_atomic_fetch_xor, atomic_xor)
AMP__ATOMIC_INTS(AMP__ATOMIC_V, amp_atomic_exchange, atomic_xchg)
AMP__ATOMIC_V(amp_atomic_exchange, atomic_xchg, float, __global)
AMP__ATOMIC_V(amp_atomic_exchange, atomic_xchg, float, __local)
/* every integer function's const-destination overloads, for one list of types */
#define AMP__CONST_DESTS(types)                                                                    \
  types(AMP__CONST_V, amp_atomic_fetch_add, ) types(AMP__CONST_V, amp_atomic_fetch_sub, )          \
      types(AMP__CONST_0, amp_atomic_fetch_inc, ) types(AMP__CONST_0, amp_atomic_fetch_dec, )      \
          types(AMP__CONST_V, amp_atomic_fetch_max, ) types(AMP__CONST_V, amp_atomic_fetch_min, )  \
              types(AMP__CONST_V, amp_atomic_fetch_and, )                                          \
                  types(AMP__CONST_V, amp_atomic_fetch_or, )                                       \
                      types(AMP__CONST_V, amp_atomic_fetch_xor, )                                  \
                          types(AMP__CONST_V, amp_atomic_exchange, )
AMP__CONST_DESTS(AMP__ATOMIC_INTS)
AMP__CONST_V(amp_atomic_exchange, , float, __global)
AMP__CONST_V(amp_atomic_exchange, , float, __local)
AMP__CONST_V(amp_atomic_fetch_add, , float, __global)
AMP__CONST_V(amp_atomic_fetch_add, , float, __local)

/* ---- compare and exchange ------------------------------------------------------------------ */
/* expected may be in private (the usual case: &a_variable), global or tile_static memory. */
#define AMP__CAS(T, AS, EAS, cmpxchg)                                                              \
  AMP__OVERLOAD bool amp_atomic_compare_exchange(volatile AS T *dest, EAS T *expected, T value) {  \
    const T want = *expected;                                                                      \
    const T seen = cmpxchg(dest, want, value);                                                     \
    if (seen == want)                                                                              \
      return true;                                                                                 \
    *expected = seen;                                                                              \
    return false;                                                                                  \
  }
#define AMP__CAS_CONST(T, AS, EAS)                                                                 \
  AMP__OVERLOAD AMP__CONST_DEST bool amp_atomic_compare_exchange(const volatile AS T *dest,        \
                                                                 EAS T *expected, T value);
#define AMP__CAS_EXPECTED(T, AS, cmpxchg)                                                          \
  AMP__CAS(T, AS, __private, cmpxchg)                                                              \
  AMP__CAS(T, AS, __global, cmpxchg)                                                               \
  AMP__CAS(T, AS, __local, cmpxchg)                                                                \
  AMP__CAS_CONST(T, AS, __private) AMP__CAS_CONST(T, AS, __global) AMP__CAS_CONST(T, AS, __local)
AMP__CAS_EXPECTED(int, __global, atomic_cmpxchg)
AMP__CAS_EXPECTED(uint, __global, atomic_cmpxchg)
AMP__CAS_EXPECTED(int, __local, atomic_cmpxchg)
AMP__CAS_EXPECTED(uint, __local, atomic_cmpxchg)

/* ---- 64-bit integers (an ampcl extension: AMP's atomics are 32-bit) -------------------------
 * The same functions on long and ulong, in global and tile_static memory, where the device lists
 * the extensions: cl_khr_int64_base_atomics for add, sub, inc, dec, exchange and compare-exchange,
 * cl_khr_int64_extended_atomics for min, max, and, or and xor. The runtime tells the prelude what
 * the device lists as AMP_INT64_ATOMICS (0, 1 base, 2 extended too); a compiler used on its own
 * (the build-time check of ampcl_embed_cl) goes by its own extension macros. Where an extension is
 * missing, a call does not compile, and the message names the extension. */
#ifndef AMP_INT64_ATOMICS
#if defined(cl_khr_int64_extended_atomics)
#define AMP_INT64_ATOMICS 2
#elif defined(cl_khr_int64_base_atomics)
#define AMP_INT64_ATOMICS 1
#else
#define AMP_INT64_ATOMICS 0
#endif
#endif
#define AMP__ATOMIC_LONGS(kind, name, builtin)                                                     \
  kind(name, builtin, long, __global) kind(name, builtin, ulong, __global)                         \
      kind(name, builtin, long, __local) kind(name, builtin, ulong, __local)
#define AMP__NO_BASE64                                                                             \
  __attribute__((                                                                                  \
      unavailable("64-bit atomics need the device extension cl_khr_int64_base_atomics, "           \
                  "which this device does not list (clinfo prints its extensions)")))
#define AMP__NO_EXT64                                                                              \
  __attribute__((unavailable("64-bit atomic min, max, and, or and xor need the device extension "  \
                             "cl_khr_int64_extended_atomics, which this device does not list "     \
                             "(clinfo prints its extensions)")))
#define AMP__MISSING_V(name, attr, T, AS) AMP__OVERLOAD attr T name(volatile AS T *dest, T value);
#define AMP__MISSING_0(name, attr, T, AS) AMP__OVERLOAD attr T name(volatile AS T *dest);
#define AMP__MISSING_CAS(name, attr, T, AS)                                                        \
  AMP__OVERLOAD attr bool name(volatile AS T *dest, __private T *expected, T value);

/* Each function a definition where its extension is there, else a declaration that says what is
 * missing. */
#if AMP_INT64_ATOMICS >= 1
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define AMP__BASE64_V(name, builtin) AMP__ATOMIC_LONGS(AMP__ATOMIC_V, name, builtin)
#define AMP__BASE64_0(name, builtin) AMP__ATOMIC_LONGS(AMP__ATOMIC_0, name, builtin)
AMP__CAS_EXPECTED(long, __global, atom_cmpxchg)
AMP__CAS_EXPECTED(ulong, __global, atom_cmpxchg)
AMP__CAS_EXPECTED(long, __local, atom_cmpxchg)
AMP__CAS_EXPECTED(ulong, __local, atom_cmpxchg)
#else
#define AMP__BASE64_V(name, builtin) AMP__ATOMIC_LONGS(AMP__MISSING_V, name, AMP__NO_BASE64)
#define AMP__BASE64_0(name, builtin) AMP__ATOMIC_LONGS(AMP__MISSING_0, name, AMP__NO_BASE64)
AMP__ATOMIC_LONGS(AMP__MISSING_CAS, amp_atomic_compare_exchange, AMP__NO_BASE64)
#endif
#if AMP_INT64_ATOMICS >= 2
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define AMP__EXT64_V(name, builtin) AMP__ATOMIC_LONGS(AMP__ATOMIC_V, name, builtin)
#else
#define AMP__EXT64_V(name, builtin) AMP__ATOMIC_LONGS(AMP__MISSING_V, name, AMP__NO_EXT64)
#endif
AMP__BASE64_V(amp_atomic_fetch_add, atom_add)
AMP__BASE64_V(amp_atomic_fetch_sub, atom_sub)
AMP__BASE64_0(amp_atomic_fetch_inc, atom_inc)
AMP__BASE64_0(amp_atomic_fetch_dec, atom_dec)
AMP__BASE64_V(amp_atomic_exchange, atom_xchg)
AMP__EXT64_V(amp_atomic_fetch_max, atom_max)
AMP__EXT64_V(amp_atomic_fetch_min, atom_min)
AMP__EXT64_V(amp_atomic_fetch_and, atom_and)
AMP__EXT64_V(amp_atomic_fetch_or, atom_or)
AMP__EXT64_V(amp_atomic_fetch_xor, atom_xor)
AMP__CONST_DESTS(AMP__ATOMIC_LONGS)

/* ---- float add (an ampcl extension: AMP has none) -------------------------------------------
 * OpenCL C 1.2 has no floating-point atomic add, so on most devices this is a
 * compare-and-exchange loop on the float's bits: add to what the location holds and store only
 * if nobody changed it meanwhile, else retry with what they stored. The first try guesses 0.0f
 * instead of reading the location plainly (a plain read beside other work items' atomics is a
 * data race, and oclgrind reports it): right at once on a zeroed sum, one retry otherwise.
 * Correct under any contention, but each conflict costs a retry, so prefer a per-tile reduction
 * in tile_static memory and one atomic per tile. On NVIDIA GPUs it is the hardware's own float
 * add (below). Float addition is not associative: the sum depends on the order the work items
 * happened to run in. */
#define AMP__FADD(AS)                                                                              \
  AMP__OVERLOAD float amp_atomic_fetch_add(volatile AS float *dest, float value) {                 \
    volatile AS uint *bits = (volatile AS uint *)dest;                                             \
    uint old = 0u, seen; /* a guess (0.0f): a plain read would race with others' atomics */        \
    while ((seen = atomic_cmpxchg(bits, old, as_uint(as_float(old) + value))) != old)              \
      old = seen;                                                                                  \
    return as_float(old);                                                                          \
  }
#if AMP_COMPUTE_CAPABILITY >= 20
/* NVIDIA GPUs add floats in hardware (PTX atom.add.f32, compute capability 2.0 and up): one
 * instruction, no retries. The address of a tile_static variable is its 32-bit offset in the
 * shared window, as PTX's .shared instructions take it. */
AMP__OVERLOAD float amp_atomic_fetch_add(volatile __global float *dest, float value) {
  float old;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(dest), "f"(value) : "memory");
  return old;
}
AMP__OVERLOAD float amp_atomic_fetch_add(volatile __local float *dest, float value) {
  float old;
  asm volatile("atom.shared.add.f32 %0, [%1], %2;"
               : "=f"(old)
               : "r"((uint)(size_t)dest), "f"(value)
               : "memory");
  return old;
}
#else
AMP__FADD(__global)
AMP__FADD(__local)
#endif

/* ---- standalone memory fences ---------------------------------------------------------------
 * A fence orders this work item's own memory operations: every load and store before it, in the
 * named memory, is complete before any load or store after it. It does not wait for other work
 * items (that is a barrier, amp_barrier_wait*, which also fences). Use it to publish data through
 * an atomic: write the data, fence, then set the flag or bump the counter; the work item that
 * sees the flag fences and then reads the data. AMP's fences take the tile's barrier, so they
 * exist only in tiled kernels; OpenCL's mem_fence needs no tile, so these work in any kernel.
 *   amp_all_memory_fence()          global and tile_static memory
 *   amp_global_memory_fence()       global memory (views, arrays)
 *   amp_tile_static_memory_fence()  tile_static memory */
#define amp_all_memory_fence()         mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#define amp_global_memory_fence()      mem_fence(CLK_GLOBAL_MEM_FENCE)
#define amp_tile_static_memory_fence() mem_fence(CLK_LOCAL_MEM_FENCE)

#endif /* AMPCL_ATOMICS_H */
