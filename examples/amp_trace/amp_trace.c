/* amp-trace: reads a trace written with AMP_TRACE=file.json (ampcl/trace.h) and tells where the
 * time went.
 *
 *   amp-trace summary file.json    per kernel and per kind of copy: count, total, mean and
 *                                  longest time, bytes and GB/s, share of the device time (all
 *                                  timed device commands together), and time queued before
 *                                  starting; per device queue: its commands' busy time, the idle
 *                                  gaps between them, and their waits in the queue; and the time
 *                                  the host spent in each ampcl call that waits
 *   amp-trace check file.json      parses the file and checks it: every event well formed, times
 *                                  monotonic on each device track (commands of one in-order
 *                                  queue do not overlap); exit 1 naming the first problem
 *
 * The file is also what Perfetto (ui.perfetto.dev) and chrome://tracing open as a timeline. The
 * JSON reader here is a small one of its own: it reads any JSON, and the summary uses the fields
 * ampcl writes (ph, tid, ts, dur, cat, name, args.bytes, args.device_time). A command whose device
 * had no usable timestamps (args "device_time": "n/a": the device's timestamps measure nothing, as
 * with Mesa's rusticl on llvmpipe) is counted, but its time is not: a group with no timed command
 * prints n/a for its times and rates, one with some says how many were not timed. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small JSON reader ----------------------------------------------------------------------
 * Values are parsed into a tree of nodes; only what the tool needs is kept: objects (key/value
 * lists), arrays, strings and numbers. */
typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;
typedef struct jnode {
  jtype type;
  double num;
  char *str;            /* J_STR */
  struct jnode **items; /* J_ARR and J_OBJ values */
  char **keys;          /* J_OBJ */
  size_t n;
} jnode;

typedef struct jparser {
  const char *p, *end;
  const char *error;
} jparser;

static void skip(jparser *j) {
  while (j->p < j->end && isspace((unsigned char)*j->p))
    j->p++;
}

static jnode *jnew(jtype t) {
  jnode *n = calloc(1, sizeof *n);
  if (n)
    n->type = t;
  return n;
}

static void jfree(jnode *n) {
  if (!n)
    return;
  for (size_t i = 0; i < n->n; i++) {
    jfree(n->items[i]);
    if (n->keys)
      free(n->keys[i]);
  }
  free(n->items);
  free(n->keys);
  free(n->str);
  free(n);
}

static char *jstring(jparser *j) {
  if (j->p >= j->end || *j->p != '"')
    return j->error = "expected a string", NULL;
  j->p++;
  size_t cap = 16, len = 0;
  char *s = malloc(cap);
  while (s && j->p < j->end && *j->p != '"') {
    char c = *j->p++;
    if (c == '\\') {
      if (j->p >= j->end)
        break;
      char e = *j->p++;
      c = e == 'n'   ? '\n'
          : e == 't' ? '\t'
          : e == 'r' ? '\r'
          : e == 'b' ? '\b'
          : e == 'f' ? '\f'
                     : e;
      if (e == 'u') { /* keep ASCII, replace the rest */
        if (j->end - j->p < 4)
          break;
        unsigned v = (unsigned)strtoul((char[5]){j->p[0], j->p[1], j->p[2], j->p[3], 0}, NULL, 16);
        c = v < 128 ? (char)v : '?';
        j->p += 4;
      }
    }
    if (len + 2 > cap) {
      char *g = realloc(s, cap *= 2);
      if (!g) {
        free(s);
        return j->error = "out of memory", NULL;
      }
      s = g;
    }
    s[len++] = c;
  }
  if (!s || j->p >= j->end) {
    free(s);
    return j->error = "unterminated string", NULL;
  }
  j->p++;
  s[len] = '\0';
  return s;
}

static jnode *jvalue(jparser *j, int depth);

static int jpush(jnode *n, jnode *v, char *key) {
  jnode **items = realloc(n->items, (n->n + 1) * sizeof *items);
  if (!items)
    return 0;
  n->items = items;
  if (n->type == J_OBJ) {
    char **keys = realloc(n->keys, (n->n + 1) * sizeof *keys);
    if (!keys)
      return 0;
    n->keys = keys;
    n->keys[n->n] = key;
  }
  n->items[n->n++] = v;
  return 1;
}

static jnode *jcontainer(jparser *j, int depth, int obj) {
  jnode *n = jnew(obj ? J_OBJ : J_ARR);
  j->p++;
  skip(j);
  if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
    j->p++;
    return n;
  }
  while (n && !j->error) {
    char *key = NULL;
    skip(j);
    if (obj) {
      key = jstring(j);
      skip(j);
      if (!key || j->p >= j->end || *j->p != ':') {
        free(key);
        j->error = j->error ? j->error : "expected ':'";
        break;
      }
      j->p++;
    }
    jnode *v = jvalue(j, depth + 1);
    if (!v || !jpush(n, v, key)) {
      jfree(v);
      free(key);
      j->error = j->error ? j->error : "out of memory";
      break;
    }
    skip(j);
    if (j->p < j->end && *j->p == ',') {
      j->p++;
      continue;
    }
    if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
      j->p++;
      return n;
    }
    j->error = obj ? "expected ',' or '}'" : "expected ',' or ']'";
  }
  jfree(n);
  return NULL;
}

static jnode *jvalue(jparser *j, int depth) {
  skip(j);
  if (depth > 64)
    return j->error = "nested too deeply", NULL;
  if (j->p >= j->end)
    return j->error = "unexpected end", NULL;
  char c = *j->p;
  if (c == '{' || c == '[')
    return jcontainer(j, depth, c == '{');
  if (c == '"') {
    jnode *n = jnew(J_STR);
    if (n && !(n->str = jstring(j))) {
      free(n);
      return NULL;
    }
    return n;
  }
  static const struct {
    const char *word;
    jtype type;
    double v;
  } words[] = {{"true", J_BOOL, 1}, {"false", J_BOOL, 0}, {"null", J_NULL, 0}};
  for (size_t i = 0; i < 3; i++) {
    size_t l = strlen(words[i].word);
    if ((size_t)(j->end - j->p) >= l && strncmp(j->p, words[i].word, l) == 0) {
      j->p += l;
      jnode *n = jnew(words[i].type);
      if (n)
        n->num = words[i].v;
      return n;
    }
  }
  /* a number: its characters copied out first, since strtod would read past j->end (the text
   * needs no terminating NUL) and would take words JSON has not (inf, nan, hex) */
  char num[64];
  size_t len = 0;
  while (j->p + len < j->end && len < sizeof num - 1 && strchr("0123456789+-.eE", j->p[len]) &&
         j->p[len])
    len++;
  memcpy(num, j->p, len);
  num[len] = '\0';
  char *endp = NULL;
  double v = strtod(num, &endp);
  if (endp == num)
    return j->error = "unexpected character", NULL;
  j->p += endp - num;
  jnode *n = jnew(J_NUM);
  if (n)
    n->num = v;
  return n;
}

static const jnode *jget(const jnode *o, const char *key) {
  if (!o || o->type != J_OBJ)
    return NULL;
  for (size_t i = 0; i < o->n; i++)
    if (strcmp(o->keys[i], key) == 0)
      return o->items[i];
  return NULL;
}

static const char *jstr(const jnode *o, const char *key) {
  const jnode *v = jget(o, key);
  return v && v->type == J_STR ? v->str : NULL;
}

static double jnum(const jnode *o, const char *key, double dflt) {
  const jnode *v = jget(o, key);
  return v && v->type == J_NUM ? v->num : dflt;
}

/* ---- the tool -----------------------------------------------------------------------------------
 */

/* The JSON value of text[0, size) (no terminating NUL needed), or NULL saying why on stderr.
 * fuzz/amp_trace.c drives this with arbitrary bytes. */
static jnode *parse(const char *text, size_t size, const char *path) {
  jparser j = {text, text + size, NULL};
  jnode *root = jvalue(&j, 0);
  skip(&j);
  if (root && !j.error && j.p != j.end)
    j.error = "text after the JSON value";
  if (j.error) {
    fprintf(stderr, "amp-trace: %s is not valid JSON: %s at byte %ld\n", path, j.error,
            (long)(j.p - text));
    jfree(root);
    root = NULL;
  }
  return root;
}

static jnode *load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "amp-trace: cannot open %s\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
  size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
  fclose(f);
  if (!text || got != (size_t)size) {
    free(text);
    fprintf(stderr, "amp-trace: cannot read %s\n", path);
    return NULL;
  }
  jnode *root = parse(text, (size_t)size, path);
  free(text);
  return root;
}

typedef struct group {
  char key[200];
  int host;
  long count, untimed; /* untimed: commands without a device time (args.device_time "n/a") */
  double total_us, max_us, bytes;
  double wait_us; /* args.queued_to_start_us summed: time queued before the device started it */
} group;

/* One timed command on a device track (one in-order queue), for the queues' table. */
typedef struct command {
  int tid;
  double ts, dur, wait;
} command;

static int by_track_then_start(const void *a, const void *b) {
  const command *x = a, *y = b;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  return x->ts < y->ts ? -1 : x->ts > y->ts ? 1 : 0;
}

/* The name a "thread_name" metadata event gives track tid, or NULL. */
static const char *track_name(const jnode *events, int tid) {
  for (size_t i = 0; i < events->n; i++) {
    const jnode *e = events->items[i];
    const char *ph = jstr(e, "ph"), *name = jstr(e, "name");
    if (ph && name && strcmp(ph, "M") == 0 && strcmp(name, "thread_name") == 0 &&
        jnum(e, "tid", -1) == (double)tid)
      return jstr(jget(e, "args"), "name");
  }
  return NULL;
}

/* Per device queue: its timed commands' busy time, the idle gaps between one's end and the next
 * one's start (within the queue's first start and last end), and their waits in the queue
 * (queued to start, as the device's clock saw them). */
static void queues(const jnode *events) {
  size_t n = 0;
  command *c = calloc(events->n ? events->n : 1, sizeof *c);
  for (size_t i = 0; c && i < events->n; i++) {
    const jnode *e = events->items[i];
    const char *ph = jstr(e, "ph"), *dt = jstr(jget(e, "args"), "device_time");
    double tid = jnum(e, "tid", 0);
    if (!ph || strcmp(ph, "X") != 0 || !(tid >= 1000 && tid <= 1e9) || (dt && !strcmp(dt, "n/a")))
      continue;
    c[n++] = (command){(int)tid, jnum(e, "ts", 0), jnum(e, "dur", 0),
                       jnum(jget(e, "args"), "queued_to_start_us", 0)};
  }
  if (!c || !n) {
    free(c);
    return;
  }
  qsort(c, n, sizeof *c, by_track_then_start);
  printf("\n%-44s %7s %10s %10s %7s %10s %10s %10s\n", "device queues", "count", "busy ms",
         "idle ms", "busy %", "gaps > 0", "wait ms", "max wait us");
  for (size_t a = 0, b; a < n; a = b) {
    double busy = 0, idle = 0, wait = 0, max_wait = 0, end = c[a].ts;
    long gaps = 0;
    for (b = a; b < n && c[b].tid == c[a].tid; b++) {
      if (c[b].ts > end) {
        idle += c[b].ts - end;
        gaps++;
      }
      if (c[b].ts + c[b].dur > end)
        end = c[b].ts + c[b].dur;
      busy += c[b].dur;
      wait += c[b].wait;
      max_wait = c[b].wait > max_wait ? c[b].wait : max_wait;
    }
    const char *name = track_name(events, c[a].tid);
    char label[64];
    snprintf(label, sizeof label, "queue %d", c[a].tid);
    double span = end - c[a].ts;
    printf("%-44.44s %7zu %10.3f %10.3f %6.1f%% %10ld %10.3f %10.1f\n", name ? name : label, b - a,
           busy / 1e3, idle / 1e3, span > 0 ? 100.0 * busy / span : 100.0, gaps, wait / 1e3,
           max_wait);
  }
  free(c);
}

static int by_total(const void *a, const void *b) {
  const group *x = a, *y = b;
  return x->total_us < y->total_us ? 1 : x->total_us > y->total_us ? -1 : 0;
}

/* The groups' table: device commands (share of the device time, time queued), then host calls. */
static void print_groups(const group *g, size_t ng, double device) {
  printf("%-40s %7s %10s %10s %10s %10s %8s %7s %10s\n", "device: kernels and copies", "count",
         "total ms", "mean us", "max us", "MB", "GB/s", "dev %", "queued ms");
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1)
      printf("\n%-40s %7s %10s %10s %10s\n", "host: time in ampcl calls (waiting)", "count",
             "total ms", "mean us", "max us");
    for (size_t k = 0; k < ng; k++) {
      if (g[k].host != pass)
        continue;
      long timed = g[k].count - g[k].untimed;
      if (!timed) { /* no device time at all: nothing to total */
        printf("%-40.40s %7ld %10s %10s %10s %10s %8s %7s %10s  (no device time)\n", g[k].key,
               g[k].count, "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a");
        continue;
      }
      printf("%-40.40s %7ld %10.3f %10.1f %10.1f", g[k].key, g[k].count, g[k].total_us / 1e3,
             g[k].total_us / (double)timed, g[k].max_us);
      if (!pass)
        printf(" %10.2f %8.2f %6.1f%% %10.3f", g[k].bytes / 1e6,
               g[k].total_us > 0 && g[k].bytes > 0 ? g[k].bytes / (g[k].total_us * 1e3) : 0.0,
               device > 0 ? 100.0 * g[k].total_us / device : 0.0, g[k].wait_us / 1e3);
      if (g[k].untimed)
        printf("  (%ld without a device time, not in the times)", g[k].untimed);
      printf("\n");
    }
  }
}

static int summary(const jnode *events) {
  size_t cap = 64, ng = 0;
  group *g = calloc(cap, sizeof *g);
  double t0 = 1e300, t1 = -1e300;
  for (size_t i = 0; g && i < events->n; i++) {
    const jnode *e = events->items[i];
    const char *ph = jstr(e, "ph"), *cat = jstr(e, "cat"), *name = jstr(e, "name");
    if (!ph || strcmp(ph, "X") != 0 || !cat || !name)
      continue;
    double ts = jnum(e, "ts", 0), dur = jnum(e, "dur", 0);
    if (ts < t0)
      t0 = ts;
    if (ts + dur > t1)
      t1 = ts + dur;
    int host = strcmp(cat, "host") == 0;
    char key[200];
    if (host || strcmp(cat, "kernel") == 0 || strcmp(cat, "gemm") == 0)
      snprintf(key, sizeof key, "%s %s", host ? "host" : cat, name);
    else
      snprintf(key, sizeof key, "%s", cat); /* copies: by kind */
    size_t k = 0;
    while (k < ng && strcmp(g[k].key, key) != 0)
      k++;
    if (k == ng) {
      if (ng == cap) {
        group *grown = realloc(g, 2 * cap * sizeof *g);
        if (!grown)
          break;
        g = grown;
        cap *= 2;
      }
      memset(&g[ng], 0, sizeof g[ng]);
      snprintf(g[ng].key, sizeof g[ng].key, "%s", key);
      g[ng].host = host;
      ng++;
    }
    g[k].count++;
    const char *device_time = jstr(jget(e, "args"), "device_time");
    if (!host && device_time && strcmp(device_time, "n/a") == 0) {
      g[k].untimed++; /* neither its time nor its bytes go into the rates */
      continue;
    }
    g[k].total_us += dur;
    g[k].max_us = dur > g[k].max_us ? dur : g[k].max_us;
    g[k].bytes += jnum(jget(e, "args"), "bytes", 0);
    g[k].wait_us += jnum(jget(e, "args"), "queued_to_start_us", 0);
  }
  if (!g)
    return 1;
  qsort(g, ng, sizeof *g, by_total);
  double wall = t1 > t0 ? t1 - t0 : 0, device = 0;
  for (size_t k = 0; k < ng; k++)
    device += g[k].host ? 0 : g[k].total_us;
  printf("wall time covered by the trace: %.3f ms; device time (timed commands): %.3f ms\n\n",
         wall / 1e3, device / 1e3);
  print_groups(g, ng, device);
  free(g);
  queues(events);
  return 0;
}

/* Every X event has the fields; on each device track (tid >= 1000: one in-order queue) commands
 * do not overlap. */
static int check(const jnode *events) {
  typedef struct last {
    int tid;
    double end;
  } last;
  last seen[256];
  size_t ns = 0;
  long n = 0;
  for (size_t i = 0; i < events->n; i++) {
    const jnode *e = events->items[i];
    const char *ph = jstr(e, "ph");
    if (!ph) {
      fprintf(stderr, "amp-trace: event %zu has no \"ph\"\n", i);
      return 1;
    }
    if (strcmp(ph, "X") != 0)
      continue;
    n++;
    if (!jstr(e, "name") || !jstr(e, "cat") || !jget(e, "ts") || !jget(e, "dur") ||
        !jget(e, "tid")) {
      fprintf(stderr, "amp-trace: event %zu lacks name, cat, ts, dur or tid\n", i);
      return 1;
    }
    double track = jnum(e, "tid", 0), ts = jnum(e, "ts", 0), dur = jnum(e, "dur", 0);
    if (dur < 0) {
      fprintf(stderr, "amp-trace: event %zu has a negative duration\n", i);
      return 1;
    }
    if (!(track >= 1000 && track <= 1e9)) /* host threads, or no track of ampcl's */
      continue;
    int tid = (int)track;
    size_t k = 0;
    while (k < ns && seen[k].tid != tid)
      k++;
    if (k == ns && ns < 256)
      seen[ns++] = (last){tid, -1e300};
    if (k < ns) {
      if (ts + 0.001 < seen[k].end) {
        fprintf(stderr,
                "amp-trace: event %zu (%s) starts at %.3f us, before the previous command "
                "of its queue ended (%.3f us)\n",
                i, jstr(e, "name"), ts, seen[k].end);
        return 1;
      }
      seen[k].end = ts + dur;
    }
  }
  printf("ok: %ld events, %zu device tracks\n", n, ns);
  return 0;
}

static void usage(FILE *to) {
  fprintf(to,
          "usage: amp-trace summary FILE.json\n"
          "       amp-trace check FILE.json\n"
          "       amp-trace --help\n"
          "\n"
          "Reads a trace that a program wrote with AMP_TRACE=FILE.json (docs/PROFILING.md).\n"
          "\n"
          "summary  where the time went, in three tables:\n"
          "  device: kernels and copies  one row per kernel and per kind of copy: count; total,\n"
          "           mean and longest (max) device time; MB moved and GB/s; dev %%: its share of\n"
          "           the device time, all timed device commands of the trace together (not of\n"
          "           the process's wall time); queued ms: its time between reaching the queue\n"
          "           and starting on the device\n"
          "  device queues  one row per in-order queue: its timed commands, busy ms (their\n"
          "           times), idle ms (the gaps between one's end and the next one's start),\n"
          "           busy %% of its span, the count of gaps, and its commands' waits in the\n"
          "           queue (total ms, longest us)\n"
          "  host      the time the host spent in each ampcl call that waits: count, total,\n"
          "           mean, longest\n"
          "  Commands of a device without usable timestamps count, but their times are n/a.\n"
          "check    the file is valid JSON, every event has its fields, and no two commands of\n"
          "         one queue overlap; exit 1 naming the first problem\n"
          "\n"
          "Exit status: 0 done, 1 a problem with the file, 2 a bad command line.\n");
}

int main(int argc, char **argv) {
  if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    usage(stdout);
    return 0;
  }
  if (argc != 3 || (strcmp(argv[1], "summary") != 0 && strcmp(argv[1], "check") != 0)) {
    usage(stderr);
    return 2;
  }
  jnode *root = load(argv[2]);
  if (!root)
    return 1;
  const jnode *events = jget(root, "traceEvents");
  int rc = 1;
  if (!events || events->type != J_ARR)
    fprintf(stderr, "amp-trace: %s has no traceEvents array\n", argv[2]);
  else
    rc = strcmp(argv[1], "summary") == 0 ? summary(events) : check(events);
  const jnode *meta = jget(root, "metadata");
  if (rc == 0 && meta && jnum(meta, "dropped", 0) > 0)
    printf("\nnote: %.0f events were dropped (AMP_TRACE_MAX reached)\n", jnum(meta, "dropped", 0));
  for (size_t i = 0;
       rc == 0 && strcmp(argv[1], "summary") == 0 && meta && meta->type == J_OBJ && i < meta->n;
       i++) { /* accelerators whose timestamps measure nothing: why their times read n/a */
    const char *device_time = jstr(meta->items[i], "device_time");
    if (device_time && strcmp(device_time, "n/a") == 0)
      printf("\nn/a: %s has no device times: %s\n", meta->keys[i],
             jstr(meta->items[i], "why") ? jstr(meta->items[i], "why") : "(no reason given)");
  }
  jfree(root);
  return rc;
}
