// A libm result that overflows to inf inside an expression that stays
// finite: the logistic 1 / (1 + exp(-x)) at x = -800, sech x = 1 / cosh x
// at x = 1000, 1 / (1 + 10^x) at x = 400. The derivative is about 0 there
// (e^-800), but the chain rule meets exp's partial (inf) with an adjoint
// of -0 (the reciprocal's), 0 x inf = NaN. Rules whose partial can be
// infinite apply it only where the seed is not zero
// (rules::checks_zero_seed), so these give 0 in every mode without
// -enzyme-strong-zero. Checked at the overflow, near it (where the values
// are tiny but not 0), and at ordinary points against central differences.
// Forward mode is checked only where exp does not overflow: there the
// tangent of exp(800) is itself infinite and the quotient's tangent is
// inf / inf (as in Enzyme); reverse mode, whose adjoints flow back from
// the finite result, is checked everywhere.
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include "returns.h"

double logistic(double x) { return 1.0 / (1.0 + exp(-x)); }
double sech(double x) { return 1.0 / cosh(x); }
double inv_pow10(double x) { return 1.0 / (1.0 + pow(10.0, x)); }
// A sum of logistic terms over an array, as a classifier's loss has.
double loss(const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += logistic(w[i] * (i - 2.0) * 100.0);
  return s;
}
double dlogistic(double x) { return __enzyme_autodiff((void *)logistic, x); }


static double logistic_slope(double x) {
  double s = logistic(x);
  return s * (1.0 - s);
}

int main(void) {
  const double t = 1e-12;
  double xs[] = {-800.0, -745.0, -700.0, -30.0, -1.0, 0.0, 0.5, 30.0, 800.0};
  for (int k = 0; k < (int)(sizeof xs / sizeof *xs); k++) {
    double x = xs[k];
    char name[64];
    snprintf(name, sizeof name, "logistic' rev at %g", x);
    CHECK(name, __enzyme_autodiff((void *)logistic, x), logistic_slope(x), t);
    if (fabs(x) < 709) {
      snprintf(name, sizeof name, "logistic' fwd at %g", x);
      CHECK(name, __enzyme_fwddiff((void *)logistic, x, 1.0), logistic_slope(x), t);
    }
    if (fabs(x) < 50) {
      snprintf(name, sizeof name, "logistic' FD at %g", x);
      CHECK(name, __enzyme_autodiff((void *)logistic, x), FD(x, logistic(x), 1e-6), 1e-8);
    }
  }
  v2 v = __enzyme_fwddiff_v2((void *)logistic, enzyme_width, 2, -700.0, 1.0, 0.0);
  CHECK("logistic vfwd lane0 at -700", v.d[0], logistic_slope(-700.0), t);
  CHECK("logistic vfwd lane1 at -700", v.d[1], 0.0, t);
  // Second derivative: forward over reverse at and away from the overflow.
  CHECK("logistic'' at -800", __enzyme_fwddiff((void *)dlogistic, -800.0, 1.0), 0.0, t);
  double x = 0.7;
  CHECK("logistic'' at 0.7", __enzyme_fwddiff((void *)dlogistic, x, 1.0), FD(x, dlogistic(x), 1e-5),
        1e-7);

  CHECK("sech' rev at 1000", __enzyme_autodiff((void *)sech, 1000.0), 0.0, t);
  CHECK("sech' fwd at 700", __enzyme_fwddiff((void *)sech, 700.0, 1.0), -tanh(700.0) / cosh(700.0), t);
  x = 2.0;
  CHECK("sech' at 2", __enzyme_autodiff((void *)sech, x), -tanh(x) / cosh(x), 1e-12);
  CHECK("1/(1+10^x)' rev at 400", __enzyme_autodiff((void *)inv_pow10, 400.0), 0.0, t);
  x = -0.3;
  CHECK("1/(1+10^x)' at -0.3", __enzyme_autodiff((void *)inv_pow10, x), FD(x, inv_pow10(x), 1e-6),
        1e-8);

  // The loss: terms at +-800 and a term at 0 (w[2] multiplies 0).
  double w[5] = {4.0, -8.0, 1.0, 0.01, -8.0}, dw[5] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, w, dw, enzyme_const, 5);
  for (int i = 0; i < 5; i++) {
    double a = (i - 2.0) * 100.0;
    char name[64];
    snprintf(name, sizeof name, "loss dw[%d]", i);
    CHECK(name, dw[i], a * logistic_slope(w[i] * a), 1e-12);
  }
  return check_failures != 0;
}
