// EXPECT-ERROR: forward mode over the gradient of a fixed point (__enzyme_fixed_point) is not supported
// Forward over reverse through __enzyme_fixed_point is refused at the outer
// call (its adjoint iteration stops on the adjoint's size, which has no
// tangent), with its line, not a wrong Hessian-vector product.
#include "../check.h"
#include <enzyme/fixed_point.h>
#include <stdint.h>

__attribute__((noinline)) static int babylon(int64_t i, double *z, const double *a) {
  double old = *z;
  *z = 0.5 * (old + *a / old);
  return fabs(*z - old) > 1e-15 * *z && i < 200;
}

static double root(double a) {
  double z = a > 1 ? a : 1.0;
  __enzyme_fixed_point((void *)babylon, enzyme_fp_state, &z, (int64_t)sizeof z, &z, &a);
  return z;
}

__attribute__((noinline)) static double droot(double a) { return __enzyme_autodiff((void *)root, a); }

int main(void) {
  printf("%g\n", __enzyme_fwddiff((void *)droot, 2.0, 1.0));
  return 0;
}
