// The __enzyme_autodiff call is in a library-like file (grad.c, a
// gradient function others call) and the function in a third file: the
// caller of the gradient (here) is a plain call across files.
#include "check.h"
double grad_rosen(double x, double y, double *dy);
double rosen(double x, double y);
int main(void) {
  double x = -0.8, y = 1.1, dy;
  double dx = grad_rosen(x, y, &dy);
  CHECK("drosen/dx", dx, -2 * (1 - x) - 400 * x * (y - x * x), 1e-10);
  CHECK("drosen/dy", dy, 200 * (y - x * x), 1e-10);
  CHECK("fd", dx, FD(x, rosen(x, y), 1e-6), 1e-5);
  CHECK_DONE();
}
