// FLAGS: -fopenmp
// THREADS: 2 4
// Kept heap shadows (modes/reverse/keep.rs) shared by threads: every
// thread of a parallel region differentiates the same function (one
// allocation site, one slot) many times at once, with sizes that differ
// per thread and per call, each on its own data. A block two threads
// held at once, or one lost or reused unzeroed, gives a wrong gradient:
// each is checked against the analytic value at every element.
#include "../check.h"
#include <omp.h>
#include <string.h>

// As keepshadow/scratch.c's `stale`: a calloc'd buffer read while zero
// (its shadow is left nonzero), then written and read: r = sum_k x_k^4.
double stale(const double *x, int n) {
  double *s = calloc(n, sizeof(double));
  double r = 0;
  for (int k = 0; k < n; k++) r += s[k] * x[k];
  for (int k = 0; k < n; k++) s[k] = x[k] * x[k];
  for (int k = 0; k < n; k++) r += s[k] * s[k];
  free(s);
  return r;
}

#define NMAX 6000
#define CALLS 40

int main(void) {
  int wrong = 0, calls = 0;
#pragma omp parallel reduction(+ : wrong, calls)
  {
    int t = omp_get_thread_num();
    double *x = malloc(sizeof(double) * NMAX), *dx = malloc(sizeof(double) * NMAX);
    for (int c = 0; c < CALLS; c++) {
      int n = 520 + (int)((t * 977u + c * 1237u) % (NMAX - 520));
      for (int k = 0; k < n; k++) x[k] = 0.5 + 0.25 * sin(0.37 * k + c + 3 * t);
      memset(dx, 0, sizeof(double) * n);
      __enzyme_autodiff((void *)stale, enzyme_dup, x, dx, enzyme_const, n);
      for (int k = 0; k < n; k++) wrong += !close_enough(dx[k], 4 * x[k] * x[k] * x[k], 1e-12);
      calls++;
    }
    free(x);
    free(dx);
  }
  CHECK("gradients taken", calls, CALLS * omp_get_max_threads(), 0);
  CHECK("elements wrong", wrong, 0, 0);
  double x[600], dx[600] = {0};
  for (int k = 0; k < 600; k++) x[k] = 0.3 + 0.001 * k;
  __enzyme_autodiff((void *)stale, enzyme_dup, x, dx, enzyme_const, 600);
  CHECK("fd[0]", dx[0], FD(x[0], stale(x, 600), 1e-6), 1e-6);
  CHECK("fd[599]", dx[599], FD(x[599], stale(x, 600), 1e-6), 1e-6);
  CHECK_DONE();
}
