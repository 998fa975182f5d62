/* The cost of self-check mode: a gradient over N doubles called CALLS
 * times; the first two calls of the site are checked (4 primal runs, one
 * reverse and one forward derivative, buffer copies), the rest run as
 * without the check. bench/selfcheck/cost.sh times it with and without. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <enzyme/enzyme.h>

static double f(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += sin(x[i]) * x[(i + 1) % n];
  return s;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  int calls = argc > 2 ? atoi(argv[2]) : 100;
  double *x = malloc(n * sizeof(double)), *dx = malloc(n * sizeof(double));
  for (long i = 0; i < n; i++) x[i] = 0.001 * i, dx[i] = 0;
  double t0 = now(), first = 0;
  for (int c = 0; c < calls; c++) {
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
    if (c == 1) first = now() - t0;
  }
  double t = now() - t0;
  printf("n=%ld calls=%d: first two calls %.4f s, all %.4f s (dx[0]=%g)\n", n, calls, first, t, dx[0]);
  return 0;
}
