// A call to a variadic function with active arguments: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: variadic
#include <enzyme/enzyme.h>
#include <stdarg.h>
__attribute__((noinline)) double sum(int n, ...) {
  va_list ap; va_start(ap, n); double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  va_end(ap); return s;
}
double f(double x) { return sum(2, x, x * x); } // error-here
int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); }
