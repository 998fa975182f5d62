// Reverse: long double (x86_fp80) scalars and an array of long doubles.
#include "check.h"
long double __enzyme_autodiff_ld(void *, ...);
long double g(long double x, const long double *w, int n) {
  long double s = sinl(x) * expl(x);
  for (int i = 0; i < n; i++) s += w[i] * powl(x, (long double)i) + sqrtl(w[i] * w[i] + x * x);
  return s;
}
int main(void) {
  long double x = 0.6L, w[3] = {0.5L, -1.0L, 2.0L}, dw[3] = {0};
  long double dx = __enzyme_autodiff_ld((void *)g, enzyme_out, x, enzyme_dup, w, dw, enzyme_const, 3);
  double xd = 0.6;
  double want = cos(xd) * exp(xd) + sin(xd) * exp(xd);
  for (int i = 0; i < 3; i++) {
    double wi = (double)w[i];
    if (i > 0) want += wi * i * pow(xd, i - 1);
    want += xd / sqrt(wi * wi + xd * xd);
    CHECK("dw", (double)dw[i], pow(xd, i) + wi / sqrt(wi * wi + xd * xd), 1e-12);
  }
  CHECK("dx", (double)dx, want, 1e-12);
  CHECK_DONE();
}
