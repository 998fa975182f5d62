// Inactive functions (__enzyme_inactivefn): a library function with no body
// (j1) and a function with a body (a "noise" term) carry no derivative, in
// forward and reverse mode.
// LEVELS: O0 O1 O2 O3
#include "check.h"

double j1(double);
static double last_seen;
double noise(double x) {
  last_seen = x;
  return 1e-3 * sin(1000 * x);
}
void *__enzyme_inactivefn[] = {(void *)j1, (void *)noise};

double f(double x) { return x * x * exp(x) + j1(x) + noise(x); }
double smooth(double x) { return x * x * exp(x); }

int main(void) {
  double x = 0.4;
  double want = FD(x, smooth(x), 1e-6);
  CHECK("forward", __enzyme_fwddiff((void *)f, x, 1.0), want, 1e-6);
  CHECK("reverse", __enzyme_autodiff((void *)f, x), want, 1e-6);
  CHECK("noise ran", last_seen, x, 0);
  CHECK_DONE();
}
