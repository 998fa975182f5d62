// exp10 and the Bessel functions of the first and second kind (j0, j1, jn,
// y0, y1, yn; double and float), which had no rule (a compile error):
// j0' = -j1, j1' = (j0 - j2) / 2, jn' = (j(n-1) - j(n+1)) / 2, and y
// likewise. Reverse, forward and vector forward against the recurrences
// evaluated here and central differences.
// LEVELS: O0 O1 O2 O3
#define _GNU_SOURCE
#include "check.h"
#include "returns.h"

double e10(double x) { return exp10(x) * x; }
double bessel_sum(double x) { return j0(x) + 2.0 * y0(x) + 3.0 * j1(x) + y1(x); }
double bessel_n(double x, int n) { return jn(n, x) + 0.5 * yn(n, x); }
float bessel_f(float x) { return j0f(x) * j1f(x); }

int main(void) {
  double xs[] = {0.3, 1.7, 4.2, 11.5};
  for (int k = 0; k < 4; k++) {
    double x = xs[k];
    char name[64];
    double want = -j1(x) - 2.0 * y1(x) + 1.5 * (j0(x) - jn(2, x)) + 0.5 * (y0(x) - yn(2, x));
    snprintf(name, sizeof name, "j0 + 2 y0 + 3 j1 + y1 rev at %g", x);
    CHECK(name, __enzyme_autodiff((void *)bessel_sum, x), want, 1e-12);
    snprintf(name, sizeof name, "... fwd at %g", x);
    CHECK(name, __enzyme_fwddiff((void *)bessel_sum, x, 1.0), want, 1e-12);
    snprintf(name, sizeof name, "... FD at %g", x);
    CHECK(name, __enzyme_autodiff((void *)bessel_sum, x), FD(x, bessel_sum(x), 1e-6), 1e-7);
    for (int n = 1; n <= 4; n += 3) {
      double wn = 0.5 * (jn(n - 1, x) - jn(n + 1, x)) + 0.25 * (yn(n - 1, x) - yn(n + 1, x));
      snprintf(name, sizeof name, "jn + yn / 2, n = %d, rev at %g", n, x);
      CHECK(name, __enzyme_autodiff((void *)bessel_n, x, enzyme_const, n), wn, 1e-12);
      snprintf(name, sizeof name, "jn + yn / 2, n = %d, FD at %g", n, x);
      CHECK(name, __enzyme_autodiff((void *)bessel_n, x, enzyme_const, n), FD(x, bessel_n(x, n), 1e-6),
            1e-7);
    }
  }
  v2 v = __enzyme_fwddiff_v2((void *)bessel_sum, enzyme_width, 2, 1.7, 1.0, 2.0);
  CHECK("bessel vfwd lane1 = 2 lane0", v.d[1], 2.0 * v.d[0], 1e-12);
  float xf = 1.25f;
  CHECK("j0f j1f rev", __enzyme_autodiff_f((void *)bessel_f, xf),
        -j1f(xf) * j1f(xf) + j0f(xf) * 0.5f * (j0f(xf) - jnf(2, xf)), 1e-5);
  double x = 0.7;
  CHECK("exp10(x) x rev", __enzyme_autodiff((void *)e10, x), exp10(x) * (log(10.0) * x + 1.0), 1e-12);
  CHECK("exp10(x) x FD", __enzyme_fwddiff((void *)e10, x, 1.0), FD(x, e10(x), 1e-6), 1e-7);
  return check_failures != 0;
}
