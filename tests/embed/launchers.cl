/* tests/embed/launchers.cl: kernels with every kind of parameter the typed launchers know
 * (cmake/ampclLaunchers.cmake), for test_typed_launch; tests/embed/run.cmake reads its header too.
 * Not kernels: __kernel void fake_in_comment(int x) {} here, one in a string and one in a
 * directive below. */
#define SCALE 3 /* __kernel void fake_in_directive(int x) {} */
#define ELEM  int

typedef struct pair {
  int a;
  float b;
} pair;

__constant char note[] = "__kernel void fake_in_string(int x) {}";

/* not a kernel: a helper */
static int scaled(int x) {
  return SCALE * x;
}

/* Every scalar type, written to out[0..11] by work-item 0. */
__kernel void scalars(AMP_VIEW(float, out), int i, uint u, float f, long l, ulong ul, short s,
                      ushort us, char c, uchar uc, const int ci, unsigned int ui,
                      __private const float pf) {
  if (get_global_id(0) != 0)
    return;
  amp_at(out, 0) = i;
  amp_at(out, 1) = u;
  amp_at(out, 2) = f;
  amp_at(out, 3) = l;
  amp_at(out, 4) = ul;
  amp_at(out, 5) = s;
  amp_at(out, 6) = us;
  amp_at(out, 7) = c;
  amp_at(out, 8) = uc;
  amp_at(out, 9) = ci;
  amp_at(out, 10) = ui;
  amp_at(out, 11) = pf + note[0] - '_';
}

#ifdef AMP_HAS_DOUBLE
__kernel void with_double(AMP_VIEW(double, out), double d) {
  amp_at(out, get_global_id(0)) = d;
}
#endif

__kernel void views(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out), int domain, int av);

/* out = in * domain + av: parameters named as the launcher's own (the launcher renames them) */
__kernel void views(AMP_CONST_VIEW(int, in), AMP_VIEW(int, out), int domain, int av) {
  AMP_INDEX1(i);
  amp_at(out, i[0]) = scaled(amp_at(in, i[0])) / SCALE * domain + av;
}

/* each tile's sum, through a __local parameter: tiled */
__kernel void tiled_sum(AMP_CONST_VIEW(float, in), AMP_VIEW(float, sums), __local float *part) {
  const int me = (int)get_local_id(0);
  part[me] = amp_at(in, get_global_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (me == 0) {
    float s = 0.0f;
    for (int k = 0; k < (int)get_local_size(0); k++)
      s += part[k];
    amp_at(sums, get_group_id(0)) = s;
  }
}

/* tiled because of its shape alone: its body knows nothing of tiles */
AMP_TILE_SHAPE(4)
__kernel void shaped(AMP_VIEW(int, out)) {
  AMP_INDEX1(i);
  amp_at(out, i[0]) = i[0];
}

/* a struct by value, and a scalar whose type is a macro: amp_arg parameters */
__kernel void by_value(AMP_VIEW(float, out), pair p, ELEM e) {
  amp_at(out, 0) = p.a + p.b + e;
}

/* views whose element type is a macro and a typedef: the launcher follows both to int and float */
typedef float real;
__kernel void named_elems(AMP_VIEW(ELEM, counts), AMP_CONST_VIEW(real, weights)) {
  AMP_INDEX1(i);
  amp_at(counts, i[0]) = (int)amp_at(weights, i[0]);
}

__kernel void nothing(void) {
}

/* a brace opened in both branches of an #if and closed once: counted in the first branch */
__kernel void branchy(AMP_VIEW(int, out), int x) {
#if SCALE > 2
  if (x > 0) {
#else
  if (x < 0) {
#endif
    amp_at(out, 0) = x;
  }
}

/* textures and a sampler: their launcher's signature is checked, not run */
__kernel void tex_copy(AMP_TEXTURE_READ(float, 2, src), AMP_SAMPLER(s),
                       AMP_TEXTURE_WRITE(float, 2, dst)) {
  AMP_INDEX2(idx);
  amp_tex_set(float, 2, dst, idx, amp_tex_get(float, 2, src, idx));
}

/* defined twice with other parameters: no launcher */
#if SCALE > 2
__kernel void twice(AMP_VIEW(int, out)) {
  amp_at(out, 0) = 1;
}
#else
__kernel void twice(AMP_VIEW(int, out), int x) {
  amp_at(out, 0) = x;
}
#endif
