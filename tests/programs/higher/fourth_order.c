// Reverse mode four times over (the gradient of the gradient of the
// gradient of the gradient) of a loop with a branch and a call of an
// integer function: each order differentiates the code the order below
// made, including its taped branch decisions (1-bit values, once refused
// at -O0 as if they were pieces of a float). Against the analytic
// derivatives of x + x^3/6 + x^5/120.
#include "../check.h"
#include <stdint.h>

__attribute__((noinline)) static uint64_t fact(uint64_t n) { return n == 0 ? 1 : n * fact(n - 1); }
static double f(double x) {
  double r = 0;
  for (uint64_t i = 1; i <= 6; i++) {
    if (i % 2 == 0)
      continue;
    r += pow(x, (double)i) / (double)fact(i);
  }
  return r;
}
static double d1(double x) { return __enzyme_autodiff((void *)f, x); }
static double d2(double x) { return __enzyme_autodiff((void *)d1, x); }
static double d3(double x) { return __enzyme_autodiff((void *)d2, x); }
static double d4(double x) { return __enzyme_autodiff((void *)d3, x); }

int main(void) {
  double x = 1.5;
  CHECK("first", d1(x), 1 + x * x / 2 + x * x * x * x / 24, 1e-12);
  CHECK("second", d2(x), x + x * x * x / 6, 1e-12);
  CHECK("third", d3(x), 1 + x * x / 2, 1e-12);
  CHECK("fourth", d4(x), x, 1e-12);
  CHECK_DONE();
}
