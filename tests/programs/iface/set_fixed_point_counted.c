// A loop marked with __enzyme_set_fixed_point that runs a small constant
// number of times: at -O2 clang would unroll it fully before the pass
// lowers the marker (then in no loop: a compile error); the pass keeps
// marked loops from being unrolled at pipeline start. The gradient equals
// that of the plain loop (16 steps of a contraction, converged).
#include "../check.h"
#include <enzyme/fixed_point.h>

static double u[2], p[2];
__attribute__((noinline)) static void step(void) {
  double t0 = 0.05 * sin(u[1]) + p[0] * p[0], t1 = 0.05 * cos(u[0]) + p[1] * p[1];
  u[0] = t0;
  u[1] = t1;
}
static double marked(const double *x) {
  u[0] = u[1] = 0;
  p[0] = x[0];
  p[1] = x[1];
  for (int i = 0; i < 16; i++) {
    __enzyme_set_fixed_point(1e-30, (int64_t)-1, (void *)0, u, (int64_t)sizeof(u));
    step();
  }
  return u[0] * u[0] + u[1];
}
static double plain(const double *x) {
  u[0] = u[1] = 0;
  p[0] = x[0];
  p[1] = x[1];
  for (int i = 0; i < 16; i++)
    step();
  return u[0] * u[0] + u[1];
}
int main(void) {
  double x[2] = {0.3, 0.4}, d0[2] = {0}, d[2] = {0};
  __enzyme_autodiff((void *)plain, enzyme_dup, x, d0);
  __enzyme_autodiff((void *)marked, enzyme_dup, x, d);
  CHECK("dx[0] against the plain loop", d[0], d0[0], 1e-12);
  CHECK("dx[1] against the plain loop", d[1], d0[1], 1e-12);
  CHECK("value", marked(x), plain(x), 1e-15);
  return check_failures != 0;
}
