// Custom gradients (__enzyme_register_gradient_*): the augmented function's
// tape (a value, or a malloc'd pointer) travels on the enzyme-rs tape to the
// reverse function, also when called in a loop; a library function with no
// body (j0) and one with a body (counters show the custom functions run).
// LEVELS: O0 O1 O2 O3
#include "check.h"

double j0(double);
double j1(double);

/* aug: {tape, primal}; rev: (x, d_result, tape) -> dx */
typedef struct { double tape, primal; } tp;
static tp j0_aug(double x) { tp r = {x, j0(x)}; return r; }
static double j0_rev(double x, double dret, double tape) { return -j1(tape) * dret; }
void *__enzyme_register_gradient_j0[] = {(void *)j0, (void *)j0_aug, (void *)j0_rev};

/* out[0] = sum x[i]^2 over n, body known; the custom gradient keeps a copy
 * of x on the heap as its tape. */
static int augs = 0, revs = 0;
void ssq(const double *x, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  out[0] = s;
}
static void *ssq_aug(const double *x, double *dx, double *out, double *dout, int n) {
  augs++;
  double *copy = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) copy[i] = x[i];
  ssq(x, out, n);
  return copy;
}
static void ssq_rev(const double *x, double *dx, double *out, double *dout, int n, void *tape) {
  revs++;
  double *copy = tape;
  for (int i = 0; i < n; i++) dx[i] += 2 * copy[i] * dout[0];
  dout[0] = 0;
  free(copy);
}
void *__enzyme_register_gradient_ssq[] = {(void *)ssq, (void *)ssq_aug, (void *)ssq_rev};

double g(double *x, double y) {
  double acc = 0, o;
  for (int k = 0; k < 3; k++) {
    x[0] = x[0] * 0.5 + y;
    ssq(x, &o, 3);
    acc += o * j0(y * (k + 1));
  }
  return acc;
}

int main(void) {
  double x[3] = {0.3, -0.7, 1.1}, dx[3] = {0}, y = 0.6;
  double x0[3];
  for (int i = 0; i < 3; i++) x0[i] = x[i];
#define G (({for (int i_ = 0; i_ < 3; i_++) x[i_] = x0[i_];}), g(x, y))
  double dy = __enzyme_autodiff((void *)g, x, dx, enzyme_out, y);
  CHECK("custom aug ran", augs, 3, 0);
  CHECK("custom rev ran", revs, 3, 0);
  for (int i = 0; i < 3; i++) x[i] = x0[i];
  CHECK("dg/dy", dy, FD(y, G, 1e-6), 1e-6);
  for (int j = 0; j < 3; j++) {
    double fd = FD(x0[j], G, 1e-6);
    CHECK("dg/dx", dx[j], fd, 1e-6);
  }
  double dj = __enzyme_autodiff((void *)j0, y);
  CHECK("dj0 top-level", dj, FD(y, j0(y), 1e-6), 1e-6);
  CHECK_DONE();
}
