// Forward mode across files: a pointer argument with its shadow (tangent
// array), and the vector norm's derivative checked against finite
// differences per direction.
#include "check.h"
double norm_weighted(const double *x, const double *w, int n);
int main(void) {
  enum { N = 5 };
  double x[N] = {0.3, -1.2, 2.0, 0.5, -0.4}, w[N] = {1, 2, 0.5, 3, 1.5};
  for (int i = 0; i < N; i++) {
    double dx[N] = {0};
    dx[i] = 1;
    double d = __enzyme_fwddiff((void *)norm_weighted, enzyme_dup, x, dx, enzyme_const, w,
                                enzyme_const, N);
    double want = w[i] * x[i] / norm_weighted(x, w, N);
    CHECK("d norm", d, want, 1e-12);
    CHECK("d norm fd", d, FD(x[i], norm_weighted(x, w, N), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
