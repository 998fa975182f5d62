// A custom gradient whose augmented forward function returns void for a
// primal returning a double (it keeps no tape and does not compute the
// result: the primal is called for it). The reverse function takes the
// parameters and the result's adjoint.
#include "check.h"
static int augs = 0, revs = 0;
__attribute__((noinline)) double cube(double x) { return x * x * x; }
static void cube_aug(double x) { augs++; }
static double cube_rev(double x, double dret) {
  revs++;
  return 3 * x * x * dret;
}
void *__enzyme_register_gradient_cube[] = {(void *)cube, (void *)cube_aug, (void *)cube_rev};
// With a pointer argument: the reverse adds into the shadow.
__attribute__((noinline)) double wsum(const double *w, double x) { return w[0] * x + w[1] * x * x; }
static void wsum_aug(const double *w, double *dw, double x) { augs++; }
static double wsum_rev(const double *w, double *dw, double x, double dret) {
  revs++;
  dw[0] += x * dret;
  dw[1] += x * x * dret;
  return (w[0] + 2 * w[1] * x) * dret;
}
void *__enzyme_register_gradient_wsum[] = {(void *)wsum, (void *)wsum_aug, (void *)wsum_rev};
static double f(const double *w, double x) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += cube(x + i) * wsum(w, x + i);
  return s;
}
int main(void) {
  double w[2] = {0.5, -1.25}, dw[2] = {0, 0}, x = 0.8;
  double dx = __enzyme_autodiff((void *)f, enzyme_dup, w, dw, x);
  CHECK("dx", dx, FD(x, f(w, x), 1e-6), 1e-6);
  CHECK("dw0", dw[0], FD(w[0], f(w, x), 1e-6), 1e-6);
  CHECK("dw1", dw[1], FD(w[1], f(w, x), 1e-6), 1e-6);
  CHECK("aug ran", augs, 6, 0);
  CHECK("rev ran", revs, 6, 0);
  CHECK("primal", f(w, x), f(w, x), 0);
  CHECK_DONE();
}
