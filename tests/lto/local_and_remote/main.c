// One file with two calls: one whose function is in the same file (done
// at compile time) and one whose function is in another file (deferred to
// the link); forward and reverse mode of both.
#include "check.h"
static double local_f(double x) { return x * exp(x); }
double remote_f(double x);
int main(void) {
  double x = 0.45;
  double a = __enzyme_autodiff((void *)local_f, x);
  double b = __enzyme_autodiff((void *)remote_f, x);
  double c = __enzyme_fwddiff((void *)remote_f, x, 1.0);
  double d = __enzyme_fwddiff((void *)local_f, x, 1.0);
  CHECK("local", a, (1 + x) * exp(x), 1e-12);
  CHECK("local fwd", d, a, 1e-12);
  CHECK("remote", b, cos(x) * cos(x) - sin(x) * sin(x), 1e-12);
  CHECK("remote fwd", c, b, 1e-12);
  CHECK_DONE();
}
