/* tests/data/async_order.c: every asynchronous copy is ordered before every later operation on
 * the same data, with its future released unwaited (docs/COHERENCE.md, docs/TEXTURES.md).
 *
 * For each kind of data (an array, a view over host memory, a texture) and each asynchronous copy
 * (host into it, it out to host, it into another of its kind), every later operation that touches
 * what the copy wrote or read runs at once after it, from the same thread:
 *   - after a copy that wrote X: each reader of X (a blocking copy out, an asynchronous copy out,
 *     a copy to another, an asynchronous copy to another, a kernel, host access) must see the
 *     copy's data, and each writer of X must leave its own data (the later write wins);
 *   - after a copy that read X: each writer of X must not reach what the copy read (its output
 *     holds X's old data) and leaves its own data in X.
 * Every case checks every element against the host's copy of what it should be. 307,200 bytes per
 * datum, as in the sample where a texture copy after an asynchronous one saw the old contents. */
#include <stdint.h>

#include "check.h"

enum { ROWS = 120, COLS = 160, N = ROWS * COLS * 4 }; /* uint32: 76,800; texels: uint_4 */
typedef enum { ARRAY, VIEW, TEXTURE } data_kind;
static const char *kind_name[] = {"array", "view", "texture"};

typedef struct datum {
  data_kind kind;
  amp_array *a;
  amp_array_view *v; /* ARRAY: the array's view (for kernels); VIEW: over host */
  uint32_t *host;    /* VIEW: the memory it views */
  amp_texture *t;
} datum;

static amp_accelerator_view *av;
static amp_kernel *copy_buf, *copy_tex;
static const amp_texel_format uint4 = {AMP_TEXEL_UINT, 4, 32};

static const char *kernels =
    "__kernel void copy_buf(AMP_VIEW(const uint, src), AMP_VIEW(uint, dst)) {\n"
    "  AMP_INDEX1(i);\n"
    "  amp_at(dst, i[0]) = amp_at(src, i[0]);\n"
    "}\n"
    "__kernel void copy_tex(AMP_TEXTURE_READ(uint_4, 2, src), AMP_TEXTURE_WRITE(uint_4, 2, dst)) "
    "{\n"
    "  AMP_INDEX2(i);\n"
    "  amp_tex_set(uint_4, 2, dst, i, amp_tex_get(uint_4, 2, src, i));\n"
    "}\n";

static amp_status make(data_kind kind, datum *d) {
  memset(d, 0, sizeof *d);
  d->kind = kind;
  amp_status st = AMP_SUCCESS;
  if (kind == ARRAY) {
    st = amp_array_create(av, amp_extent1(N), AMP_UINT32, &d->a);
    if (st == AMP_SUCCESS)
      st = amp_array_view_of(d->a, &d->v);
  } else if (kind == VIEW) {
    if (!(d->host = calloc(N, sizeof *d->host)))
      return AMP_ERROR_OUT_OF_MEMORY;
    st = amp_array_view_create(amp_extent1(N), AMP_UINT32, d->host, &d->v);
  } else {
    st = amp_texture_create(av, amp_extent2(ROWS, COLS), uint4, &d->t);
  }
  return st;
}

static void drop(datum *d) {
  amp_array_view_release(d->v);
  amp_array_release(d->a);
  amp_texture_release(d->t);
  free(d->host);
}

/* ---- the operations, each for every kind ---------------------------------------------------- */

static amp_status put(datum *d, const uint32_t *src, amp_future **f) {
  size_t b = (size_t)N * 4;
  switch (d->kind) {
  case ARRAY:
    return f ? amp_copy_to_array_async(src, b, d->a, f) : amp_copy_to_array(src, b, d->a);
  case VIEW:
    return f ? amp_copy_to_view_async(src, b, d->v, f) : amp_copy_to_view(src, b, d->v);
  default:
    return f ? amp_copy_to_texture_async(src, b, d->t, f) : amp_copy_to_texture(src, b, d->t);
  }
}

static amp_status get(datum *d, uint32_t *dst, amp_future **f) {
  size_t b = (size_t)N * 4;
  switch (d->kind) {
  case ARRAY:
    return f ? amp_copy_from_array_async(d->a, dst, b, f) : amp_copy_from_array(d->a, dst, b);
  case VIEW:
    return f ? amp_copy_from_view_async(d->v, dst, b, f) : amp_copy_from_view(d->v, dst, b);
  default:
    return f ? amp_copy_from_texture_async(d->t, dst, b, f) : amp_copy_from_texture(d->t, dst, b);
  }
}

static amp_status copy(datum *s, datum *d, amp_future **f) {
  switch (s->kind) {
  case ARRAY:
    return f ? amp_copy_array_async(s->a, d->a, f) : amp_copy_array(s->a, d->a);
  case VIEW:
    return f ? amp_copy_view_async(s->v, d->v, f) : amp_copy_view(s->v, d->v);
  default:
    return f ? amp_copy_texture_async(s->t, d->t, f) : amp_copy_texture(s->t, d->t);
  }
}

static amp_status kernel(datum *s, datum *d) {
  if (s->kind == TEXTURE) {
    amp_arg args[] = {amp_arg_texture(s->t), amp_arg_texture(d->t)};
    return amp_parallel_for_each(av, amp_extent2(ROWS, COLS), copy_tex, args, 2);
  }
  amp_arg args[] = {amp_arg_view(s->v), amp_arg_view(d->v)};
  return amp_parallel_for_each(av, amp_extent1(N), copy_buf, args, 2);
}

/* Host access, element by element as a program would (every 41st element and the last). */
static int host_step(int i) {
  return i == N - 1 ? 1 : (i + 41 < N ? 41 : N - 1 - i);
}

/* ---- the later operations ------------------------------------------------------------------- */

/* The status of an asynchronous call whose future (*f, set by the call) is released unwaited. */
static amp_status unwaited(amp_status st, amp_future **f) {
  amp_future_release(*f);
  return st;
}

/* A reader of x: what it sees into out. y is a spare datum of x's kind. */
typedef amp_status (*reader)(datum *x, datum *y, uint32_t *out);

static amp_status read_sync(datum *x, datum *y, uint32_t *out) {
  (void)y;
  return get(x, out, NULL);
}

static amp_status read_async(datum *x, datum *y, uint32_t *out) {
  (void)y;
  amp_future *f = NULL;
  amp_status st = get(x, out, &f);
  if (st == AMP_SUCCESS)
    st = amp_future_wait(f);
  amp_future_release(f);
  return st;
}

static amp_status read_copy(datum *x, datum *y, uint32_t *out) {
  amp_status st = copy(x, y, NULL);
  return st != AMP_SUCCESS ? st : get(y, out, NULL);
}

static amp_status read_copy_async(datum *x, datum *y, uint32_t *out) {
  amp_future *f = NULL;
  amp_status st = unwaited(copy(x, y, &f), &f); /* the read below is ordered after it */
  return st != AMP_SUCCESS ? st : get(y, out, NULL);
}

static amp_status read_kernel(datum *x, datum *y, uint32_t *out) {
  amp_status st = kernel(x, y);
  return st != AMP_SUCCESS ? st : get(y, out, NULL);
}

/* Only the elements host_step visits are read; the others are filled from `out` as it was. */
static amp_status read_host(datum *x, datum *y, uint32_t *out) {
  (void)y;
  amp_status st = AMP_SUCCESS;
  for (int i = 0; i < N && st == AMP_SUCCESS; i += host_step(i))
    st = x->kind == ARRAY ? amp_array_get(x->a, amp_index1(i), &out[i])
                          : amp_array_view_get(x->v, amp_index1(i), &out[i]);
  return st;
}

/* A writer of x: writes `data` (z already holds it) and records in `want` what x holds after. */
typedef amp_status (*writer)(datum *x, datum *z, const uint32_t *data, uint32_t *want);

static amp_status write_sync(datum *x, datum *z, const uint32_t *data, uint32_t *want) {
  (void)z;
  memcpy(want, data, (size_t)N * 4);
  return put(x, data, NULL);
}

static amp_status write_async(datum *x, datum *z, const uint32_t *data, uint32_t *want) {
  (void)z;
  amp_future *f = NULL;
  memcpy(want, data, (size_t)N * 4);
  return unwaited(put(x, data, &f), &f);
}

static amp_status write_copy(datum *x, datum *z, const uint32_t *data, uint32_t *want) {
  memcpy(want, data, (size_t)N * 4);
  return copy(z, x, NULL);
}

static amp_status write_copy_async(datum *x, datum *z, const uint32_t *data, uint32_t *want) {
  amp_future *f = NULL;
  memcpy(want, data, (size_t)N * 4);
  return unwaited(copy(z, x, &f), &f);
}

static amp_status write_kernel(datum *x, datum *z, const uint32_t *data, uint32_t *want) {
  memcpy(want, data, (size_t)N * 4);
  return kernel(z, x);
}

/* `want` holds x's contents before (the caller's); the visited elements change. */
static amp_status write_host(datum *x, datum *z, const uint32_t *data, uint32_t *want) {
  (void)z;
  amp_status st = AMP_SUCCESS;
  for (int i = 0; i < N && st == AMP_SUCCESS; i += host_step(i)) {
    want[i] = data[i];
    st = x->kind == ARRAY ? amp_array_set(x->a, amp_index1(i), &data[i])
                          : amp_array_view_set(x->v, amp_index1(i), &data[i]);
  }
  return st;
}

typedef struct later {
  const char *name;
  reader read;
  writer write;
  int host; /* host access: arrays and views only */
} later;

static const later laters[] = {
    {"a blocking copy out", read_sync, NULL, 0},
    {"an asynchronous copy out", read_async, NULL, 0},
    {"a copy to another", read_copy, NULL, 0},
    {"an asynchronous copy to another", read_copy_async, NULL, 0},
    {"a kernel reading it", read_kernel, NULL, 0},
    {"host reads", read_host, NULL, 1},
    {"a blocking copy in", NULL, write_sync, 0},
    {"an asynchronous copy in", NULL, write_async, 0},
    {"a copy from another", NULL, write_copy, 0},
    {"an asynchronous copy from another", NULL, write_copy_async, 0},
    {"a kernel writing it", NULL, write_kernel, 0},
    {"host writes", NULL, write_host, 1},
};

typedef enum { FIRST_PUT, FIRST_GET, FIRST_COPY } first_kind;
static const char *first_name[] = {"asynchronous copy in", "asynchronous copy out",
                                   "asynchronous copy to another"};

static uint32_t old_data[N], first_data[N], later_data[N], got[N], want[N], out[N];

static int mismatches(const uint32_t *a, const uint32_t *b) {
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += a[i] != b[i];
  return bad;
}

/* The later operation on X (on_read: what the first copy read) or on what it wrote (X for a copy
 * in, Y for a copy to another); the number of elements wrong. */
static int later_op(first_kind first, int on_read, const later *l, datum *x, datum *y, datum *z,
                    datum *w) {
  datum *target = on_read ? x : first == FIRST_PUT ? x : y;
  const uint32_t *holds = first == FIRST_PUT ? first_data : old_data; /* what target holds now */
  int bad = 0;
  if (l->read) { /* the later reader sees the first copy's data */
    if (l->host)
      memcpy(got, holds, sizeof got); /* host reads visit some elements */
    else
      memset(got, 0xee, sizeof got);
    CHECK_OK(l->read(target, w, got));
    return mismatches(got, holds);
  }
  memcpy(want, holds, sizeof want); /* the later write wins */
  CHECK_OK(l->write(target, z, later_data, want));
  CHECK_OK(get(target, got, NULL));
  bad = mismatches(got, want);
  if (on_read) { /* and the first copy's output is X's data from before the write */
    if (first == FIRST_GET)
      memcpy(got, out, sizeof got);
    else
      CHECK_OK(get(y, got, NULL));
    bad += mismatches(got, old_data);
  }
  return bad;
}

static int ran;

/* One case: X (old data) gets the first, asynchronous copy, its future released unwaited, then
 * the later operation at once. */
static void one_case(data_kind kind, first_kind first, int on_read, const later *l) {
  datum x, y, z, w;
  amp_future *f = NULL;
  amp_status made = make(kind, &x);
  made = made ? made : make(kind, &y);
  made = made ? made : make(kind, &z);
  made = made ? made : make(kind, &w);
  CHECK_OK(made);
  if (made == AMP_SUCCESS) {
    CHECK_OK(put(&x, old_data, NULL));
    CHECK_OK(put(&y, later_data, NULL)); /* Y holds other data before the first copy reaches it */
    CHECK_OK(put(&z, later_data, NULL));
    CHECK_OK(amp_accelerator_view_wait(av));
    memset(out, 0xee, sizeof out);
    if (first == FIRST_PUT)
      CHECK_OK(put(&x, first_data, &f));
    else if (first == FIRST_GET)
      CHECK_OK(get(&x, out, &f));
    else
      CHECK_OK(copy(&x, &y, &f));
    amp_future_release(f); /* never waited */
    int bad = later_op(first, on_read, l, &x, &y, &z, &w);
    CHECK_OK(amp_accelerator_view_wait(av));
    if (bad)
      fprintf(stderr, "%s: %s, then %s %s: %d of %d elements wrong\n", kind_name[kind],
              first_name[first], l->name, on_read ? "(on its source)" : "", bad, N);
    CHECK_EQ_INT(bad, 0);
    ran++;
  }
  drop(&x);
  drop(&y);
  drop(&z);
  drop(&w);
}

int main(void) {
  av = test_view();
  if (!av)
    return 1;
  for (int i = 0; i < N; i++) {
    old_data[i] = (uint32_t)i * 3u + 1u;
    first_data[i] = (uint32_t)i * 7u + 5u;
    later_data[i] = (uint32_t)i * 11u + 9u;
  }
  copy_buf = test_kernel(kernels, NULL, "copy_buf");
  amp_texture *probe = NULL;
  int textures = amp_texture_create(av, amp_extent2(ROWS, COLS), uint4, &probe) == AMP_SUCCESS;
  amp_texture_release(probe);
  if (textures)
    copy_tex = test_kernel(kernels, NULL, "copy_tex");
  else
    printf("no textures on this device: %s\n", amp_last_error());
  if (!copy_buf || (textures && !copy_tex))
    return check_done();
  int expected = 0;
  /* (first copy, on what it read): a copy in has only a written side, a copy out only a read
   * one, and a reader after a read changes nothing, so it is left out. */
  static const struct {
    first_kind first;
    int on_read;
  } sides[] = {{FIRST_PUT, 0}, {FIRST_GET, 1}, {FIRST_COPY, 0}, {FIRST_COPY, 1}};
  for (int kind = ARRAY; kind <= TEXTURE; kind++) {
    if (kind == TEXTURE && !textures)
      continue;
    for (size_t s = 0; s < sizeof sides / sizeof sides[0]; s++)
      for (size_t l = 0; l < sizeof laters / sizeof laters[0]; l++) {
        if ((laters[l].host && kind == TEXTURE) || (sides[s].on_read && laters[l].read))
          continue;
        expected++;
        one_case((data_kind)kind, sides[s].first, sides[s].on_read, &laters[l]);
      }
  }
  printf("%d cases\n", ran);
  CHECK_EQ_INT(ran, expected);
  CHECK(ran >= 2 * 36); /* arrays and views at least (36 cases each): none skipped by mistake */
  amp_kernel_release(copy_buf);
  amp_kernel_release(copy_tex);
  return check_done();
}
