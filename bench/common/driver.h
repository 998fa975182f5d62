/* bench/common/driver.h -- main() of a benchmark program.
 *   prog check SIZE...        compute every derivative this build offers and
 *                             compare them; exit 1 on disagreement
 *   prog time TOOL SIZE...    time one tool; prints one RESULT json line
 * C build (plugin): tools primal hand enzyme_fwd [enzyme_vfwd] [enzyme_rev] [enzyme_rev_acc] fd
 * ADOL-C build:     tools adolc_tape adolc_eval adolc_both
 * Hooks come from the problem header (see common/scalar.h). */
#ifndef BENCH_DRIVER_H
#define BENCH_DRIVER_H

#ifndef PROB_FD_TOL
#define PROB_FD_TOL 1e-5
#endif
#ifndef PROB_AD_TOL
#define PROB_AD_TOL 1e-8
#endif
#define FULL_UNITS_MAX 64

static ctx_t the_ctx;

static void print_result(const char *tool, double t, int extrap, long units, long timed, double tape_bytes) {
  printf("RESULT {\"problem\": \"%s\", \"size\": \"%s\", \"tool\": \"%s\", \"time\": %.6e, "
         "\"extrapolated\": %s, \"units\": %ld, \"timed_units\": %ld, \"maxrss_kb\": %ld, "
         "\"tape_bytes\": %.0f, \"nin\": %d, \"spread\": %.3f}\n",
         PROBLEM_NAME, prob_size_str(&the_ctx), tool, t, extrap ? "true" : "false", units, timed,
         maxrss_kb(), tape_bytes, prob_nin(&the_ctx), bench_last_spread);
  fflush(stdout);
}

static int check_report(const char *tool, double err, double tol, const char *what) {
  int ok = err <= tol;
  printf("CHECK %-6s %-22s %-12s vs hand: rel.err %.2e (tol %.1e) %s%s\n", PROBLEM_NAME,
         prob_size_str(&the_ctx), tool, err, tol, ok ? "ok" : "MISMATCH", what);
  fflush(stdout);
  return ok;
}

/* Units to compare in check mode: all, or 16 spread deterministically. */
static int *check_units(int units, int *count) {
  int k = units <= FULL_UNITS_MAX ? units : 16;
  int *idx = (int *)malloc(sizeof(int) * k);
  for (int t = 0; t < k; t++)
    idx[t] = units <= FULL_UNITS_MAX ? t : (int)(((long long)t * 7919 + 13) % units);
  if (units > FULL_UNITS_MAX) { idx[0] = 0; idx[k - 1] = units - 1; }
  *count = k;
  return idx;
}

#ifndef ADOLC_BUILD
/* ---------------------------------------------------------------- C build */
typedef struct { const ctx_t *c; double *out; int j0, j1, units, k; int which; } job_t;
static void job_primal(void *a) { run_primal(((job_t *)a)->c); }
static void job_hand(void *a) { job_t *j = (job_t *)a; run_hand(j->c, j->out); }
#if HAVE_REVERSE
static void job_rev(void *a) { job_t *j = (job_t *)a; run_rev(j->c, j->out); }
#ifdef HAVE_REV_ACC
static void job_rev_acc(void *a) { job_t *j = (job_t *)a; run_rev_acc(j->c, j->out); }
#endif
#include <malloc.h>
/* Bytes of the tape buffer enzyme-rs keeps (in its per-thread cache) after
 * the first gradient: the heap in use after one call minus before it. The
 * buffer grows by doubling, so this is the tape's capacity (at most 2x the
 * deepest tape, at least 4 KiB when anything is taped). */
static double rev_tape_bytes(job_t *j) {
  struct mallinfo2 a = mallinfo2();
  job_rev(j);
  struct mallinfo2 b = mallinfo2();
  double d = ((double)b.uordblks + (double)b.hblkhd) - ((double)a.uordblks + (double)a.hblkhd);
  return d > 0 ? d : 0;
}
#endif
/* Sweeping tools (forward, vector forward, FD): k units starting at a
 * rotating offset; the whole range when k == units. */
static void job_sweep(void *a) {
  job_t *j = (job_t *)a;
  int j0 = j->j0, j1 = j0 + j->k;
  if (j1 > j->units) { j0 = 0; j1 = j->k; }
  j->j0 = j1 % j->units;
  if (j->which == 0) run_fwd(j->c, j->out, j0, j1);
#if HAVE_VECTOR_FWD
  else if (j->which == 1) run_vfwd(j->c, j->out, j0, j1);
#endif
  else run_fd(j->c, j->out, j0, j1);
}

static const char *enzyme_modes(void) {
  return HAVE_REVERSE ? (HAVE_VECTOR_FWD ? "reverse+vector-forward+forward" : "reverse+forward")
                      : (HAVE_VECTOR_FWD ? "vector-forward+forward" : "forward");
}

static int do_check(void) {
  const ctx_t *c = &the_ctx;
  int nout = prob_nout(c), units = prob_units(c), ok = 1, cnt;
  double *ref = (double *)calloc(nout, sizeof(double));
  double *g = (double *)calloc(nout, sizeof(double));
  run_hand(c, ref);
  int *idx = check_units(units, &cnt);
  int full = units <= FULL_UNITS_MAX;
  /* per-unit comparison is only meaningful when a unit is one output entry */
  const int *cmp = full ? NULL : idx;
  int ncmp = full ? nout : cnt;
  printf("CHECK %-6s %-22s enzyme-rs modes built: %s\n", PROBLEM_NAME, prob_size_str(c), enzyme_modes());

  memset(g, 0, sizeof(double) * nout);
  for (int t = 0; t < cnt; t++) run_fwd(c, g, idx[t], idx[t] + 1);
  ok &= check_report("enzyme_fwd", rel_err(g, ref, cmp, ncmp), PROB_AD_TOL, full ? "" : " (sampled)");
#if HAVE_VECTOR_FWD
  memset(g, 0, sizeof(double) * nout);
  if (full) run_vfwd(c, g, 0, units);
  else for (int t = 0; t < cnt; t++) run_vfwd(c, g, idx[t], idx[t] + 1);
  ok &= check_report("enzyme_vfwd", rel_err(g, ref, cmp, ncmp), PROB_AD_TOL, full ? "" : " (sampled)");
#endif
#if HAVE_REVERSE
  memset(g, 0, sizeof(double) * nout);
  run_rev(c, g);
  ok &= check_report("enzyme_rev", rel_err(g, ref, NULL, nout), PROB_AD_TOL, "");
#endif
  /* FD tolerance: the problem's truncation tolerance plus 100x the
   * estimated rounding noise eps |f| / h. */
  double gmax = 0;
  for (int i = 0; i < nout; i++) if (fabs(ref[i]) > gmax) gmax = fabs(ref[i]);
  double fd_tol = PROB_FD_TOL + 100 * prob_fd_noise(c, gmax);
  memset(g, 0, sizeof(double) * nout);
  for (int t = 0; t < cnt; t++) run_fd(c, g, idx[t], idx[t] + 1);
  ok &= check_report("fd", rel_err(g, ref, cmp, ncmp), fd_tol, full ? "" : " (sampled)");
  free(ref); free(g); free(idx);
  return ok ? 0 : 1;
}

static int do_time(const char *tool) {
  const ctx_t *c = &the_ctx;
  int nout = prob_nout(c), units = prob_units(c);
  job_t j = { c, (double *)calloc(nout, sizeof(double)), 0, units, units, units, 0 };
  if (!strcmp(tool, "primal")) { print_result(tool, time_median(job_primal, &j), 0, 1, 1, 0); return 0; }
  if (!strcmp(tool, "hand")) { print_result(tool, time_median(job_hand, &j), 0, 1, 1, 0); return 0; }
#if HAVE_REVERSE
  if (!strcmp(tool, "enzyme_rev")) {
    double tb = rev_tape_bytes(&j);
    print_result(tool, time_median(job_rev, &j), 0, 1, 1, tb);
    return 0;
  }
#ifdef HAVE_REV_ACC
  if (!strcmp(tool, "enzyme_rev_acc")) {
    job_rev(&j);
    print_result(tool, time_median(job_rev_acc, &j), 0, 1, 1, 0);
    return 0;
  }
#endif
#endif
  int which = !strcmp(tool, "enzyme_fwd") ? 0 : !strcmp(tool, "enzyme_vfwd") ? 1 : !strcmp(tool, "fd") ? 2 : -1;
#if !HAVE_VECTOR_FWD
  if (which == 1) which = -1;
#endif
  if (which < 0) { fprintf(stderr, "unknown or unavailable tool %s\n", tool); return 2; }
  j.which = which;
  /* Estimate one unit's cost; sweep everything when that stays cheap,
   * otherwise time a block of units and scale to the whole (extrapolated). */
  j.k = units < 8 ? units : 8;
  double t0 = now_s();
  job_sweep(&j);
  double per_unit = (now_s() - t0) / j.k;
  int k = units;
  if (per_unit * units > 0.3) {
    k = (int)(0.05 / (per_unit > 1e-12 ? per_unit : 1e-12));
    if (k < 1) k = 1;
    if (which == 1) k = (k + 7) / 8 * 8;
    if (k > units) k = units;
  }
  j.k = k; j.j0 = 0;
  double t = time_median(job_sweep, &j);
  print_result(tool, t * units / k, k < units, units, k, 0);
  return 0;
}
#else
/* ----------------------------------------------------------- ADOL-C build */
static double adolc_tape_bytes(void) {
  size_t st[STAT_SIZE];
  tapestats(1, st);
  return (double)st[NUM_OPERATIONS] * sizeof(unsigned char) + (double)st[NUM_LOCATIONS] * sizeof(locint) +
         (double)st[NUM_VALUES] * sizeof(double);
}
typedef struct { const ctx_t *c; double *out; } job_t;
static void job_tape(void *a) { adolc_tape(((job_t *)a)->c); }
static void job_eval(void *a) { job_t *j = (job_t *)a; adolc_eval(j->c, j->out); }
static void job_both(void *a) { job_t *j = (job_t *)a; adolc_tape(j->c); adolc_eval(j->c, j->out); }

static int do_check(void) {
  const ctx_t *c = &the_ctx;
  int nout = prob_nout(c);
  double *ref = (double *)calloc(nout, sizeof(double));
  double *g = (double *)calloc(nout, sizeof(double));
  hand_for_adolc(c, ref);
  adolc_tape(c);
  adolc_eval(c, g);
  int ok = check_report("adolc", rel_err(g, ref, NULL, nout), PROB_AD_TOL, "");
  free(ref); free(g);
  return ok ? 0 : 1;
}
static int do_time(const char *tool) {
  const ctx_t *c = &the_ctx;
  job_t j = { c, (double *)calloc(prob_nout(c), sizeof(double)) };
  if (!strcmp(tool, "adolc_tape")) { double t = time_median(job_tape, &j); print_result(tool, t, 0, 1, 1, adolc_tape_bytes()); return 0; }
  if (!strcmp(tool, "adolc_eval")) { adolc_tape(c); double t = time_median(job_eval, &j); print_result(tool, t, 0, 1, 1, adolc_tape_bytes()); return 0; }
  if (!strcmp(tool, "adolc_both")) { double t = time_median(job_both, &j); print_result(tool, t, 0, 1, 1, adolc_tape_bytes()); return 0; }
  fprintf(stderr, "unknown tool %s\n", tool);
  return 2;
}
#endif

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s check SIZE... | time TOOL SIZE...\n", argv[0]); return 2; }
  if (!strcmp(argv[1], "check")) { prob_setup(&the_ctx, argc - 2, argv + 2); return do_check(); }
  if (!strcmp(argv[1], "time") && argc >= 3) { prob_setup(&the_ctx, argc - 3, argv + 3); return do_time(argv[2]); }
  fprintf(stderr, "usage: %s check SIZE... | time TOOL SIZE...\n", argv[0]);
  return 2;
}
#endif
