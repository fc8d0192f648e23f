/* amp-bench: ampcl's benchmark. Runs implementations x sizes x precisions of one workload
 * (matmul, addexp, nbody), checks every result against a host reference, and prints the tables of
 * the CUDA thesis's appendices A (times) and B (speedups), a CSV file and gnuplot plots. With
 * --overhead it measures what ampcl adds to a kernel launch instead. See bench/README.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>

#include "bench.h"

#define MAX_LIST 64

static void usage(FILE *f) {
  fprintf(f,
          "usage: amp-bench [options]\n"
          "  --workload W        matmul (default), addexp or nbody\n"
          "  --impl LIST         implementations, comma-separated (default: all of the workload)\n"
          "                        matmul: seq,openblas,naive,tiled,fast,multi,clblast,"
          "clblast-multi,gemm,tensor,bulk,tf32,\n"
          "                                fast-multi,gemm-multi\n"
          "                        addexp: seq,naive,vec4,fast,multi\n"
          "                        nbody: seq,naive,tiled,fast,pairs\n"
          "                        (and openmp for all three, when built with OpenMP)\n"
          "  --sizes LIST        sizes, e.g. 512,1024 or 2^20,2^22 (default: by device kind)\n"
          "  --types LIST        float,double (default both; addexp and nbody: float)\n"
          "  --repeats R         timed runs per cell (default 5, at most %d)\n"
          "  --warmup W          untimed runs before them (default 1; the first compiles)\n"
          "  --seq-max N         run seq only up to this size (matmul 2048, nbody 10240)\n"
          "  --steps S           nbody: steps per timed run (default 10)\n"
          "  --fast-opts OPTS    build options of the fast kernel: matmul_fast.cl's tile shape,\n"
          "                      e.g. \"-DTS_M=64 -DTS_N=256\" (T is added); nbody.cl's, e.g.\n"
          "                      \"-DTILE=256 -DBPT=4\" (pairs: nbody_pairs.cl's, e.g.\n"
          "                      \"-DBPT=8 -DCHUNK=4\"); add_exp.cl's, e.g. \"-DAE_STREAM=0\";\n"
          "                      for matmul's tensor, bulk and tf32 columns matmul_dmma.cl's,\n"
          "                      matmul_dmma_bulk.cl's and matmul_tf32.cl's, e.g. \"-DBN=128\"\n"
          "  --accelerator PATH  device path (default: the default accelerator); see --list\n"
          "  --multi LIST        accelerators for the split columns (*multi; default: every\n"
          "                      accelerator of the --accelerator's platform), each driven\n"
          "                      from a host thread of its own\n"
          "  --pinned            matmul, addexp: the data under views in memory from\n"
          "                      amp_host_alloc on the --accelerator (default: malloc'd)\n"
          "  --baseline IMPL     speedups relative to IMPL (default seq; where it was not run:\n"
          "                      openblas for matmul, naive for nbody)\n"
          "  --csv FILE          write every cell as CSV\n"
          "  --plots DIR         write gnuplot data, scripts and PNGs to DIR\n"
          "  --overhead          measure launch overhead instead (ampcl vs raw OpenCL)\n"
          "  --launches N        launches for --overhead (default 10000)\n"
          "  --ports             classic OpenCL kernel files, unchanged, by raw OpenCL and ampcl\n"
          "  --ports-n N         every port at size N (default: each its own)\n"
          "  --ports-each FILE   every repeat's two times as CSV (which side ran first, raw ms,\n"
          "                      ampcl ms): a machine whose times have two modes shows them\n"
          "  --algorithms        time reduce, scan, transpose, histogram, sort on device data vs\n"
          "                      the device copy (--sizes in elements; default 2^28 on a GPU)\n"
          "  --prepare           the algorithms' first calls with and without\n"
          "                      amp_algorithms_prepare (--sizes: the ints; default 2^20)\n"
          "  --samples           the C++ AMP reduction and scan samples beside amp_reduce and\n"
          "                      amp_scan, as a ratio (--sizes in ints; default 2^26 on a GPU,\n"
          "                      2^22 on a CPU device)\n"
          "  --cpu               ampcl on --accelerator beside OpenMP + SIMD C in the same run:\n"
          "                      add-exp, n-body, matmul, reduce, scan, transpose, stencil,\n"
          "                      with the ratio; --sizes gives add-exp, n-body, matmul and\n"
          "                      algorithm sizes in that order (default 2^22,4096,1024,2^22)\n"
          "  --list              list the accelerators and exit\n"
          "  --inject-error      corrupt one element of every result before its check (a\n"
          "                      self-test of the checks: every cell must then FAIL)\n"
          "  --help              this text\n"
          "Exit status: 0 when every cell ran and verified (or was skipped), 1 when a cell\n"
          "FAILED its check or hit an error, 2 on bad usage.\n",
          BENCH_MAX_REPEATS);
}

/* Splits a comma-separated list in place into at most MAX_LIST items. */
static int split_list(char *s, char **out) {
  int n = 0;
  for (char *tok = strtok(s, ","); tok && n < MAX_LIST; tok = strtok(NULL, ","))
    out[n++] = tok;
  return n;
}

static int list_accelerators(void) {
  size_t n = 0;
  amp_status st = amp_accelerator_count(&n);
  if (st != AMP_SUCCESS) {
    fprintf(stderr, "amp-bench: %s\n", amp_last_error());
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    amp_accelerator *a;
    amp_accelerator_properties p;
    if (amp_accelerator_get(i, &a) == AMP_SUCCESS &&
        amp_accelerator_get_properties(a, &p) == AMP_SUCCESS)
      printf("%-40s %s%s\n", p.device_path, p.description, p.is_host ? " (host)" : "");
  }
  return 0;
}

static int setup_accelerators(bench_ctx *ctx, const char *path, char *multi_list) {
  amp_status st = amp_accelerator_find(path ? path : "default", &ctx->acc);
  if (st == AMP_SUCCESS)
    st = amp_accelerator_get_properties(ctx->acc, &ctx->props);
  if (st == AMP_SUCCESS)
    st = amp_accelerator_default_view(ctx->acc, &ctx->av);
  if (st != AMP_SUCCESS) {
    fprintf(stderr, "amp-bench: accelerator %s: %s: %s\n", path ? path : "default",
            amp_status_name(st), amp_last_error());
    return 1;
  }
  char *items[MAX_LIST];
  if (multi_list) {
    int n = split_list(multi_list, items);
    for (int i = 0; i < n && ctx->nmulti < BENCH_MAX_ACCS; i++) {
      amp_accelerator *a;
      amp_accelerator_properties p;
      if ((st = amp_accelerator_find(items[i], &a)) != AMP_SUCCESS ||
          (st = amp_accelerator_get_properties(a, &p)) != AMP_SUCCESS ||
          (st = amp_accelerator_default_view(a, &ctx->multi[ctx->nmulti])) != AMP_SUCCESS) {
        fprintf(stderr, "amp-bench: --multi %s: %s\n", items[i], amp_last_error());
        return 1;
      }
      ctx->multi_paths[ctx->nmulti++] = p.device_path;
    }
    return 0;
  }
  /* Default: the --accelerator's platform, every device of it (a GPU box's POCL CPU device, if
   * installed, would only slow a split of GPUs down). */
  size_t n = 0;
  amp_accelerator_count(&n);
  for (size_t i = 0; i < n && ctx->nmulti < BENCH_MAX_ACCS; i++) {
    amp_accelerator *a;
    amp_accelerator_properties p;
    if (amp_accelerator_get(i, &a) != AMP_SUCCESS ||
        amp_accelerator_get_properties(a, &p) != AMP_SUCCESS || p.is_host ||
        strcmp(p.platform_name, ctx->props.platform_name) != 0 ||
        amp_accelerator_default_view(a, &ctx->multi[ctx->nmulti]) != AMP_SUCCESS)
      continue;
    ctx->multi_paths[ctx->nmulti++] = p.device_path;
  }
  return 0;
}

static void print_header(const bench_ctx *ctx, const char *workload) {
  char date[64];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", localtime(&now));
  printf("amp-bench %s: %s, %s\n", AMP_BENCH_VERSION, workload, date);
  printf("accelerator: %s: %s, %u compute units, %u MHz, %.1f GiB, fp64 %s\n",
         ctx->props.device_path, ctx->props.description, ctx->props.compute_units,
         ctx->props.max_clock_mhz, (double)ctx->props.dedicated_memory / (1u << 30),
         ctx->props.supports_double_precision ? "yes" : "no");
  if (ctx->nmulti) {
    printf("multi split over %zu:", ctx->nmulti);
    for (size_t i = 0; i < ctx->nmulti; i++)
      printf(" %s", ctx->multi_paths[i]);
    printf("\n");
  }
  printf("OpenBLAS: %s, %d threads\n", openblas_get_config(), openblas_get_num_threads());
  if (!strcmp(workload, "matmul") || !strcmp(workload, "addexp")) /* --pinned's workloads */
    printf("host data under views: %s\n",
           bench_pinned_on ? "pinned (amp_host_alloc, --pinned)" : "malloc'd");
}

int main(int argc, char **argv) {
  bench_ctx ctx = {0};
  const char *workload = "matmul", *accel = NULL, *csv = NULL, *plots = NULL, *baseline = "seq";
  char *impl_arg = NULL, *size_arg = NULL, *type_arg = NULL, *multi_arg = NULL;
  int overhead = 0, launches = 10000, algorithms = 0, pinned = 0, cpu = 0, samples = 0, prepare = 0;
  int ports = 0, ports_n = 0;
  const char *ports_each = NULL;
  long seq_max = -1;
  ctx.repeats = 5;
  ctx.warmup = 1;
  ctx.steps = 10;
  for (int i = 1; i < argc; i++) {
    char *opt = argv[i], *val = NULL, *eq = strchr(opt, '=');
    if (eq && strncmp(opt, "--", 2) == 0) {
      *eq = '\0';
      val = eq + 1;
    }
#define VALUE() (val ? val : (i + 1 < argc ? argv[++i] : (usage(stderr), exit(2), (char *)NULL)))
    if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(opt, "--list")) {
      return list_accelerators();
    } else if (!strcmp(opt, "--workload")) {
      workload = VALUE();
    } else if (!strcmp(opt, "--impl")) {
      impl_arg = VALUE();
    } else if (!strcmp(opt, "--sizes")) {
      size_arg = VALUE();
    } else if (!strcmp(opt, "--types")) {
      type_arg = VALUE();
    } else if (!strcmp(opt, "--repeats")) {
      ctx.repeats = atoi(VALUE());
    } else if (!strcmp(opt, "--warmup")) {
      ctx.warmup = atoi(VALUE());
    } else if (!strcmp(opt, "--seq-max")) {
      seq_max = bench_parse_size(VALUE());
    } else if (!strcmp(opt, "--steps")) {
      ctx.steps = atoi(VALUE());
    } else if (!strcmp(opt, "--fast-opts")) {
      ctx.fast_opts = VALUE();
    } else if (!strcmp(opt, "--accelerator")) {
      accel = VALUE();
    } else if (!strcmp(opt, "--multi")) {
      multi_arg = VALUE();
    } else if (!strcmp(opt, "--pinned")) {
      pinned = 1;
    } else if (!strcmp(opt, "--baseline")) {
      baseline = VALUE();
    } else if (!strcmp(opt, "--csv")) {
      csv = VALUE();
    } else if (!strcmp(opt, "--plots")) {
      plots = VALUE();
    } else if (!strcmp(opt, "--inject-error")) {
      bench_inject_error = 1;
    } else if (!strcmp(opt, "--overhead")) {
      overhead = 1;
    } else if (!strcmp(opt, "--algorithms")) {
      algorithms = 1;
    } else if (!strcmp(opt, "--prepare")) {
      prepare = 1;
    } else if (!strcmp(opt, "--samples")) {
      samples = 1;
    } else if (!strcmp(opt, "--cpu")) {
      cpu = 1;
    } else if (!strcmp(opt, "--ports")) {
      ports = 1;
    } else if (!strcmp(opt, "--ports-n")) {
      ports_n = atoi(VALUE());
    } else if (!strcmp(opt, "--ports-each")) {
      ports_each = VALUE();
    } else if (!strcmp(opt, "--launches")) {
      launches = atoi(VALUE());
    } else {
      fprintf(stderr, "amp-bench: unknown option %s\n", opt);
      usage(stderr);
      return 2;
    }
#undef VALUE
  }
  if (ctx.repeats < 1 || ctx.repeats > BENCH_MAX_REPEATS || ctx.warmup < 0 || ctx.steps < 1 ||
      launches < 1 || ports_n < 0 || ports_n > 16384) {
    fprintf(stderr,
            "amp-bench: --repeats must be 1..%d, --warmup >= 0, --steps and --launches "
            ">= 1, --ports-n 0..16384\n",
            BENCH_MAX_REPEATS);
    return 2;
  }

  const bench_workload *w = NULL;
  if (!strcmp(workload, "matmul"))
    w = &bench_matmul;
  else if (!strcmp(workload, "addexp"))
    w = &bench_addexp;
  else if (!strcmp(workload, "nbody"))
    w = &bench_nbody;
  else if (!overhead && !algorithms && !cpu && !samples && !prepare && !ports) {
    fprintf(stderr, "amp-bench: unknown workload %s (matmul, addexp, nbody)\n", workload);
    return 2;
  }
  if (setup_accelerators(&ctx, accel, multi_arg))
    return 1;
  if (pinned)
    bench_pinned_on = ctx.acc;
  if (ports) {
    print_header(&ctx, "classic OpenCL kernels, raw and through ampcl");
    return bench_ports(&ctx, ports_n, csv, ports_each);
  }
  if (overhead) {
    print_header(&ctx, "launch overhead");
    return bench_overhead(&ctx, launches, csv);
  }
  if (algorithms || cpu || samples || prepare) {
    long asizes[MAX_LIST];
    int an = 0;
    if (size_arg) {
      char *items[MAX_LIST];
      int n = split_list(size_arg, items);
      for (int i = 0; i < n; i++)
        if ((asizes[an++] = bench_parse_size(items[i])) <= 0) {
          fprintf(stderr, "amp-bench: bad size %s\n", items[i]);
          return 2;
        }
    }
    if (cpu) {
      print_header(&ctx, "CPU comparison (--cpu)");
      return bench_cpu(&ctx, asizes, an, csv);
    }
    if (prepare) {
      print_header(&ctx, "first calls and amp_algorithms_prepare (--prepare)");
      return bench_prepare(&ctx, asizes, an, csv);
    }
    if (samples) {
      print_header(&ctx, "C++ AMP samples (--samples)");
      return bench_samples(&ctx, asizes, an, csv);
    }
    print_header(&ctx, "algorithms");
    return bench_algorithms(&ctx, asizes, an, csv);
  }
  ctx.seq_max = seq_max > 0 ? seq_max : w->seq_max_default;

  /* The grid: implementations, sizes, types. */
  bench_grid g = {0};
  const char *impls[MAX_LIST];
  long sizes[MAX_LIST];
  g.w = w;
  g.baseline = baseline;
  if (impl_arg) {
    char *items[MAX_LIST];
    int n = split_list(impl_arg, items);
    for (int i = 0; i < n; i++) {
      int known = 0;
      for (const char *const *k = w->impls; *k; k++)
        if (!strcmp(*k, items[i])) {
          impls[g.nimpl++] = *k;
          known = 1;
        }
      if (!known) {
        fprintf(stderr, "amp-bench: %s has no implementation %s\n", w->name, items[i]);
        return 2;
      }
    }
  } else {
    for (const char *const *k = w->impls; *k; k++)
      impls[g.nimpl++] = *k;
  }
  if (size_arg) {
    char *items[MAX_LIST];
    int n = split_list(size_arg, items);
    for (int i = 0; i < n; i++)
      if ((sizes[g.nsize++] = bench_parse_size(items[i])) <= 0) {
        fprintf(stderr, "amp-bench: bad size %s\n", items[i]);
        return 2;
      }
  } else {
    const long *d = ctx.props.is_emulated ? w->cpu_sizes : w->gpu_sizes;
    for (; *d; d++)
      sizes[g.nsize++] = *d;
  }
  if (type_arg) {
    char *items[MAX_LIST];
    int n = split_list(type_arg, items);
    for (int i = 0; i < n; i++) {
      if (!strcmp(items[i], "float")) {
        g.types[0] = 1;
      } else if (!strcmp(items[i], "double")) {
        if (w->float_only)
          fprintf(stderr, "amp-bench: %s has float kernels only; double left out\n", w->name);
        else
          g.types[1] = 1;
      } else {
        fprintf(stderr, "amp-bench: unknown type %s (float, double)\n", items[i]);
        return 2;
      }
    }
  } else {
    g.types[0] = 1;
    g.types[1] = !w->float_only;
  }
  if (!g.types[0] && !g.types[1]) {
    fprintf(stderr, "amp-bench: no type left to run\n");
    return 2;
  }
  g.impls = impls;
  g.sizes = sizes;
  g.cells = calloc((size_t)2 * (size_t)g.nsize * (size_t)g.nimpl, sizeof *g.cells);
  if (!g.cells)
    return 2;
  print_header(&ctx, w->name);

  int total = (g.types[0] + g.types[1]) * g.nsize * g.nimpl, done = 0, bad = 0;
  for (int t = 0; t < 2; t++) {
    if (!g.types[t])
      continue;
    for (int s = 0; s < g.nsize; s++) {
      for (int i = 0; i < g.nimpl; i++) {
        bench_cell *c = bench_grid_cell(&g, t, s, i);
        c->impl = impls[i];
        c->type = (bench_type)t;
        c->size = sizes[s];
        fprintf(stderr, "[%d/%d] %s %s %ld %s ...\n", ++done, total, w->name,
                bench_type_name(c->type), c->size, c->impl);
        w->run(&ctx, c);
        if (c->state == BENCH_OK) {
          bench_stats k = bench_stats_of(c->kernel_ms, c->n);
          double e = bench_stats_of(c->e2e_ms, c->n).median;
          if (isnan(k.median)) /* the device gave no device time: not measured */
            fprintf(stderr, "        kernel n/a, end to end %.3f ms, ok\n", e);
          else
            fprintf(
                stderr, "        kernel %.3f ms [%.3f - %.3f], end to end %.3f ms, %.2f %s, ok\n",
                k.median, k.min, k.max, e, w->work(&ctx, c->size) / (k.median * 1e-3), w->metric);
        } else {
          fprintf(stderr, "        %s: %s\n",
                  c->state == BENCH_SKIPPED  ? "skipped"
                  : c->state == BENCH_FAILED ? "FAILED"
                                             : "ERROR",
                  c->note);
          bad |= c->state == BENCH_FAILED || c->state == BENCH_ERROR;
        }
      }
      if (w->release_cache)
        w->release_cache();
    }
  }
  bench_compute_speedups(&g);
  bench_print_tables(&g, &ctx);
  if (csv && bench_write_csv(&g, &ctx, csv))
    bad = 1;
  if (plots && bench_write_plots(&g, &ctx, plots))
    bad = 1;
  free(g.cells);
  if (bad)
    fprintf(stderr, "amp-bench: some cells FAILED or hit an error (see the notes)\n");
  return bad ? 1 : 0;
}
