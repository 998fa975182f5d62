// A custom gradient whose reverse function reads the primal output through
// the pointer the caller passed: the address of the caller's local. The
// reverse runs after the augmented sweep returned (and at -O2 after the
// local's lifetime ended), so enzyme-rs keeps such locals on the heap until
// the reverse sweep is done. (It read a dead stack slot before; the
// sanitizer runs of the suite catch a regression.)
#include "check.h"

void cube(const double *x, double *y) { *y = x[0] * x[0] * x[0]; }
static void *cube_aug(const double *x, double *dx, double *y, double *dy) {
  cube(x, y);
  return 0;
}
static void cube_rev(const double *x, double *dx, double *y, double *dy, void *tape) {
  (void)tape;
  dx[0] += 3 * (*y / x[0]) * dy[0]; // reads the primal output *y = x^3
  dy[0] = 0;
}
void *__enzyme_register_gradient_cube[] = {(void *)cube, (void *)cube_aug, (void *)cube_rev};

double g(double *x) {
  double t, u[2];
  cube(x, &t);
  cube(x, &u[1]);
  return t * 2 + u[1];
}

int main(void) {
  double x[1] = {1.3}, dx[1] = {0};
  __enzyme_autodiff((void *)g, x, dx);
  CHECK("d/dx", dx[0], 9 * 1.3 * 1.3, 1e-12);
  CHECK("d/dx fd", dx[0], FD(x[0], g(x), 1e-6), 1e-6);
  CHECK_DONE();
}
