// Reverse: adaptive Simpson quadrature (recursion whose depth depends on
// the data) of exp(-a t^2) sin(b t); derivatives w.r.t. a and b through
// the recursion (the refinement pattern is piecewise constant).
#include "check.h"
typedef struct { double a, b; } P;
static double g(const P *p, double t) { return exp(-p->a * t * t) * sin(p->b * t); }
__attribute__((noinline)) static double asr(const P *p, double l, double r, double fl, double fm, double fr,
                                            double whole, double eps, int depth) {
  double m = 0.5 * (l + r), lm = 0.5 * (l + m), rm = 0.5 * (m + r);
  double flm = g(p, lm), frm = g(p, rm);
  double left = (m - l) / 6 * (fl + 4 * flm + fm), right = (r - m) / 6 * (fm + 4 * frm + fr);
  if (depth <= 0 || fabs(left + right - whole) <= 15 * eps) return left + right + (left + right - whole) / 15;
  return asr(p, l, m, fl, flm, fm, left, eps / 2, depth - 1) + asr(p, m, r, fm, frm, fr, right, eps / 2, depth - 1);
}
double integ(P *p) {
  double l = 0, r = 3, m = 1.5;
  double fl = g(p, l), fm = g(p, m), fr = g(p, r);
  return asr(p, l, r, fl, fm, fr, (r - l) / 6 * (fl + 4 * fm + fr), 1e-10, 30);
}
int main(void) {
  P p = {0.8, 2.3}, dp = {0, 0};
  __enzyme_autodiff((void *)integ, enzyme_dup, &p, &dp);
  /* exact integrals of the derivatives (midpoint rule, fine grid) */
  double ia = 0, ib = 0;
  int K = 300000;
  for (int k = 0; k < K; k++) {
    double t = (k + 0.5) * 3.0 / K;
    ia += -t * t * exp(-p.a * t * t) * sin(p.b * t) * 3.0 / K;
    ib += t * exp(-p.a * t * t) * cos(p.b * t) * 3.0 / K;
  }
  CHECK("da", dp.a, ia, 1e-7);
  CHECK("db", dp.b, ib, 1e-7);
  CHECK_DONE();
}
