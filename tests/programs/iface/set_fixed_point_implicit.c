// __enzyme_set_fixed_point on three iterations, each checked against its
// implicit derivative (analytic) and central finite differences:
// - Babylonian sqrt x <- (x + a/x)/2, started from x = a: d sqrt(a)/da =
//   1/(2 sqrt a) (the start's dependence on a drops out);
// - a linear contraction x <- A x + b (3x3): dL/db = (I - A)^-T w and
//   dL/dA_ij = (dL/db)_i x*_j for L = w.x*;
// - a scalar contraction x <- a x + b whose adjoint iteration is capped by
//   max_iters: not hit (1000) it gives the implicit derivative, 1/(1-a) for
//   b; hit (3 iterations) the truncated series 1 + a + a^2.
#include "check.h"
#include <enzyme/fixed_point.h>
#define N 3
static double babylonian(double a) {
  double x = a, err = 1;
  while (err > 1e-15 * x) {
    __enzyme_set_fixed_point(-1.0, -1, 0, &x, sizeof(x));
    double nx = 0.5 * (x + a / x);
    err = fabs(nx - x);
    x = nx;
  }
  return x;
}
static const double w[N] = {1.0, -2.0, 0.5};
// A is row-major, b the offset; the loop runs until x stops changing.
static double linear(const double *A, const double *b) {
  double x[N] = {0, 0, 0}, err = 1;
  while (err > 1e-15) {
    __enzyme_set_fixed_point(1e-30, 0, 0, x, sizeof(x));
    double nx[N];
    err = 0;
    for (int i = 0; i < N; i++) {
      nx[i] = b[i];
      for (int j = 0; j < N; j++) nx[i] += A[i * N + j] * x[j];
    }
    for (int i = 0; i < N; i++) {
      err = fmax(err, fabs(nx[i] - x[i]));
      x[i] = nx[i];
    }
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += w[i] * x[i];
  return s;
}
static double scalar_capped(double a, double b) {
  double x = 0, err = 1;
  while (err > 1e-15) {
    __enzyme_set_fixed_point(-1.0, 3, 0, &x, sizeof(x));
    double nx = a * x + b;
    err = fabs(nx - x);
    x = nx;
  }
  return x;
}
static double scalar_free(double a, double b) {
  double x = 0, err = 1;
  while (err > 1e-15) {
    __enzyme_set_fixed_point(1e-30, 1000, 0, &x, sizeof(x));
    double nx = a * x + b;
    err = fabs(nx - x);
    x = nx;
  }
  return x;
}
typedef struct {
  double a, b;
} pair;
extern pair __enzyme_autodiff_pair(void *, ...) __asm__("__enzyme_autodiff");
extern double __enzyme_autodiff_d(void *, ...) __asm__("__enzyme_autodiff");
int main(void) {
  for (double a = 0.5; a < 40; a *= 3) {
    double d = __enzyme_autodiff_d((void *)babylonian, a);
    CHECK("sqrt primal", babylonian(a), sqrt(a), 1e-14);
    CHECK("sqrt", d, 0.5 / sqrt(a), 1e-12);
    CHECK("sqrt fd", d, FD(a, babylonian(a), 1e-6), 1e-7);
  }
  double A[N * N] = {0.2, -0.1, 0.3, 0.1, 0.4, -0.2, -0.3, 0.1, 0.25}, b[N] = {1, -0.5, 2};
  double dA[N * N] = {0}, db[N] = {0};
  __enzyme_autodiff((void *)linear, enzyme_dup, A, dA, enzyme_dup, b, db);
  // x* and lambda = (I - A)^-T w by plain iteration (A is a contraction).
  double x[N] = {0}, l[N] = {0};
  for (int it = 0; it < 5000; it++) {
    double nx[N], nl[N];
    for (int i = 0; i < N; i++) {
      nx[i] = b[i];
      nl[i] = w[i];
      for (int j = 0; j < N; j++) {
        nx[i] += A[i * N + j] * x[j];
        nl[i] += A[j * N + i] * l[j];
      }
    }
    for (int i = 0; i < N; i++) {
      x[i] = nx[i];
      l[i] = nl[i];
    }
  }
  for (int i = 0; i < N; i++) {
    CHECK("linear db", db[i], l[i], 1e-10);
    CHECK("linear db fd", db[i], FD(b[i], linear(A, b), 1e-6), 1e-7);
    for (int j = 0; j < N; j++) {
      CHECK("linear dA", dA[i * N + j], l[i] * x[j], 1e-10);
      CHECK("linear dA fd", dA[i * N + j], FD(A[i * N + j], linear(A, b), 1e-6), 1e-7);
    }
  }
  double a = 0.5, bb = 1, xs = bb / (1 - a);
  pair f = __enzyme_autodiff_pair((void *)scalar_free, a, bb);
  CHECK("max_iters not hit: db", f.b, 1 / (1 - a), 1e-10);
  CHECK("max_iters not hit: da", f.a, xs / (1 - a), 1e-10);
  CHECK("max_iters not hit: fd", f.b, FD(bb, scalar_free(a, bb), 1e-6), 1e-7);
  pair c = __enzyme_autodiff_pair((void *)scalar_capped, a, bb);
  CHECK("max_iters hit: db", c.b, 1 + a + a * a, 1e-12);
  CHECK("max_iters hit: da", c.a, xs * (1 + a + a * a), 1e-12);
  CHECK_DONE();
}
