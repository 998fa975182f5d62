// Reverse mode: helpers called through a function-pointer parameter. At -O1
// and above the optimizer makes the target known; at -O0 the call stays
// indirect and goes through a dispatcher over the address-taken functions
// of its type (sq, and cos from the rule table).
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
