/* bench/common/bench.h -- timing, random numbers, peak memory, comparison.
 * Shared by the C drivers (compiled with the enzyme-rs plugin) and the
 * ADOL-C drivers (C++). Written for this suite. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

/* REAL is the scalar type of the objective functions: double for the primal
 * and enzyme-rs, adouble for ADOL-C. Temporaries go through NEW_REAL. */
#ifndef REAL
#define REAL double
#endif
#ifdef __cplusplus
#define NEW_REAL(n) (new REAL[(size_t)(n)])
#define DEL_REAL(p) (delete[] (p))
#else
#define NEW_REAL(n) ((REAL *)malloc(sizeof(REAL) * (size_t)(n)))
#define DEL_REAL(p) free(p)
#endif

/* Helper functions that an objective calls: static, as users write them
 * (LLVM gives them its fast internal calling convention; enzyme-rs handles
 * that). -DBENCH_EXTERN_HELPERS=1 gives them external linkage instead. */
#if defined(BENCH_EXTERN_HELPERS) && BENCH_EXTERN_HELPERS
#define HELPER
#else
#define HELPER static
#endif

static inline double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Peak resident set of this process in kB: VmHWM (per address space, so a
 * parent's peak does not leak in across exec as ru_maxrss does). */
static inline long maxrss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (f) {
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
      if (!strncmp(line, "VmHWM:", 6)) { kb = atol(line + 6); break; }
    fclose(f);
    if (kb >= 0) return kb;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

/* xorshift64* -- fixed-seed data generation, identical in C and C++. */
static unsigned long long bench_rng_state = 0x9E3779B97F4A7C15ULL;
static inline void rng_seed(unsigned long long s) { bench_rng_state = s * 0x9E3779B97F4A7C15ULL + 1; }
static inline double rng_u01(void) {
  unsigned long long x = bench_rng_state;
  x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
  bench_rng_state = x;
  return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}
static inline double rng_unif(double a, double b) { return a + (b - a) * rng_u01(); }
static inline double rng_normal(void) {
  double u = rng_u01() + 1e-300, v = rng_u01();
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* Minimum time of one timed batch (seconds; BENCH_MIN_TIME). Batches of
 * 0.5 s keep gradients that stream large arrays from memory stable. */
static double bench_min_time(void) {
  const char *e = getenv("BENCH_MIN_TIME");
  return e ? atof(e) : 0.5;
}
static int bench_repeats(void) {
  const char *e = getenv("BENCH_REPEATS");
  return e ? atoi(e) : 5;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Spread of the last time_median: (slowest - fastest batch) / median. */
static double bench_last_spread;

/* Time fn(arg): two untimed warm-up calls (the first faults pages in and
 * grows caches and tapes), a batch size calibrated on a warm call and
 * doubled until one batch runs >= BENCH_MIN_TIME, then the median over
 * BENCH_REPEATS batches of the time per call (spread in bench_last_spread). */
typedef void (*bench_fn)(void *);
#define BARRIER() __asm__ volatile("" ::: "memory")
static double time_batch(bench_fn fn, void *arg, long iters) {
  double s = now_s();
  for (long i = 0; i < iters; i++) { fn(arg); BARRIER(); }
  return now_s() - s;
}
__attribute__((noinline)) static double time_median(bench_fn fn, void *arg) {
  double mt = bench_min_time();
  int reps = bench_repeats();
  fn(arg);
  BARRIER();
  double warm = time_batch(fn, arg, 1);
  long iters = warm >= mt ? 1 : (long)ceil(mt / (warm > 1e-9 ? warm : 1e-9));
  if (iters > 100000000L) iters = 100000000L;
  while (iters < 100000000L && time_batch(fn, arg, iters) < mt) iters *= 2;
  double samples[64];
  if (reps > 64) reps = 64;
  if (reps < 1) reps = 1;
  for (int r = 0; r < reps; r++) samples[r] = time_batch(fn, arg, iters) / iters;
  qsort(samples, reps, sizeof(double), cmp_dbl);
  double med = samples[reps / 2];
  bench_last_spread = med > 0 ? (samples[reps - 1] - samples[0]) / med : 0;
  return med;
}

/* Relative disagreement of a against reference b over the listed entries
 * (idx == NULL: all n): max |a-b| / max(|b|_inf, tiny). */
static double rel_err(const double *a, const double *b, const int *idx, int n) {
  double num = 0, den = 0;
  for (int t = 0; t < n; t++) {
    int i = idx ? idx[t] : t;
    double d = fabs(a[i] - b[i]);
    if (!(d <= num)) num = d; /* NaN propagates */
    if (fabs(b[i]) > den) den = fabs(b[i]);
  }
  return num / (den > 1e-300 ? den : 1e-300);
}

static volatile double bench_sink;

#endif
