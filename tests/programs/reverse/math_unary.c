// Reverse mode: unary math library calls, each checked against analytic
// derivatives and finite differences.
#include "check.h"
#define UN(NAME, EXPR, DEXPR)                                             \
  static double NAME(double x) { return EXPR; }                           \
  static void test_##NAME(double x) {                                     \
    double d = __enzyme_autodiff((void *)NAME, x);                        \
    CHECK(#NAME " analytic", d, DEXPR, 1e-10);                            \
    CHECK(#NAME " fd", d, FD(x, NAME(x), 1e-6), 1e-6);                    \
  }
UN(f_sin, sin(x), cos(x))
UN(f_cos, cos(x), -sin(x))
UN(f_tan, tan(x), 1 / (cos(x) * cos(x)))
UN(f_exp, exp(x), exp(x))
UN(f_exp2, exp2(x), exp2(x) * log(2.0))
UN(f_expm1, expm1(x), exp(x))
UN(f_log, log(x), 1 / x)
UN(f_log2, log2(x), 1 / (x * log(2.0)))
UN(f_log10, log10(x), 1 / (x * log(10.0)))
UN(f_log1p, log1p(x), 1 / (1 + x))
UN(f_sqrt, sqrt(x), 0.5 / sqrt(x))
UN(f_cbrt, cbrt(x), 1 / (3 * cbrt(x) * cbrt(x)))
UN(f_tanh, tanh(x), 1 - tanh(x) * tanh(x))
UN(f_sinh, sinh(x), cosh(x))
UN(f_cosh, cosh(x), sinh(x))
UN(f_asin, asin(x), 1 / sqrt(1 - x * x))
UN(f_acos, acos(x), -1 / sqrt(1 - x * x))
UN(f_atan, atan(x), 1 / (1 + x * x))
UN(f_erf, erf(x), 2 / sqrt(M_PI) * exp(-x * x))
UN(f_erfc, erfc(x), -2 / sqrt(M_PI) * exp(-x * x))
UN(f_fabs, fabs(x), x > 0 ? 1 : -1)
UN(f_neg_fabs, fabs(-3 * x), 3 * (x > 0 ? 1 : -1))
int main(void) {
  double xs[3] = {0.3, 0.61, 0.87};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    test_f_sin(x); test_f_cos(x); test_f_tan(x); test_f_exp(x); test_f_exp2(x);
    test_f_expm1(x); test_f_log(x); test_f_log2(x); test_f_log10(x); test_f_log1p(x);
    test_f_sqrt(x); test_f_cbrt(x); test_f_tanh(x); test_f_sinh(x); test_f_cosh(x);
    test_f_asin(x); test_f_acos(x); test_f_atan(x); test_f_erf(x); test_f_erfc(x);
    test_f_fabs(x); test_f_fabs(-x); test_f_neg_fabs(x);
  }
  CHECK_DONE();
}
