// LEVELS: O1 O2 O3
// Reverse mode: helpers called through a function-pointer parameter whose
// target the optimizer makes known (at -O0 the call stays indirect, which
// reverse mode rejects: see errors/reverse_indirect_call.c).
#include "check.h"
static double sq(double x) { return x * x * sin(x); }
typedef double (*fn)(double);
static double apply(fn g, double x) { return g(x) * 2; }
double h(double x) { return apply(sq, x) + apply(cos, x); }
int main(void) {
  double x = 0.9;
  double dh = __enzyme_autodiff((void *)h, x);
  CHECK("dh", dh, 2 * (2 * x * sin(x) + x * x * cos(x)) - 2 * sin(x), 1e-12);
  CHECK_DONE();
}
