// Nested differentiation (Enzyme's "perturbation confusion" check):
// f(x) = x * d/dy (x y) at y = 1 = x^2, so f'(x) = 2x (a confused nesting
// gives x or 3x). Reverse over reverse, reverse over forward and forward
// over reverse of the same functions in one program: the inner gradient's
// tape must not go through the thread's tape cache inside an outer
// derivative (its shadow cannot mirror the cache).
#include "check.h"
static double g(double x, double y) { return x * y; }
typedef struct { double dx, dy; } D2;
D2 __enzyme_autodiff_g2(void *, double, double);
double f_rev(double x) { return x * __enzyme_autodiff_g2((void *)g, x, 1.0).dy; }
double f_fwd(double x) { return x * __enzyme_fwddiff((void *)g, x, 0.0, 1.0, 1.0); }
int main(void) {
  for (int rep = 0; rep < 2; rep++) {
    double x = 1.7 + rep;
    CHECK("rev(rev)", __enzyme_autodiff((void *)f_rev, x), 2 * x, 1e-12);
    CHECK("rev(fwd)", __enzyme_autodiff((void *)f_fwd, x), 2 * x, 1e-12);
    CHECK("fwd(rev)", __enzyme_fwddiff((void *)f_rev, x, 1.0), 2 * x, 1e-12);
    CHECK("primal", f_rev(x), x * x, 1e-12);
  }
  CHECK_DONE();
}
