// FLAGS: -fopenmp
// THREADS: 1 2 4
// Dynamic, guided and chunked static schedules: each thread's reverse
// replays the iterations it ran (recorded on its tape).
#include "check.h"
#define N 203

double f_dyn(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for schedule(dynamic, 3) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    y[i] = exp(0.3 * x[i]) * x[i];
    s += y[i] * x[i];
  }
  return s;
}

double f_guided(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for schedule(guided) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    y[i] = exp(0.3 * x[i]) * x[i];
    s += y[i] * x[i];
  }
  return s;
}

double f_chunk(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for schedule(static, 4) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    y[i] = exp(0.3 * x[i]) * x[i];
    s += y[i] * x[i];
  }
  return s;
}

#define RUN(name, f)                                                                  \
  do {                                                                                \
    double x[N], dx[N] = {0}, y[N], dy[N];                                            \
    for (int i = 0; i < N; i++) x[i] = 0.01 * i - 0.7, dy[i] = 0.5;                   \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N); \
    for (int i = 0; i < N; i++) {                                                     \
      double e = exp(0.3 * x[i]);                                                     \
      double dyi = e * (0.3 * x[i] + 1); /* d y / d x */                              \
      /* s = sum y x: ds/dx = dyi x + y, plus the seed 0.5 through y */               \
      CHECK(name, dx[i], dyi * x[i] + e * x[i] + 0.5 * dyi, 1e-12);                   \
    }                                                                                 \
  } while (0)

int main(void) {
  RUN("dynamic", f_dyn);
  RUN("guided", f_guided);
  RUN("static,4", f_chunk);
  CHECK_DONE();
}
