// Custom forward derivatives (__enzyme_register_derivative_*): for a library
// function with no body here (Bessel j0) and for a function with a body
// (the custom derivative is used instead of the body: a counter shows it);
// scalar mode, vector mode (one call per lane), inside a loop.
// LEVELS: O0 O1 O2 O3
#include "check.h"

double j0(double);
double j1(double);

/* df: each float parameter followed by its tangent; returns the tangent. */
static double j0_fwd(double x, double dx) { return -j1(x) * dx; }
void *__enzyme_register_derivative_j0[] = {(void *)j0, (void *)j0_fwd};

static int calls_mysq = 0;
double mysq(double x, double *scale) { return x * x * *scale; }
/* {primal, tangent} form; a pointer parameter is followed by its shadow. */
typedef struct { double p, t; } pt;
static pt mysq_fwd(double x, double dx, double *scale, double *dscale) {
  calls_mysq++;
  pt r = {x * x * *scale, 2 * x * dx * *scale + x * x * *dscale};
  return r;
}
void *__enzyme_register_derivative_mysq[] = {(void *)mysq, (void *)mysq_fwd};

double f(double x, double *s) {
  double acc = 0;
  for (int i = 1; i <= 3; i++) acc += j0(x * i) + mysq(x + i, s);
  return acc;
}

typedef struct { double a, b; } d2;
extern d2 __enzyme_fwddiff_v(void *, ...);

int main(void) {
  double x = 0.8, s = 1.7, ds = 0, ds1 = 1;
  double d = __enzyme_fwddiff((void *)f, x, 1.0, &s, &ds);
  CHECK("df/dx", d, FD(x, f(x, &s), 1e-6), 1e-6);
  CHECK("custom mysq used", calls_mysq, 3, 0);
  d2 v = __enzyme_fwddiff_v((void *)f, enzyme_width, 2, x, 1.0, 0.0, enzyme_dup, &s, &ds, &ds1);
  CHECK("lane0 df/dx", v.a, FD(x, f(x, &s), 1e-6), 1e-6);
  CHECK("lane1 df/ds", v.b, FD(s, f(x, &s), 1e-6), 1e-6);
  CHECK("custom mysq per lane", calls_mysq, 3 + 6, 0);
  /* directly on the registered function */
  double dj = __enzyme_fwddiff((void *)j0, x, 1.0);
  CHECK("dj0", dj, FD(x, j0(x), 1e-6), 1e-6);
  CHECK_DONE();
}
