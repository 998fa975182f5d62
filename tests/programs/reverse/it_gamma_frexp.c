// Reverse and forward: lgamma/tgamma (digamma), frexp/ldexp/scalbn, in
// double, float and long double, against tabulated digamma values.
#include "check.h"
float __enzyme_autodiff_f(void *, float);
long double __enzyme_autodiff_l(void *, long double);
double lg(double x) { return lgamma(x); }
double tg(double x) { return tgamma(x); }
float lgf(float x) { return lgammaf(x); }
long double lgl(long double x) { return lgammal(x); }
double fx(double x) {
  int e;
  double m = frexp(x, &e);
  return m * m + ldexp(x, e) + scalbn(x, -3);
}
int main(void) {
  /* digamma(x) at x = 1, 0.5, -0.5, 3.7, 25, 1e-3 */
  double xs[6] = {1.0, 0.5, -0.5, 3.7, 25.0, 1e-3};
  double psi[6] = {-0.57721566490153286, -1.9635100260214235, 0.036489973978576520,
                   1.1671535393615113, 3.198742512851974, -1000.5755719318103};
  for (int i = 0; i < 6; i++) {
    double x = xs[i];
    CHECK("lgamma'", __enzyme_autodiff((void *)lg, x), psi[i], 1e-13);
    CHECK("lgamma' fwd", __enzyme_fwddiff((void *)lg, x, 1.0), psi[i], 1e-13);
    CHECK("tgamma'", __enzyme_autodiff((void *)tg, x), tgamma(x) * psi[i], 1e-13);
    CHECK("lgammaf'", __enzyme_autodiff_f((void *)lgf, (float)x), psi[i], 1e-4);
    CHECK("lgammal'", (double)__enzyme_autodiff_l((void *)lgl, (long double)x), psi[i], 1e-13);
  }
  double ys[4] = {0.3, -5.5, 1000.0, 0.0};
  for (int i = 0; i < 4; i++) {
    double x = ys[i];
    int e;
    double m = frexp(x, &e);
    double want = 2 * m * (x == 0 ? 1 : ldexp(1.0, -e)) + (x == 0 ? 1 : ldexp(1.0, e)) + 0.125;
    CHECK("frexp", __enzyme_autodiff((void *)fx, x), want, 1e-15);
    CHECK("frexp fwd", __enzyme_fwddiff((void *)fx, x, 1.0), want, 1e-15);
    if (x != 0) CHECK("frexp fd", __enzyme_autodiff((void *)fx, x), FD(x, fx(x), 1e-6 * fabs(x)), 1e-6);
  }
  CHECK_DONE();
}
