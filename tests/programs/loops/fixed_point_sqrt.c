// Babylonian (Newton) square root as a fixed point z = (z + a/z)/2, through
// __enzyme_fixed_point: d sqrt(a)/da = 1/(2 sqrt(a)), in one adjoint
// iteration (phi_z = 0 at the fixed point), whatever the number of primal
// iterations and whatever the initial guess.
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

static int calls;
static int count(double *cumul, double *red) {
  (void)red;
  calls++;
  return *cumul < 0 || (*cumul > 1e-30 && calls < 50);
}

static double root_ctl(double a) {
  double z = 1.0;
  __enzyme_fixed_point((void *)babylon, enzyme_fp_state, &z, (int64_t)sizeof z,
                       enzyme_fp_control, count, enzyme_fp_max_iters, (int64_t)10, &z, &a);
  return z * z * z; // something after the fixed point
}

int main(void) {
  double as[] = {0.25, 2.0, 9.0, 1e4};
  for (int k = 0; k < 4; k++) {
    double a = as[k];
    CHECK("sqrt", root(a), sqrt(a), 1e-14);
    double d = __enzyme_autodiff((void *)root, a);
    CHECK("d sqrt", d, 0.5 / sqrt(a), 1e-12);
    CHECK("d sqrt fd", d, FD(a, root(a), 1e-6 * a), 1e-6);
    // Forward mode differentiates the iterations themselves.
    CHECK("fwd d sqrt", __enzyme_fwddiff((void *)root, a, 1.0), 0.5 / sqrt(a), 1e-10);
    calls = 0;
    double d3 = __enzyme_autodiff((void *)root_ctl, a);
    CHECK("d a^1.5 (control)", d3, 1.5 * sqrt(a), 1e-12);
  }
  CHECK_DONE();
}
