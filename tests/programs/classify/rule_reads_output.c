// Rules whose partials read the primal result (exp' = exp, tanh' = 1 -
// tanh^2, sqrt' = 0.5 / sqrt, tan' = 1 + tan^2, fdiv's d/dy = -out/y):
// the rule table declares it, and both modes must see the real result.
#include "check.h"

double f(double x, double y) {
  return exp(x * y) + tanh(x) * sqrt(y) + tan(0.3 * x) + x / y;
}
double dfdx(double x, double y) {
  double th = tanh(x), t = tan(0.3 * x);
  return y * exp(x * y) + (1 - th * th) * sqrt(y) + 0.3 * (1 + t * t) + 1 / y;
}
double dfdy(double x, double y) {
  return x * exp(x * y) + tanh(x) * 0.5 / sqrt(y) - x / (y * y);
}
typedef struct { double dx, dy; } G;
G __enzyme_autodiff_g(void *, ...);

int main(void) {
  double xs[3] = {0.4, -1.2, 2.0}, ys[3] = {1.5, 0.7, 3.1};
  for (int k = 0; k < 3; k++) {
    double x = xs[k], y = ys[k];
    G g = __enzyme_autodiff_g((void *)f, x, y);
    CHECK("reverse dx", g.dx, dfdx(x, y), 1e-12);
    CHECK("reverse dy", g.dy, dfdy(x, y), 1e-12);
    CHECK("reverse dx fd", g.dx, FD(x, f(x, y), 1e-6), 1e-6);
    double tx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
    double ty = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
    CHECK("forward dx", tx, dfdx(x, y), 1e-12);
    CHECK("forward dy", ty, dfdy(x, y), 1e-12);
    CHECK("forward dy fd", ty, FD(y, f(x, y), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
