// FLAGS: -fopenmp
// THREADS: 1 2 4
// A region's reduction result that the gradient does not need: the
// augmented sweep drops the stores into it (and the partials' loop), so
// the derivative must stay right, and so must every case where the result
// IS needed: the primal return asked for (enzyme_primal_return), the
// result read again inside the region (a later loop scales by it), a max
// reduction (the reverse needs the winner).
#include "check.h"
#define N 400

extern double __enzyme_autodiff_p(void *, ...);

/* f = sum_i (x_{i-1} - 2 x_i + x_{i+1} + c x_i^3)^2, through y */
double stencil(const double *restrict x, double *restrict y, double c, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 1; i < n - 1; i++) y[i] = x[i - 1] - 2 * x[i] + x[i + 1] + c * x[i] * x[i] * x[i];
#pragma omp for reduction(+ : s)
    for (int i = 1; i < n - 1; i++) s += y[i] * y[i];
  }
  return s;
}

/* the same, called with the primal result asked for */
double stencil_p(const double *restrict x, double *restrict y, double c, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 1; i < n - 1; i++) y[i] = x[i - 1] - 2 * x[i] + x[i + 1] + c * x[i] * x[i] * x[i];
#pragma omp for reduction(+ : s)
    for (int i = 1; i < n - 1; i++) s += y[i] * y[i];
  }
  return s;
}

/* g = sum_i s x_i^2 with s = sum_i x_i (s read again inside the region) */
double reread(const double *x, int n) {
  double s = 0, t = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++) s += x[i];
#pragma omp for reduction(+ : t)
    for (int i = 0; i < n; i++) t += s * x[i] * x[i];
  }
  return t;
}

/* h = max_i x_i sin(x_i) */
double maxred(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) {
    double v = x[i] * sin(x[i]);
    if (v > m) m = v;
  }
  return m;
}

static double f_stencil(const double *x, double c) {
  double y[N];
  return stencil(x, y, c, N);
}

int main(void) {
  double x[N], dx[N], y[N], dy[N];
  double c = 0.3;
  for (int i = 0; i < N; i++) x[i] = sin(0.03 * i) + 0.1 * cos(0.7 * i);
  /* stencil: gradient without the primal result, checked by central
   * differences at a few points */
  for (int i = 0; i < N; i++) dx[i] = dy[i] = y[i] = 0;
  __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, c,
                    enzyme_const, N);
  for (int k = 0; k < N; k += 37) {
    double h = 1e-6, xk = x[k];
    x[k] = xk + h;
    double fp = f_stencil(x, c);
    x[k] = xk - h;
    double fm = f_stencil(x, c);
    x[k] = xk;
    CHECK("stencil dx", dx[k], (fp - fm) / (2 * h), 1e-6);
  }
  /* the same derivative with the primal result asked for */
  double want = f_stencil(x, c);
  for (int i = 0; i < N; i++) dx[i] = dy[i] = 0;
  double p = __enzyme_autodiff_p((void *)stencil_p, enzyme_primal_return, enzyme_dup, x, dx,
                                 enzyme_dup, y, dy, enzyme_const, c, enzyme_const, N);
  CHECK("stencil primal", p, want, 1e-12);
  for (int k = 0; k < N; k += 37) {
    double h = 1e-6, xk = x[k];
    x[k] = xk + h;
    double fp = f_stencil(x, c);
    x[k] = xk - h;
    double fm = f_stencil(x, c);
    x[k] = xk;
    CHECK("stencil dx (primal returned)", dx[k], (fp - fm) / (2 * h), 1e-6);
  }
  /* reread: dg/dx_k = sum_i x_i^2 + 2 s x_k */
  double s = 0, q = 0;
  for (int i = 0; i < N; i++) s += x[i], q += x[i] * x[i];
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)reread, enzyme_dup, x, dx, enzyme_const, N);
  for (int k = 0; k < N; k++) CHECK("reread dx", dx[k], q + 2 * s * x[k], 1e-9);
  /* maxred: the derivative at the winner only */
  int w = 0;
  for (int i = 1; i < N; i++)
    if (x[i] * sin(x[i]) > x[w] * sin(x[w])) w = i;
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)maxred, enzyme_dup, x, dx, enzyme_const, N);
  for (int k = 0; k < N; k++)
    CHECK("max dx", dx[k], k == w ? sin(x[k]) + x[k] * cos(x[k]) : 0, 1e-12);
  CHECK_DONE();
}
