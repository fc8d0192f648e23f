/* bench/bench_report.c: amp-bench's output: the terminal tables (laid out like the appendices of
 * the CUDA thesis: one column group per implementation, a float and a double column in each, one
 * row per size), the CSV file, and the gnuplot data and scripts behind the PNG plots. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* `text` as one quoted CSV field and the end of the row (RFC 4180: quotes inside are doubled). */
static void csv_quoted(FILE *f, const char *text) {
  fputc('"', f);
  for (const char *c = text; *c; c++) {
    if (*c == '"')
      fputc('"', f);
    fputc(*c, f);
  }
  fputs("\"\n", f);
}

enum { CELL_W = 11 }; /* width of one number column */

bench_cell *bench_grid_cell(const bench_grid *g, int type, int size, int impl) {
  return &g->cells[((size_t)type * (size_t)g->nsize + (size_t)size) * (size_t)g->nimpl +
                   (size_t)impl];
}

static int impl_index(const bench_grid *g, const char *name) {
  for (int i = 0; name && i < g->nimpl; i++)
    if (strcmp(g->impls[i], name) == 0)
      return i;
  return -1;
}

static double median_of(const double *v, int n) {
  return bench_stats_of(v, n).median;
}

void bench_compute_speedups(bench_grid *g) {
  int base = impl_index(g, g->baseline), fb = impl_index(g, g->w->fallback_baseline);
  for (int t = 0; t < 2; t++)
    for (int s = 0; t < 2 && g->types[t] && s < g->nsize; s++) {
      bench_cell *b = base >= 0 ? bench_grid_cell(g, t, s, base) : NULL;
      if ((!b || b->state != BENCH_OK) && fb >= 0 && fb != base)
        b = bench_grid_cell(g, t, s, fb);
      if (!b || b->state != BENCH_OK)
        continue;
      double bk = median_of(b->kernel_ms, b->n), be = median_of(b->e2e_ms, b->n);
      for (int i = 0; i < g->nimpl; i++) {
        bench_cell *c = bench_grid_cell(g, t, s, i);
        if (c->state != BENCH_OK)
          continue;
        c->baseline = b->impl;
        c->speedup = bk / median_of(c->kernel_ms, c->n);
        c->speedup_e2e = be / median_of(c->e2e_ms, c->n);
      }
    }
}

/* A number in at most CELL_W characters, with about four significant digits; n/a for NAN (a time
 * that was not measured, or a ratio with one). */
static void fmt_num(char *out, size_t cap, double v) {
  if (isnan(v))
    snprintf(out, cap, "n/a");
  else if (v >= 1e4)
    snprintf(out, cap, "%.0f", v);
  else if (v >= 100)
    snprintf(out, cap, "%.1f", v);
  else if (v >= 1)
    snprintf(out, cap, "%.2f", v);
  else
    snprintf(out, cap, "%.4f", v);
}

/* What a table shows for one cell. */
typedef enum view_kind { V_KERNEL, V_E2E, V_SPREAD, V_SPEEDUP, V_RATE } view_kind;

static void format_cell(const bench_grid *g, const bench_ctx *ctx, const bench_cell *c, view_kind v,
                        char *out, size_t cap) {
  switch (c->state) {
  case BENCH_NOT_RUN:
  case BENCH_SKIPPED:
    snprintf(out, cap, "-");
    return;
  case BENCH_FAILED:
    snprintf(out, cap, "FAILED");
    return;
  case BENCH_ERROR:
    snprintf(out, cap, "ERROR");
    return;
  case BENCH_OK:
    break;
  }
  bench_stats k = bench_stats_of(c->kernel_ms, c->n);
  switch (v) {
  case V_KERNEL:
    fmt_num(out, cap, k.median);
    break;
  case V_E2E:
    fmt_num(out, cap, median_of(c->e2e_ms, c->n));
    break;
  case V_SPREAD:
    if (isnan(k.median))
      snprintf(out, cap, "n/a");
    else
      snprintf(out, cap, "%.1f%%", k.median > 0 ? 100.0 * (k.max - k.min) / k.median : 0.0);
    break;
  case V_SPEEDUP:
    if (c->baseline)
      fmt_num(out, cap, c->speedup);
    else
      snprintf(out, cap, "-");
    break;
  case V_RATE:
    fmt_num(out, cap, g->w->work(ctx, c->size) / (k.median * 1e-3));
    break;
  }
}

static int ntypes(const bench_grid *g) {
  return g->types[0] + g->types[1];
}

/* One table: a row of implementation names, a row of types, then one row per size. Implementation
 * `skip` (an index, or -1) is left out; when first_impl >= 0 a first group labelled first_label
 * shows, per row, the baseline that row's speedups used (view first_v). */
static void print_table(const bench_grid *g, const bench_ctx *ctx, const char *title, view_kind v,
                        int skip, int first_impl, view_kind first_v, const char *first_label) {
  int nt = ntypes(g), cw = nt * (CELL_W + 1);
  char buf[64];
  printf("\n%s\n", title);
  printf("%-12s", g->w->size_label);
  for (int i = -1; i < g->nimpl; i++) {
    if (i == skip || (i < 0 && first_impl < 0))
      continue;
    const char *label = i < 0 ? first_label : g->impls[i];
    int gw = (int)strlen(label) + 1 > cw ? (int)strlen(label) + 1 : cw;
    printf("| %-*s", gw - 1, label);
  }
  printf("\n%-12s", "");
  for (int i = -1; i < g->nimpl; i++) {
    if (i == skip || (i < 0 && first_impl < 0))
      continue;
    const char *label = i < 0 ? first_label : g->impls[i];
    int pad = (int)strlen(label) + 1 > cw ? (int)strlen(label) + 1 - cw : 0;
    printf("|%*s", pad, "");
    for (int t = 0; t < 2; t++)
      if (g->types[t])
        printf("%*s ", CELL_W, bench_type_name((bench_type)t));
  }
  printf("\n");
  for (int s = 0; s < g->nsize; s++) {
    printf("%-12ld", g->sizes[s]);
    for (int i = -1; i < g->nimpl; i++) {
      if (i == skip || (i < 0 && first_impl < 0))
        continue;
      const char *label = i < 0 ? first_label : g->impls[i];
      int pad = (int)strlen(label) + 1 > cw ? (int)strlen(label) + 1 - cw : 0;
      printf("|%*s", pad, "");
      for (int t = 0; t < 2; t++) {
        if (!g->types[t])
          continue;
        const bench_cell *c = bench_grid_cell(g, t, s, i < 0 ? first_impl : i);
        if (i < 0) { /* the baseline actually used in this row */
          for (int j = 0; j < g->nimpl; j++)
            if (bench_grid_cell(g, t, s, j)->baseline) {
              c = bench_grid_cell(g, t, s, impl_index(g, bench_grid_cell(g, t, s, j)->baseline));
              break;
            }
          format_cell(g, ctx, c, first_v, buf, sizeof buf);
        } else {
          format_cell(g, ctx, c, v, buf, sizeof buf);
        }
        printf("%*s ", CELL_W, buf);
      }
    }
    printf("\n");
  }
}

void bench_print_tables(const bench_grid *g, const bench_ctx *ctx) {
  char title[512];
  const char *wn = g->w->name;
  snprintf(title, sizeof title,
           "Table A. %s: kernel time, ms (median of %d after %d warm-up; OpenCL events for "
           "device code, wall clock for host code)",
           wn, ctx->repeats, ctx->warmup);
  print_table(g, ctx, title, V_KERNEL, -1, -1, V_KERNEL, NULL);
  snprintf(title, sizeof title,
           "Table A2. %s: end-to-end time, ms (median; views over host data, copies in, launch, "
           "copy back)",
           wn);
  print_table(g, ctx, title, V_E2E, -1, -1, V_KERNEL, NULL);
  snprintf(title, sizeof title, "Table A3. %s: spread of kernel time, (max - min) / median", wn);
  print_table(g, ctx, title, V_SPREAD, -1, -1, V_KERNEL, NULL);

  /* Which baseline the rows used (the requested one, its fallback, or both), said in the title. */
  int used_req = 0, used_fb = 0;
  for (int t = 0; t < 2; t++)
    for (int s = 0; g->types[t] && s < g->nsize; s++)
      for (int i = 0; i < g->nimpl; i++) {
        const bench_cell *c = bench_grid_cell(g, t, s, i);
        if (c->baseline && strcmp(c->baseline, g->baseline) == 0)
          used_req = 1;
        else if (c->baseline)
          used_fb = 1;
      }
  const char *fb = g->w->fallback_baseline ? g->w->fallback_baseline : "none";
  const char *shown = used_fb && !used_req ? fb : g->baseline;
  char used[256] = "", label[64];
  if (used_fb && used_req)
    snprintf(used, sizeof used, "; * %s where %s was not run (- in Table A)", fb, g->baseline);
  else if (used_fb)
    snprintf(used, sizeof used, " (%s was not run)", g->baseline);
  snprintf(title, sizeof title,
           "Table B. %s: speedup of kernel time vs %s%s; first group: that baseline's time, ms", wn,
           shown, used);
  snprintf(label, sizeof label, "Time %s%s", shown, used_fb && used_req ? "*" : "");
  int base = impl_index(g, shown);
  print_table(g, ctx, title, V_SPEEDUP, base, base >= 0 ? base : impl_index(g, fb), V_KERNEL,
              label);
  snprintf(title, sizeof title, "Table C. %s: %s from the median kernel time", wn, g->w->metric);
  print_table(g, ctx, title, V_RATE, -1, -1, V_KERNEL, NULL);

  int unmeasured = 0;
  for (int t = 0; t < 2; t++)
    for (int s = 0; g->types[t] && s < g->nsize; s++)
      for (int i = 0; i < g->nimpl; i++) {
        const bench_cell *c = bench_grid_cell(g, t, s, i);
        unmeasured |= c->state == BENCH_OK && isnan(median_of(c->kernel_ms, c->n));
      }
  if (unmeasured)
    printf("\nn/a: no device time was measured (the kernel times, their spread, the speedups and "
           "%s from them are not shown; end-to-end times are the host's clock and stand):\n  %s\n",
           g->w->metric, bench_unmeasured_why() ? bench_unmeasured_why() : "(no reason given)");

  int notes = 0;
  for (int t = 0; t < 2; t++)
    for (int s = 0; g->types[t] && s < g->nsize; s++)
      for (int i = 0; i < g->nimpl; i++) {
        const bench_cell *c = bench_grid_cell(g, t, s, i);
        if (c->state == BENCH_OK || c->state == BENCH_NOT_RUN || !c->note[0])
          continue;
        if (!notes++)
          printf("\nNotes:\n");
        printf("  %s %s %ld %s: %s%s\n", wn, bench_type_name(c->type), c->size, c->impl,
               c->state == BENCH_FAILED  ? "FAILED: "
               : c->state == BENCH_ERROR ? "ERROR: "
                                         : "",
               c->note);
      }
}

/* One CSV number and its comma: empty where it is NAN (not measured: n/a). */
static void csv_num(FILE *f, double v) {
  if (isnan(v))
    fputc(',', f);
  else
    fprintf(f, "%.6g,", v);
}

int bench_write_csv(const bench_grid *g, const bench_ctx *ctx, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "amp-bench: cannot write %s\n", path);
    return 1;
  }
  fprintf(f, "workload,impl,type,size,status,repeats,kernel_ms_median,kernel_ms_min,"
             "kernel_ms_max,kernel_ms_q1,kernel_ms_q3,sync_ms_median,e2e_ms_median,e2e_ms_min,"
             "e2e_ms_max,metric,metric_kernel,metric_e2e,baseline,speedup,speedup_e2e,"
             "max_err_over_tol,device,note\n");
  static const char *state_name[] = {"not-run", "ok", "skipped", "FAILED", "ERROR"};
  for (int t = 0; t < 2; t++)
    for (int s = 0; g->types[t] && s < g->nsize; s++)
      for (int i = 0; i < g->nimpl; i++) {
        const bench_cell *c = bench_grid_cell(g, t, s, i);
        bench_stats k = bench_stats_of(c->kernel_ms, c->n), e = bench_stats_of(c->e2e_ms, c->n);
        double sy = median_of(c->sync_ms, c->n), w = g->w->work(ctx, c->size);
        int ok = c->state == BENCH_OK;
        fprintf(f, "%s,%s,%s,%ld,%s,%d,", g->w->name, c->impl, bench_type_name(c->type), c->size,
                state_name[c->state], c->n);
        if (ok) { /* a kernel time not measured (NAN) leaves its fields and ratios empty */
          const double v[] = {k.median, k.min, k.max, k.q1, k.q3, sy, e.median, e.min, e.max};
          for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
            csv_num(f, v[j]);
          fprintf(f, "%s,", g->w->metric);
          csv_num(f, w / (k.median * 1e-3));
          csv_num(f, w / (e.median * 1e-3));
          fprintf(f, "%s,", c->baseline ? c->baseline : "");
        } else {
          fprintf(f, ",,,,,,,,,%s,,,,", g->w->metric);
        }
        if (ok && c->baseline) {
          csv_num(f, c->speedup);
          csv_num(f, c->speedup_e2e);
        } else {
          fprintf(f, ",,");
        }
        fprintf(f, "%.3g,%s,", c->max_err, ctx->props.device_path);
        csv_quoted(f, c->note);
      }
  fclose(f);
  return 0;
}

/* ---- plots: DIR/<workload>_<type>.dat plus DIR/<workload>.gp, run with gnuplot ----------------
 */

/* One number of a .dat row, or "-" (the scripts' `set datafile missing`) where it is NAN. */
static void dat_num(FILE *f, double v) {
  if (isnan(v))
    fprintf(f, " -");
  else
    fprintf(f, " %.6g", v);
}

/* Column `col` (1 kernel ms, 2 e2e ms, 3 speedup, 4 rate) of a cell in the .dat files: NAN where
 * there is none (not run, failed, or a kernel time that was not measured). */
static double dat_value(const bench_grid *g, const bench_ctx *ctx, const bench_cell *c, int col) {
  if (c->state != BENCH_OK)
    return NAN;
  double k = median_of(c->kernel_ms, c->n);
  switch (col) {
  case 1:
    return k;
  case 2:
    return median_of(c->e2e_ms, c->n);
  case 3:
    return c->baseline ? c->speedup : NAN;
  default:
    return g->w->work(ctx, c->size) / (k * 1e-3);
  }
}

/* Whether implementation i of type t has a value in column col at some size: gnuplot stops the
 * script at a plot whose every series is empty, so empty series are left out of the plots. */
static int has_values(const bench_grid *g, const bench_ctx *ctx, int t, int i, int col) {
  for (int s = 0; s < g->nsize; s++)
    if (!isnan(dat_value(g, ctx, bench_grid_cell(g, t, s, i), col)))
      return 1;
  return 0;
}

static int write_dat(const bench_grid *g, const bench_ctx *ctx, const char *dir, int t) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s_%s.dat", dir, g->w->name, bench_type_name((bench_type)t));
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "amp-bench: cannot write %s\n", path);
    return 1;
  }
  fprintf(f, "# size, then per implementation: kernel_ms e2e_ms speedup %s\n# size", g->w->metric);
  for (int i = 0; i < g->nimpl; i++)
    fprintf(f, " %s(4)", g->impls[i]);
  fprintf(f, "\n");
  for (int s = 0; s < g->nsize; s++) {
    fprintf(f, "%ld", g->sizes[s]);
    for (int i = 0; i < g->nimpl; i++) {
      for (int col = 1; col <= 4; col++)
        dat_num(f, dat_value(g, ctx, bench_grid_cell(g, t, s, i), col));
    }
    fprintf(f, "\n");
  }
  fclose(f);
  return 0;
}

/* One plot: column `col` (1 kernel, 2 e2e, 3 speedup, 4 rate) of every implementation that has a
 * value in it; none (every kernel time n/a): no plot, a comment saying so. */
static void gp_plot(FILE *f, const bench_grid *g, const bench_ctx *ctx, int t, const char *png,
                    const char *title, const char *ylabel, int col, int skip_baseline) {
  const char *tn = bench_type_name((bench_type)t);
  int any = 0;
  for (int i = 0; i < g->nimpl; i++)
    any |=
        !(skip_baseline && strcmp(g->impls[i], g->baseline) == 0) && has_values(g, ctx, t, i, col);
  if (!any) {
    fprintf(f, "# %s_%s_%s.png: nothing to plot (not run, or not measured: n/a)\n", g->w->name, png,
            tn);
    return;
  }
  fprintf(f, "set output '%s_%s_%s.png'\n", g->w->name, png, tn);
  fprintf(f, "set title '%s (%s)'\nset ylabel '%s'\n", title, tn, ylabel);
  fprintf(f, "plot");
  int first = 1;
  for (int i = 0; i < g->nimpl; i++) {
    if ((skip_baseline && strcmp(g->impls[i], g->baseline) == 0) || !has_values(g, ctx, t, i, col))
      continue;
    fprintf(f, "%s '%s_%s.dat' using 1:%d with linespoints title '%s'", first ? "" : ",",
            g->w->name, tn, 2 + 4 * i + (col - 1), g->impls[i]);
    first = 0;
  }
  fprintf(f, "\n");
}

int bench_write_plots(const bench_grid *g, const bench_ctx *ctx, const char *dir) {
  char path[1024], cmd[2200];
  if (strchr(dir, '\'')) {
    fprintf(stderr, "amp-bench: --plots: the directory name may not contain a quote\n");
    return 1;
  }
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  if (system(cmd) != 0) {
    fprintf(stderr, "amp-bench: cannot create %s\n", dir);
    return 1;
  }
  for (int t = 0; t < 2; t++)
    if (g->types[t] && write_dat(g, ctx, dir, t))
      return 1;
  snprintf(path, sizeof path, "%s/%s.gp", dir, g->w->name);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "amp-bench: cannot write %s\n", path);
    return 1;
  }
  fprintf(f, "# Written by amp-bench; run in this directory: gnuplot %s.gp\n", g->w->name);
  fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
             "  set terminal pngcairo size 960,640 noenhanced\n} else {\n"
             "  set terminal png size 960,640 noenhanced\n}\n");
  fprintf(f,
          "set datafile missing '-'\nset key outside right\nset grid\n"
          "set logscale x 2\nset logscale y\nset xlabel '%s'\nset format x '%%.0f'\n",
          g->w->size_label);
  fprintf(f, "set xtics (");
  for (int s = 0; s < g->nsize; s++)
    fprintf(f, "%s'%ld' %ld", s ? ", " : "", g->sizes[s], g->sizes[s]);
  fprintf(f, ")\n");
  /* Every implementation and type in one plot (the thesis's figure 3.8), those with a kernel
   * time. */
  int timed = 0;
  for (int t = 0; t < 2; t++)
    for (int i = 0; g->types[t] && i < g->nimpl; i++)
      timed |= has_values(g, ctx, t, i, 1);
  if (timed) {
    fprintf(f,
            "set output '%s_time_all.png'\nset title '%s: kernel time, all'\nset ylabel 'ms "
            "(log)'\nplot",
            g->w->name, g->w->name);
    for (int t = 0, first = 1; t < 2; t++)
      for (int i = 0; g->types[t] && i < g->nimpl; i++) {
        if (!has_values(g, ctx, t, i, 1))
          continue;
        fprintf(f, "%s '%s_%s.dat' using 1:%d with linespoints dt %d title '%s %s'",
                first ? "" : ",", g->w->name, bench_type_name((bench_type)t), 2 + 4 * i, t + 1,
                g->impls[i], bench_type_name((bench_type)t));
        first = 0;
      }
    fprintf(f, "\n");
  }
  for (int t = 0; t < 2; t++) {
    if (!g->types[t])
      continue;
    char title[256];
    snprintf(title, sizeof title, "%s: kernel time on %s", g->w->name, ctx->props.name);
    gp_plot(f, g, ctx, t, "time", title, "ms (log)", 1, 0);
    snprintf(title, sizeof title, "%s: end-to-end time on %s", g->w->name, ctx->props.name);
    gp_plot(f, g, ctx, t, "e2e", title, "ms (log)", 2, 0);
    snprintf(title, sizeof title, "%s: speedup vs %s", g->w->name, g->baseline);
    gp_plot(f, g, ctx, t, "speedup", title, "speedup (log)", 3, 1);
    snprintf(title, sizeof title, "%s: %s", g->w->name, g->w->metric);
    gp_plot(f, g, ctx, t, "rate", title, g->w->metric, 4, 0);
  }
  fclose(f);
  if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
    fprintf(stderr,
            "amp-bench: gnuplot not found: no PNGs made. The data and scripts are in %s; run "
            "bench/plot.sh %s where gnuplot is installed (Debian: gnuplot-nox).\n",
            dir, dir);
    return 0;
  }
  snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot '%s.gp'", dir, g->w->name);
  if (system(cmd) != 0) {
    fprintf(stderr, "amp-bench: gnuplot failed on %s\n", path);
    return 1;
  }
  fprintf(stderr, "amp-bench: plots written to %s/%s_*.png\n", dir, g->w->name);
  return 0;
}
