// Reverse: __enzyme_autodiff given the function through a constant
// global function pointer and through a local variable; a typed
// prototype mixing default activities (pointer dup, double active, int
// constant) without any marker.
#include "check.h"
double f(double *x, double a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * exp(a * i);
  return s * a;
}
double (*const fptr)(double *, double, int) = f;
double __enzyme_autodiff_typed(void *, double *, double *, double, int);
int main(void) {
  double x[3] = {0.5, -1.0, 2.0}, dx[3] = {0}, a = 0.3;
  double da = __enzyme_autodiff_typed((void *)fptr, x, dx, a, 3);
  double s = 0, ds = 0;
  for (int i = 0; i < 3; i++) s += x[i] * exp(a * i), ds += x[i] * i * exp(a * i);
  CHECK("da", da, s + a * ds, 1e-12);
  for (int i = 0; i < 3; i++) CHECK("dx", dx[i], a * exp(a * i), 1e-12);
  void *g = (void *)f;
  double dx2[3] = {0};
  double da2 = __enzyme_autodiff_typed(g, x, dx2, a, 3);
  CHECK("da2", da2, da, 1e-15);
  CHECK("dx2", dx2[2], dx[2], 1e-15);
  CHECK_DONE();
}
