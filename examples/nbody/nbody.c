/* nbody: the C++ AMP article's gravitational n-body simulation, in C over ampcl.
 *
 * Two rotating disk galaxies fall into each other. Each step every body feels every other body
 * (softened gravity, G = 1), then its velocity and position are updated (semi-implicit Euler, as
 * in the original). The state lives in two array views, previous and next, swapped after each step:
 * after the first copy in, nothing crosses to the host until the end, and the transfer counters
 * prove it. Three implementations: sequential C, a naive kernel, and a tiled kernel that stages
 * positions in tile_static memory (nbody.cl). Energy and momentum at the start and the end show
 * the physics is sane; --frames writes PNG pictures of the particles.
 *
 *   nbody [--size N] [--steps S] [--impl seq|naive|tiled|all] [--frames DIR [--every K]]
 *         [--accelerator PATH] [--kernels DIR]
 */
#include <inttypes.h>
#include <math.h>
#include <sys/stat.h>

#include <CL/cl_platform.h> /* cl_float4: the host twin of OpenCL C's float4 */

#include "example.h"
#include "nbody_cl.h"     /* nbody_cl: nbody.cl as a string */
#include "nbody_launch.h" /* nbody_naive_launch_ex, nbody_tiled_launch_ex: its typed launchers */
#ifdef EX_HAVE_WINDOW
#include "window.h"
#endif
#ifdef EX_HAVE_PNG
#include <png.h>
#endif

/* The same struct as nbody.cl's: position.s[3] is the body's mass. 32 bytes, 16-byte aligned. */
typedef struct particle {
  cl_float4 position;
  cl_float4 velocity;
} particle;

static const float DT = 0.005f;       /* time step */
static const float SOFTENING = 0.05f; /* softening length */
static const int CHECK_STEPS = 2;     /* steps compared against the sequential version */
static const double VIEW_WIDTH = 8.0; /* world units across a --frames picture */
static const double PI = 3.14159265358979323846;
enum { IMAGE_SIZE = 800 };

static void usage(FILE *to) {
  fprintf(
      to,
      "usage: amp-nbody [--size N] [--steps S] [--impl seq|naive|tiled|all] [--frames DIR]\n"
      "             [--every K] [--window [--screenshot FILE]] [--accelerator PATH]\n"
      "             [--kernels DIR]\n"
      "  --size N            number of bodies (default 10240, as in the original)\n"
      "  --steps S           time steps of the timed run (default 10)\n"
      "  --impl I            which implementations run (default all)\n"
      "  --frames DIR        write DIR/frame_SSSSS.png every K steps (needs libpng)\n"
      "  --every K           steps between frames (default 10)\n"
      "  --window            show the bodies live, one frame per step (needs SDL2): space or p\n"
      "                      pauses, q or Escape quits\n"
      "  --screenshot FILE   with --window: save the last frame as a PNG\n"
      "  --accelerator PATH  device path as amp-info prints it (default: the default)\n"
      "  --kernels DIR       load DIR/nbody.cl instead of the built-in copy\n");
}

/* ---- initial conditions: two disk galaxies, from a fixed seed ------------------------------ */

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static double rng_uniform(void) { /* [0, 1) */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (double)((rng_state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* Bodies [first, first + count) become an exponential disk of scale length h and mass `mass`,
 * centred at c moving at v, tilted by `tilt` radians about the x axis, each body on a circular
 * orbit around the mass inside its radius. */
static void make_disk(particle *p, int first, int count, double mass, const double c[3],
                      const double v[3], double tilt) {
  const double h = 0.3, rmax = 1.6;
  for (int i = first; i < first + count; i++) {
    double r;
    do /* the exponential disk's radius distribution: r e^(-r/h), by rejection */
      r = -h * log((1.0 - rng_uniform()) * (1.0 - rng_uniform()));
    while (r > rmax);
    double theta = 2.0 * PI * rng_uniform();
    double z = 0.02 * (rng_uniform() - 0.5);
    double inside = mass * (1.0 - (1.0 + r / h) * exp(-r / h)); /* mass within r */
    double speed = sqrt(inside * r * r / pow(r * r + SOFTENING * SOFTENING, 1.5));
    double pos[3] = {r * cos(theta), r * sin(theta), z};
    double vel[3] = {-speed * sin(theta), speed * cos(theta), 0};
    double ct = cos(tilt), st = sin(tilt);
    p[i].position.s[0] = (float)(c[0] + pos[0]);
    p[i].position.s[1] = (float)(c[1] + pos[1] * ct - pos[2] * st);
    p[i].position.s[2] = (float)(c[2] + pos[1] * st + pos[2] * ct);
    p[i].position.s[3] = (float)(mass / count);
    p[i].velocity.s[0] = (float)(v[0] + vel[0]);
    p[i].velocity.s[1] = (float)(v[1] + vel[1] * ct - vel[2] * st);
    p[i].velocity.s[2] = (float)(v[2] + vel[1] * st + vel[2] * ct);
    p[i].velocity.s[3] = 0;
  }
}

static void init_two_galaxies(particle *p, int n) {
  const double c1[3] = {-1.6, -0.6, 0}, v1[3] = {0.3, 0.08, 0};
  const double c2[3] = {1.6, 0.6, 0}, v2[3] = {-0.3, -0.08, 0};
  make_disk(p, 0, n / 2, 0.5, c1, v1, 0.0);
  make_disk(p, n / 2, n - n / 2, 0.5, c2, v2, 0.6);
}

/* ---- the sequential version ------------------------------------------------------------------ */

static void bodybody_interaction(float acc[3], const cl_float4 p1, const cl_float4 p2) {
  float dist[3] = {p2.s[0] - p1.s[0], p2.s[1] - p1.s[1], p2.s[2] - p1.s[2]};
  float absDist = dist[0] * dist[0] + dist[1] * dist[1] + dist[2] * dist[2] + SOFTENING * SOFTENING;
  float invDist = 1.0f / sqrtf(absDist);
  float invDistCube = invDist * invDist * invDist;
  for (int d = 0; d < 3; d++)
    acc[d] += dist[d] * (p2.s[3] * invDistCube);
}

static void simulation_step_seq(const particle *previous, particle *next, int bodies) {
  for (int i = 0; i < bodies; ++i) {
    particle p = previous[i];
    float acceleration[3] = {0, 0, 0};
    for (int body = 0; body < bodies; ++body)
      bodybody_interaction(acceleration, p.position, previous[body].position);
    for (int d = 0; d < 3; d++) {
      p.velocity.s[d] += acceleration[d] * DT;
      p.position.s[d] += p.velocity.s[d] * DT;
    }
    next[i] = p;
  }
}

/* ---- physics checks: energy and momentum ------------------------------------------------------
 */

typedef struct invariants {
  double energy;         /* kinetic + (softened) potential */
  double momentum[3];    /* sum of m v */
  double momentum_scale; /* sum of m |v|: what "small" means for the momentum */
} invariants;

static invariants measure(const particle *p, int n) {
  invariants s = {0, {0, 0, 0}, 0};
  for (int i = 0; i < n; i++) {
    double m = p[i].position.s[3], v2 = 0;
    for (int d = 0; d < 3; d++) {
      v2 += (double)p[i].velocity.s[d] * p[i].velocity.s[d];
      s.momentum[d] += m * p[i].velocity.s[d];
    }
    s.energy += 0.5 * m * v2;
    s.momentum_scale += m * sqrt(v2);
    for (int j = i + 1; j < n; j++) {
      double r2 = SOFTENING * SOFTENING;
      for (int d = 0; d < 3; d++) {
        double dx = (double)p[j].position.s[d] - p[i].position.s[d];
        r2 += dx * dx;
      }
      s.energy -= m * p[j].position.s[3] / sqrt(r2);
    }
  }
  return s;
}

static void print_drift(const char *impl, const invariants *a, const invariants *b) {
  double dp = 0;
  for (int d = 0; d < 3; d++)
    dp += (b->momentum[d] - a->momentum[d]) * (b->momentum[d] - a->momentum[d]);
  printf("  %-6s energy %+.7f -> %+.7f (relative drift %.2e), momentum drift %.2e (relative to "
         "sum m|v|)\n",
         impl, a->energy, b->energy, fabs((b->energy - a->energy) / a->energy),
         sqrt(dp) / a->momentum_scale);
}

/* Index of the first body whose state differs from the reference by more than the tolerance, or
 * -1. The kernels sum the forces in another order (and rsqrt may differ by an ulp): positions
 * must agree to 1e-5 and velocities to 1e-3, relative. */
static int first_mismatch(const particle *got, const particle *want, int n, int *component) {
  for (int i = 0; i < n; i++)
    for (int d = 0; d < 3; d++) {
      float gp = got[i].position.s[d], wp = want[i].position.s[d];
      float gv = got[i].velocity.s[d], wv = want[i].velocity.s[d];
      if (!(fabsf(gp - wp) <= 1e-5f * (1 + fabsf(wp))) ||
          !(fabsf(gv - wv) <= 1e-3f * (1 + fabsf(wv)))) {
        *component = d;
        return i;
      }
    }
  return -1;
}

/* ---- pictures ---------------------------------------------------------------------------------
 */

#ifdef EX_HAVE_PNG
/* Box-blurs one channel of a size x size float image along rows (dx = 1) or columns, radius r. */
static void blur(float *dst, const float *src, int size, int r, int along_rows) {
  for (int a = 0; a < size; a++) {
    double sum = 0;
    for (int b = -r; b <= r; b++) {
      int k = b < 0 ? 0 : b >= size ? size - 1 : b;
      sum += along_rows ? src[a * size + k] : src[k * size + a];
    }
    for (int b = 0; b < size; b++) {
      int at = along_rows ? a * size + b : b * size + a;
      dst[at] = (float)(sum / (2 * r + 1));
      int add = b + r + 1 < size ? b + r + 1 : size - 1, sub = b - r > 0 ? b - r : 0;
      sum += along_rows ? src[a * size + add] - src[a * size + sub]
                        : src[add * size + a] - src[sub * size + a];
    }
  }
}

/* Draws the bodies seen from above (x right, y up) with additive glow: every body adds a little
 * light of its galaxy's colour; a wide blur of the light adds a halo; exposure and gamma map it
 * to 8 bits. Returns 0 on failure, with the reason printed. */
static int write_frame(const char *dir, int step, const particle *p, int n) {
  const int S = IMAGE_SIZE;
  const float color[2][3] = {{1.0f, 0.62f, 0.28f}, {0.38f, 0.62f, 1.0f}};
  float *light = calloc((size_t)3 * S * S, sizeof(float));
  float *tmp = malloc((size_t)S * S * sizeof(float)), *halo = malloc((size_t)S * S * sizeof(float));
  png_bytep pixels = malloc((size_t)3 * S * S);
  int ok = 0;
  if (!light || !tmp || !halo || !pixels) {
    fprintf(stderr, "nbody: out of memory for a frame\n");
    goto done;
  }
  float weight = 40.0f / (float)sqrt((double)n); /* similar brightness for any n */
  for (int i = 0; i < n; i++) {
    double x = (p[i].position.s[0] / VIEW_WIDTH + 0.5) * S;
    double y = (0.5 - p[i].position.s[1] / VIEW_WIDTH) * S;
    int px = (int)floor(x), py = (int)floor(y);
    const float *c = color[i >= n / 2];
    for (int dy = -1; dy <= 1; dy++) /* a 3 x 3 splat, brightest in the middle */
      for (int dx = -1; dx <= 1; dx++) {
        int X = px + dx, Y = py + dy;
        if (X < 0 || Y < 0 || X >= S || Y >= S)
          continue;
        float w = weight * (dx || dy ? (dx && dy ? 0.15f : 0.3f) : 1.0f);
        for (int ch = 0; ch < 3; ch++)
          light[(ch * S + Y) * S + X] += w * c[ch];
      }
  }
  for (int ch = 0; ch < 3; ch++) {
    float *plane = light + (size_t)ch * S * S;
    blur(halo, plane, S, 5, 1); /* three box blurs each way: nearly a Gaussian halo */
    for (int pass = 0; pass < 3; pass++) {
      blur(tmp, halo, S, 5, pass % 2 == 0 ? 0 : 1);
      blur(halo, tmp, S, 5, pass % 2 == 0 ? 1 : 0);
    }
    for (int k = 0; k < S * S; k++) {
      float v = plane[k] + 4.0f * halo[k];
      float mapped = 1.0f - expf(-v);      /* exposure */
      float g = powf(mapped, 1.0f / 2.2f); /* gamma */
      pixels[(size_t)k * 3 + (size_t)ch] = (png_byte)(g * 255.0f + 0.5f);
    }
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/frame_%05d.png", dir, step);
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = S;
  image.height = S;
  image.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&image, path, 0, pixels, 0, NULL)) {
    fprintf(stderr, "nbody: writing %s failed: %s\n", path, image.message);
    goto done;
  }
  ok = 1;
done:
  EX_FREE(light, tmp, halo, pixels);
  return ok;
}
#endif

typedef struct frames {
  const char *dir; /* NULL: no pictures */
  int every;
  int written;
  double ms;              /* time spent drawing, left out of the timings */
  struct nbody_window *w; /* --window: the live view, or NULL */
  double last_ms;         /* when the window's last frame was drawn */
} frames;

/* ---- the AMP version ---------------------------------------------------------------------- */

/* Runs `steps` steps on the accelerator view, starting from the bodies in *state; *state points to
 * the final bodies afterwards (one of the two buffers). previous and next are views over the two
 * buffers, swapped after each step: a step's output is the next step's input, and stays on the
 * accelerator. *kernel_ms is the sum of the kernels' device times (NAN: none). */
static amp_status simulation_amp(amp_accelerator_view *av, amp_kernel *kernel, int tile,
                                 particle **state, particle *spare, int bodies, int steps,
                                 frames *fr, double *kernel_ms) {
  amp_status status = AMP_SUCCESS;
  amp_array_view *previous = NULL, *next = NULL;
  particle *previous_data = *state, *next_data = spare;
  amp_future **done = calloc((size_t)steps, sizeof *done);
  (void)fr; /* unused without libpng */
  if (!done) {
    fprintf(stderr, "nbody: out of memory\n");
    return AMP_ERROR_OUT_OF_MEMORY;
  }
  EX_TRY(
      amp_array_view_create(amp_extent1(bodies), AMP_STRUCT(particle), previous_data, &previous));
  EX_TRY(amp_array_view_create(amp_extent1(bodies), AMP_STRUCT(particle), next_data, &next));
  EX_TRY(amp_array_view_discard_data(next));

  amp_tiled_extent te = amp_tiled_extent_pad(amp_tile1(amp_extent1(bodies), tile ? tile : 1));
  for (int step = 0; step < steps; step++) {
    const float soft2 = SOFTENING * SOFTENING;
    if (tile)
      EX_TRY(nbody_tiled_launch_ex(av, te, kernel, previous, next, DT, soft2, &done[step]));
    else
      EX_TRY(nbody_naive_launch_ex(av, amp_extent1(bodies), kernel, previous, next, DT, soft2,
                                   &done[step]));

    amp_array_view *t = previous; /* swap: this step's output is the next one's input */
    previous = next;
    next = t;
    particle *td = previous_data;
    previous_data = next_data;
    next_data = td;

#ifdef EX_HAVE_WINDOW
    if (fr->w) {
      /* The bodies are read where they are, from the same view the kernels use: mapped for
       * reading, no copy at all on a CPU device (its buffers are host memory), one read per
       * frame on a GPU. The accelerator's copy stays valid, so the next step copies nothing in;
       * the view is unmapped before the next step writes it. */
      const particle *shown = NULL;
      EX_TRY(amp_array_view_map_read(previous, (const void **)&shown));
      double now = ex_now_ms();
      double per_s = step ? 1e3 / (now - fr->last_ms) : 0.0;
      fr->last_ms = now;
      int go_on = nbody_window_frame(fr->w, &shown[0].position, sizeof(particle), bodies, per_s,
                                     per_s * (double)bodies * bodies);
      fr->ms += ex_now_ms() - now;
      EX_TRY(amp_array_view_unmap(previous));
      if (!go_on) { /* q or Escape: stop here, with the steps done so far */
        steps = step + 1;
        break;
      }
    }
#endif
#ifdef EX_HAVE_PNG
    if (fr->dir && (step + 1) % fr->every == 0) {
      /* A picture needs the bodies on the host: synchronize copies them back, and the
       * accelerator's copy stays valid, so the next step copies nothing in. */
      EX_TRY(amp_array_view_synchronize(previous));
      double t0 = ex_now_ms();
      if (!write_frame(fr->dir, step + 1, previous_data, bodies)) {
        status = AMP_ERROR_IO;
        goto fail;
      }
      fr->ms += ex_now_ms() - t0;
      fr->written++;
    }
#endif
  }
  EX_TRY(amp_array_view_synchronize(previous)); /* the final state comes home */
  EX_TRY(amp_array_view_discard_data(next));    /* the one before is not wanted: no copy back */
  *state = previous_data;

  *kernel_ms = 0; /* NAN (printed n/a) when a step has no device time */
  for (int step = 0; step < steps; step++) {
    double ms;
    EX_TRY(ex_device_ms(done[step], &ms));
    *kernel_ms += ms;
  }
fail:
  for (int step = 0; step < steps; step++)
    EX_CLEANUP(amp_future_release(done[step]));
  free(done);
  EX_CLEANUP(amp_array_view_release(previous));
  EX_CLEANUP(amp_array_view_release(next));
  return status;
}

/* ---- the driver ---------------------------------------------------------------------------- */

int main(int argc, char **argv) {
  amp_status status = AMP_SUCCESS;
  int n = 10240, steps = 10, every = 10;
  int run_seq = 1, run_naive = 1, run_tiled = 1;
  const char *path = NULL, *kernels_dir = NULL, *frames_dir = NULL, *screenshot = NULL;
  int window = 0;
  const char *impl_text = NULL;
  const ex_option nbody_options[] = {
      {"--size", 2, 1 << 22, &n, NULL, NULL},      {"--steps", 1, 1 << 24, &steps, NULL, NULL},
      {"--every", 1, 1 << 24, &every, NULL, NULL}, {"--impl", 0, 0, NULL, &impl_text, NULL},
      {"--frames", 0, 0, NULL, &frames_dir, NULL}, {"--screenshot", 0, 0, NULL, &screenshot, NULL},
      {"--window", 0, 0, NULL, NULL, &window}};
  int parsed = ex_parse_args(argc, argv, "nbody", usage, nbody_options,
                             sizeof nbody_options / sizeof *nbody_options, &path, &kernels_dir);
  if (parsed >= 0)
    return parsed;
  if (impl_text) {
    run_seq = !strcmp(impl_text, "seq") || !strcmp(impl_text, "all");
    run_naive = !strcmp(impl_text, "naive") || !strcmp(impl_text, "all");
    run_tiled = !strcmp(impl_text, "tiled") || !strcmp(impl_text, "all");
    if (!run_seq && !run_naive && !run_tiled) {
      fprintf(stderr, "nbody: bad option '--impl %s'\n", impl_text);
      usage(stderr);
      return 2;
    }
  }
#ifndef EX_HAVE_WINDOW
  if (window || screenshot) {
    fprintf(stderr, "nbody: --window and --screenshot need SDL2 and libpng, and this build has "
                    "no SDL2 or no libpng\n");
    return 2;
  }
#endif
  if (screenshot && !window) {
    fprintf(stderr, "nbody: --screenshot saves the --window's last frame: give --window too\n");
    return 2;
  }
#ifndef EX_HAVE_PNG
  if (frames_dir) {
    fprintf(stderr, "nbody: --frames needs libpng, and this build has none\n");
    return 2;
  }
#endif
  if (frames_dir && mkdir(frames_dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "nbody: cannot create %s: %s\n", frames_dir, strerror(errno));
    return 1;
  }

  size_t bytes = (size_t)n * sizeof(particle);
  particle *initial = malloc(bytes), *reference = malloc(bytes), *scratch = malloc(bytes);
  particle *buf[2] = {malloc(bytes), malloc(bytes)};
  amp_program *program = NULL;
  amp_kernel *kernels[2] = {NULL, NULL};
  int failed = 1;
  if (!initial || !reference || !scratch || !buf[0] || !buf[1]) {
    fprintf(stderr, "nbody: out of host memory for %d bodies\n", n);
    goto fail;
  }
  init_two_galaxies(initial, n);
  double interactions = (double)n * n;
  printf("nbody: %d bodies (two disk galaxies), dt %g, softening %g\n", n, (double)DT,
         (double)SOFTENING);
  invariants start = measure(initial, n);

  /* The sequential reference: CHECK_STEPS steps, timed. */
  double t0 = ex_now_ms();
  memcpy(scratch, initial, bytes);
  for (int s = 0; s < CHECK_STEPS; s++) {
    simulation_step_seq(scratch, reference, n);
    if (s + 1 < CHECK_STEPS)
      memcpy(scratch, reference, bytes);
  }
  double seq_ms_per_step = (ex_now_ms() - t0) / CHECK_STEPS;

  amp_accelerator *acc;
  amp_accelerator_view *av;
  amp_accelerator_properties props;
  EX_TRY(ex_open_view(path, &acc, &av));
  EX_TRY(amp_accelerator_get_properties(acc, &props));
  int tile = props.max_tile_size < 256 ? (int)props.max_tile_size : 256;
  char options[32];
  snprintf(options, sizeof options, "-DTILE=%d", tile);
  EX_TRY(ex_load_program(kernels_dir, "nbody", nbody_cl, options, &program));
  EX_TRY(nbody_naive_kernel(program, &kernels[0]));
  EX_TRY(nbody_tiled_kernel(program, &kernels[1]));

  printf("\n%-6s %14s %14s %10s %16s %16s\n", "impl", "kernel ms/step", "e2e ms/step", "steps/s",
         "interactions/s", "speedup vs seq");
  if (run_seq)
    printf("%-6s %14s %14.3f %10.2f %16.3e %16s  (%d steps)\n", "seq", "-", seq_ms_per_step,
           1e3 / seq_ms_per_step, interactions * 1e3 / seq_ms_per_step, "1.00x", CHECK_STEPS);

  int last_impl = run_tiled ? 1 : 0;
  invariants end[2];
  for (int impl = 0; impl < 2; impl++) {
    if (!(impl == 0 ? run_naive : run_tiled))
      continue;
    const char *name = impl == 0 ? "naive" : "tiled";
    int t = impl == 0 ? 0 : tile;
    char tile_text[16];
    snprintf(tile_text, sizeof tile_text, "%d", tile);
    double kernel_ms;
    frames no_frames = {NULL, 1, 0, 0, NULL, 0};

    /* Run 1 compiles the kernel and is checked against the sequential version. */
    particle *state = buf[0];
    memcpy(buf[0], initial, bytes);
    EX_TRY(simulation_amp(av, kernels[impl], t, &state, buf[1], n, CHECK_STEPS, &no_frames,
                          &kernel_ms));
    int component;
    int bad = first_mismatch(state, reference, n, &component);
    if (bad >= 0) {
      fprintf(stderr,
              "%s: MISMATCH at body %d, component %d, after %d steps: got position %.9g velocity "
              "%.9g, expected position %.9g velocity %.9g\n",
              name, bad, component, CHECK_STEPS, (double)state[bad].position.s[component],
              (double)state[bad].velocity.s[component],
              (double)reference[bad].position.s[component],
              (double)reference[bad].velocity.s[component]);
      goto fail;
    }

    /* Run 2 is timed: views, the copy in, `steps` kernels, the copy back. */
    frames fr = {impl == last_impl ? frames_dir : NULL, every, 0, 0, NULL, 0};
#ifdef EX_HAVE_WINDOW
    if (window && impl == last_impl && !(fr.w = nbody_window_open(n, screenshot)))
      goto fail;
#endif
#ifdef EX_HAVE_PNG
    if (fr.dir && !write_frame(fr.dir, 0, initial, n))
      goto fail;
#endif
    state = buf[0];
    memcpy(buf[0], initial, bytes);
    EX_TRY(amp_transfer_stats_reset());
    t0 = ex_now_ms();
    status = simulation_amp(av, kernels[impl], t, &state, buf[1], n, steps, &fr, &kernel_ms);
#ifdef EX_HAVE_WINDOW
    if (fr.w && !nbody_window_close(fr.w) && status == AMP_SUCCESS)
      goto fail;
#endif
    EX_TRY(status);
    double e2e_ms = ex_now_ms() - t0 - fr.ms;
    amp_transfer_stats ts;
    EX_TRY(amp_transfer_stats_get(acc, &ts));
    end[impl] = measure(state, n);

    char text[2][32];
    printf("%-6s %14s %14.3f %10.2f %16.3e %9.2fx (%s)  (%d steps%s%s)\n", name,
           ex_fmt(text[0], sizeof text[0], "%.3f", kernel_ms / steps), e2e_ms / steps,
           steps * 1e3 / e2e_ms, interactions * steps * 1e3 / e2e_ms,
           seq_ms_per_step * steps / e2e_ms,
           ex_fmt(text[1], sizeof text[1], "%.2fx", seq_ms_per_step * steps / kernel_ms), steps,
           t ? ", tiles of " : "", t ? tile_text : "");
    printf("       transfers: %" PRIu64 " to the accelerator (%" PRIu64 " bytes), %" PRIu64
           " back (%" PRIu64 " bytes)%s\n",
           ts.to_device_count, ts.to_device_bytes, ts.to_host_count, ts.to_host_bytes,
           fr.written ? ": the state at each frame, and the final state unless a frame took it"
                      : ": the initial state in, the final state out, nothing in between");
    if (fr.written)
      printf("       frames: %d pictures in %s (drawing time left out of the timings)\n",
             fr.written + 1, fr.dir);
  }
  if (!run_naive && !run_tiled) {
    printf("\nverified: nothing to compare: only seq ran, and it is the reference\n");
    failed = 0;
    goto fail;
  }
  printf("\nruns 1 (%d steps each) compiled the kernels and were checked; the times are run 2's.\n"
         "kernel: device time from OpenCL events; e2e: wall clock around create views, steps,\n"
         "synchronize; speedups over seq are end-to-end (kernel only).\n",
         CHECK_STEPS);

  printf("\nphysics (energy should drift little, momentum hardly at all):\n");
  for (int impl = 0; impl < 2; impl++)
    if (impl == 0 ? run_naive : run_tiled)
      print_drift(impl == 0 ? "naive" : "tiled", &start, &end[impl]);
  printf("\nverified: after %d steps every body matches the sequential version (position 1e-5, "
         "velocity 1e-3 relative)\n",
         CHECK_STEPS);
  failed = 0;

fail:
  EX_CLEANUP(amp_kernel_release(kernels[0]));
  EX_CLEANUP(amp_kernel_release(kernels[1]));
  EX_CLEANUP(amp_program_release(program));
  EX_FREE(initial, reference, scratch, buf[0], buf[1]);
  return failed || status != AMP_SUCCESS ? 1 : 0;
}
