// Reverse: forward substitution L y = b (lower-triangular, row-major),
// result sum(y^2); derivatives w.r.t. both L and b.
#include "check.h"
__attribute__((noinline)) void fwdsolve(const double *L, const double *b, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int j = 0; j < i; j++) s -= L[i * n + j] * y[j];
    y[i] = s / L[i * n + i];
  }
}
double loss(const double *L, const double *b, int n) {
  double y[8];
  fwdsolve(L, b, y, n);
  double r = 0;
  for (int i = 0; i < n; i++) r += y[i] * y[i];
  return r;
}
int main(void) {
  enum { N = 4 };
  double L[N * N] = {2, 0, 0, 0, 0.5, 3, 0, 0, -1, 0.25, 1.5, 0, 0.3, -0.2, 0.7, 2.5};
  double b[N] = {1, -2, 0.5, 3};
  double dL[N * N] = {0}, db[N] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, L, dL, enzyme_dup, b, db, enzyme_const, N);
  /* analytic: y = L^-1 b, g = 2y; db = L^-T g; dL = -db y^T (lower part) */
  double y[N], g[N], lam[N];
  fwdsolve(L, b, y, N);
  for (int i = 0; i < N; i++) g[i] = 2 * y[i];
  for (int i = N - 1; i >= 0; i--) {
    double s = g[i];
    for (int j = i + 1; j < N; j++) s -= L[j * N + i] * lam[j];
    lam[i] = s / L[i * N + i];
  }
  for (int i = 0; i < N; i++) {
    CHECK("db", db[i], lam[i], 1e-12);
    CHECK("db fd", db[i], FD(b[i], loss(L, b, N), 1e-6), 1e-6);
    for (int j = 0; j <= i; j++) {
      CHECK("dL", dL[i * N + j], -lam[i] * y[j], 1e-12);
      CHECK("dL fd", dL[i * N + j], FD(L[i * N + j], loss(L, b, N), 1e-6), 1e-6);
    }
    for (int j = i + 1; j < N; j++) CHECK("dL upper", dL[i * N + j], 0, 0);
  }
  CHECK_DONE();
}
