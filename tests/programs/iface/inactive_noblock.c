// __enzyme_inactivenoblockfn lists functions that carry no derivative, as
// __enzyme_inactivefn does: the derivative of x*x + noisy(x) is 2x.
// (The __enzyme_inactive_global registration is checked in lit/iface.)
#include "check.h"
static int calls = 0;
__attribute__((noinline)) double noisy(double v) {
  calls++;
  return v * v * v;
}
void *__enzyme_inactivenoblockfn[] = {(void *)noisy};
static double f(double x) { return x * x + noisy(x); }
int main(void) {
  double x = 1.5;
  double d = __enzyme_autodiff((void *)f, x);
  CHECK("d with noisy inactive", d, 2 * x, 1e-12);
  CHECK("noisy ran", calls >= 1, 1, 0);
  CHECK_DONE();
}
