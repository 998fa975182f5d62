// The function differentiated (f.c) and the __enzyme_autodiff call (here)
// are in different files: reverse mode of scalars, checked analytically.
#include "check.h"
double f(double x, double y);
int main(void) {
  double x = 0.7, y = -1.3;
  typedef struct { double dx, dy; } grad;
  grad g = ((grad(*)(void *, ...))__enzyme_autodiff)((void *)f, x, y);
  CHECK("df/dx", g.dx, 3 * x * x * y + cos(x), 1e-12);
  CHECK("df/dy", g.dy, x * x * x - 2 * y, 1e-12);
  CHECK("df/dx fd", g.dx, FD(x, f(x, y), 1e-6), 1e-6);
  CHECK_DONE();
}
