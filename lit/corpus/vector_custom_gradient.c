// Vector reverse mode (width 2) through a function with a registered
// custom gradient (one tape per call of the user's pair, not yet split
// into lanes): exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: vector reverse mode (enzyme_width 2) through calls with a registered custom gradient
#include <enzyme/enzyme.h>
double sq(double x) { return x * x; }
typedef struct { double tape, primal; } tp;
static tp sq_aug(double x) { tp r = {x, x * x}; return r; }
static double sq_rev(double x, double d, double tape) { return 2 * tape * d; }
void *__enzyme_register_gradient_sq[] = {(void *)sq, (void *)sq_aug, (void *)sq_rev};
void f(double *x) { x[0] = sq(x[0]) + 1; } // error-here
int main(void) {
  double x = 2, d0 = 1, d1 = 1;
  __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, &x, &d0, &d1);
  return x > 0;
}
