// Reverse mode: enzyme_primal_return with one active scalar, and with a
// pointer argument only.
#include "check.h"
typedef struct { double primal, d; } PD;
PD __enzyme_autodiff_pd(void *, ...);
double __enzyme_autodiff_p(void *, ...);
double f(double x) { return x * x * x; }
double g(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  return sqrt(s);
}
int main(void) {
  PD r = __enzyme_autodiff_pd((void *)f, enzyme_primal_return, 2.0);
  CHECK("primal", r.primal, 8, 0);
  CHECK("d", r.d, 12, 1e-12);
  double v[3] = {1, 2, 2}, dv[3] = {0};
  double p = __enzyme_autodiff_p((void *)g, enzyme_primal_return, enzyme_dup, v, dv,
                                 enzyme_const, 3);
  CHECK("primal norm", p, 3, 1e-12);
  for (int i = 0; i < 3; i++) CHECK("dnorm", dv[i], v[i] / 3, 1e-12);
  CHECK_DONE();
}
