// Reverse: read-write-read of the same array in one loop (the value read
// back was overwritten in the same iteration), then a second pass.
#include "check.h"
__attribute__((noinline)) double rwr(double *x, const double *y, int n) {
  double out = 0;
  for (int i = 0; i < n; i++) {
    double a = x[i];
    x[i] = a * a + y[i];
    out += x[i] * sin(a);
    x[i] = x[i] * 0.5;
  }
  for (int i = 0; i < n; i++) out += x[i] * x[i];
  return out;
}
static double wrap(const double *x0, const double *y, int n) {
  double x[8];
  for (int i = 0; i < n; i++) x[i] = x0[i];
  return rwr(x, y, n);
}
int main(void) {
  enum { N = 5 };
  double x[N] = {0.3, -0.7, 1.1, 0.25, 2.0}, y[N] = {1, 2, -1, 0.5, 0.1};
  double xc[N], dx[N] = {0}, dy[N] = {0};
  for (int i = 0; i < N; i++) xc[i] = x[i];
  __enzyme_autodiff((void *)rwr, enzyme_dup, xc, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double a = x[i], w = a * a + y[i];
    /* out_i = w sin(a) + (w/2)^2 */
    double dw = sin(a) + w / 2;
    CHECK("dx", dx[i], dw * 2 * a + w * cos(a), 1e-12);
    CHECK("dy", dy[i], dw, 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], wrap(x, y, N), 1e-6), 1e-6);
    CHECK("dy fd", dy[i], FD(y[i], wrap(x, y, N), 1e-6), 1e-6);
    CHECK("x after", xc[i], w / 2, 1e-15);
  }
  CHECK_DONE();
}
