// FLAGS: -fopenmp
// THREADS: 1 2 4
// Nested parallelism: a parallel loop whose body runs another parallel
// region (directly, and through a call to a function holding one), with
// nested parallelism enabled (inner teams of 2) and disabled (inner teams
// of one), and inner regions of several teams reading one array at the
// same time. Reverse mode, checked against the analytic gradient.
#include <omp.h>
#include "check.h"
#define R 6
#define C 40

__attribute__((noinline)) static void row(const double *x, double *y, double w) {
#pragma omp parallel for num_threads(2)
  for (int j = 0; j < C; j++) y[j] = w * x[j] * x[j] + sin(x[j]);
}

double direct(const double *x, double *y, double w) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < R; i++) {
    double t = 0;
#pragma omp parallel for reduction(+ : t) num_threads(2)
    for (int j = 0; j < C; j++) t += w * x[i * C + j] * x[i * C + j];
    s += t * (i + 1);
  }
  return s;
}

double through_call(const double *x, double *y, double w) {
#pragma omp parallel for
  for (int i = 0; i < R; i++) row(&x[i * C], &y[i * C], w * (i + 1));
  double s = 0;
  for (int k = 0; k < R * C; k++) s += y[k];
  return s;
}

/* Every inner region reads the same x: the teams' adjoints meet in dx. */
double shared_row(const double *x, double *y, double w) {
#pragma omp parallel for
  for (int i = 0; i < R; i++) row(x, &y[i * C], w * (i + 1));
  double s = 0;
  for (int k = 0; k < R * C; k++) s += y[k];
  return s;
}

static void run(int nested) {
  omp_set_max_active_levels(nested ? 2 : 1);
  double x[R * C], dx[R * C], y[R * C], dy[R * C], w = 0.7;
  for (int k = 0; k < R * C; k++) x[k] = 0.01 * k - 1.1;
  for (int k = 0; k < R * C; k++) dx[k] = dy[k] = 0;
  double dw = __enzyme_autodiff((void *)direct, enzyme_dup, x, dx, enzyme_dup, y, dy, w);
  double want_w = 0;
  for (int k = 0; k < R * C; k++) {
    int i = k / C;
    want_w += (i + 1) * x[k] * x[k];
    CHECK("direct dx", dx[k], (i + 1) * 2 * w * x[k], 1e-12);
  }
  CHECK("direct dw", dw, want_w, 1e-12);
  for (int k = 0; k < R * C; k++) dx[k] = dy[k] = 0;
  dw = __enzyme_autodiff((void *)through_call, enzyme_dup, x, dx, enzyme_dup, y, dy, w);
  want_w = 0;
  for (int k = 0; k < R * C; k++) {
    int i = k / C;
    want_w += (i + 1) * x[k] * x[k];
    CHECK("call dx", dx[k], 2 * w * (i + 1) * x[k] + cos(x[k]), 1e-12);
  }
  CHECK("call dw", dw, want_w, 1e-12);
  for (int rep = 0; rep < 50; rep++) {
    for (int k = 0; k < R * C; k++) dx[k] = dy[k] = 0;
    dw = __enzyme_autodiff((void *)shared_row, enzyme_dup, x, dx, enzyme_dup, y, dy, w);
    int bad = 0;
    for (int j = 0; j < C; j++) {
      double want = 0;
      for (int i = 0; i < R; i++) want += 2 * w * (i + 1) * x[j] + cos(x[j]);
      if (rep == 0 || !close_enough(dx[j], want, 1e-12)) {
        CHECK("shared dx", dx[j], want, 1e-12);
        bad += !close_enough(dx[j], want, 1e-12);
      }
    }
    if (bad) break;
  }
}

int main(void) {
  run(0);
  run(1);
  CHECK_DONE();
}
