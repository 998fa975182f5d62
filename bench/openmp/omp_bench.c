/* OpenMP benchmark kernels for enzyme-rs (issue 12): a map/reduce and a
 * stencil, primal and reverse-mode gradient, timed at the thread count the
 * OpenMP runtime is given (OMP_NUM_THREADS). Written for this suite.
 *
 *   omp_bench KERNEL N      prints: KERNEL n threads primal_s gradient_s ratio
 *
 * Each timing repeats until it has run >= 0.2 s; median of 5 such repeats,
 * wall clock and process CPU time (the CPU-time ratio is the steadier one
 * on a loaded machine).
 * The gradient is checked against central differences first.
 * Each timed gradient call zeroes dx first, with a parallel loop on the
 * same team (a serial memset of the 80 MB would be a serial part of the
 * 2-thread gradient that is not the derivative's work). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

/* map/reduce: f(x) = sum_i a sin(x_i) x_i + exp(-x_i^2) */
double mapreduce(const double *x, double a, long n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (long i = 0; i < n; i++) s += a * sin(x[i]) * x[i] + exp(-x[i] * x[i]);
  return s;
}

/* stencil: y_i = x_{i-1} - 2 x_i + x_{i+1} + c x_i^3 (one sweep), then
 * f = sum y_i^2 (a second worksharing loop in the same region). */
double stencil(const double *restrict x, double *restrict y, double c, long n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (long i = 1; i < n - 1; i++) y[i] = x[i - 1] - 2 * x[i] + x[i + 1] + c * x[i] * x[i] * x[i];
#pragma omp for reduction(+ : s)
    for (long i = 1; i < n - 1; i++) s += y[i] * y[i];
  }
  return s;
}

static void zero(double *d, long n) {
#pragma omp parallel for
  for (long i = 0; i < n; i++) d[i] = 0;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define TIME(out, cpu, stmt)                                 \
  do {                                                       \
    double reps_[5], cpus_[5];                               \
    for (int r_ = 0; r_ < 5; r_++) {                         \
      long k_ = 0;                                           \
      double t0_ = now_s(), c0_ = cpu_s(), t_;               \
      do {                                                   \
        stmt;                                                \
        k_++;                                                \
        t_ = now_s() - t0_;                                  \
      } while (t_ < 0.2);                                    \
      reps_[r_] = t_ / k_;                                   \
      cpus_[r_] = (cpu_s() - c0_) / k_;                      \
    }                                                        \
    qsort(reps_, 5, sizeof(double), cmp);                    \
    qsort(cpus_, 5, sizeof(double), cmp);                    \
    out = reps_[2];                                          \
    cpu = cpus_[2];                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s mapreduce|stencil N\n", argv[0]);
    return 2;
  }
  const char *k = argv[1];
  long n = atol(argv[2]);
  double *x = malloc(sizeof(double) * n), *dx = malloc(sizeof(double) * n);
  double *y = calloc(n, sizeof(double)), *dy = calloc(n, sizeof(double));
  for (long i = 0; i < n; i++) x[i] = sin(0.001 * i) * 0.9;
  double a = 1.3, c = 0.05, tp, tg, cp, cg, sink = 0;
  int mr = strcmp(k, "mapreduce") == 0;
  /* check one derivative against central differences */
  memset(dx, 0, sizeof(double) * n);
  double da = 0;
  if (mr) {
    da = __enzyme_autodiff((void *)mapreduce, enzyme_dup, x, dx, a, enzyme_const, n);
  } else {
    __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, c,
                      enzyme_const, n);
  }
  long j = n / 3;
  double h = 1e-5, xj = x[j];
  x[j] = xj + h;
  double fp = mr ? mapreduce(x, a, n) : stencil(x, y, c, n);
  x[j] = xj - h;
  double fm = mr ? mapreduce(x, a, n) : stencil(x, y, c, n);
  x[j] = xj;
  double fd = (fp - fm) / (2 * h);
  if (fabs(fd - dx[j]) > 1e-4 * fmax(1.0, fabs(fd))) {
    fprintf(stderr, "gradient check failed: %g vs %g\n", dx[j], fd);
    return 1;
  }
  if (mr) {
    TIME(tp, cp, sink += mapreduce(x, a, n));
    TIME(tg, cg, (zero(dx, n),
              sink += __enzyme_autodiff((void *)mapreduce, enzyme_dup, x, dx, a, enzyme_const, n)));
  } else {
    TIME(tp, cp, sink += stencil(x, y, c, n));
    TIME(tg, cg, (zero(dx, n),
              __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy,
                                enzyme_const, c, enzyme_const, n)));
  }
  printf("%s n=%ld threads=%d primal_s=%.6f gradient_s=%.6f ratio=%.2f primal_cpu_s=%.6f "
         "gradient_cpu_s=%.6f cpu_ratio=%.2f%s\n",
         k, n, omp_get_max_threads(), tp, tg, tg / tp, cp, cg, cg / cp,
         sink == 12345.678 ? " " : "");
  return 0;
}
