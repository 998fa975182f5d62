// Forward over reverse of two gradients chosen by a branch: the two
// __enzyme_fwddiff calls differ only in the function they name, which
// SimplifyCFG at -O2/-O3 would sink into one call of a phi of the two
// (the pass then saw no function to differentiate) unless the calls are
// kept apart (callsite::keep_calls_apart). The gradients go through a
// running maximum (a pick record, pickrec.rs) and an insertion sort (a
// move record, moverec.rs). Each Hessian-vector product is checked
// against central differences of its gradient along the direction.
#include "../check.h"
#include <string.h>

#define N 9

static double lse(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m)
      m = x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - m);
  return m + log(s);
}

static double ranked(const double *x, int n) {
  double *a = malloc(n * sizeof(double));
  memcpy(a, x, n * sizeof(double));
  for (int i = 1; i < n; i++) {
    double v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * a[i] * a[i];
  free(a);
  return s;
}

__attribute__((noinline)) static void grad_lse(const double *x, double *g, int n) {
  memset(g, 0, n * sizeof(double));
  __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, n);
}

__attribute__((noinline)) static void grad_ranked(const double *x, double *g, int n) {
  memset(g, 0, n * sizeof(double));
  __enzyme_autodiff((void *)ranked, enzyme_dup, x, g, enzyme_const, n);
}

static void check_product(int which) {
  double x[N], v[N], g[N] = {0}, hv[N] = {0}, gp[N], gm[N], xp[N], xm[N];
  for (int i = 0; i < N; i++) {
    x[i] = sin(1.3 * i + 0.2);
    v[i] = cos(0.7 * i);
  }
  if (which)
    __enzyme_fwddiff((void *)grad_ranked, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, N);
  else
    __enzyme_fwddiff((void *)grad_lse, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, N);
  const double h = 1e-6;
  for (int i = 0; i < N; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  void (*grad)(const double *, double *, int) = which ? grad_ranked : grad_lse;
  double g0[N];
  grad(x, g0, N);
  grad(xp, gp, N);
  grad(xm, gm, N);
  char name[64];
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "%s g[%d]", which ? "ranked" : "lse", i);
    CHECK(name, g[i], g0[i], 1e-12);
    snprintf(name, sizeof name, "%s Hv[%d] fd", which ? "ranked" : "lse", i);
    CHECK(name, hv[i], (gp[i] - gm[i]) / (2 * h), 1e-5);
  }
}

int main(void) {
  for (int which = 0; which < 2; which++)
    check_product(which);
  CHECK_DONE();
}
