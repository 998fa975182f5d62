// EXPECT-ERROR: call to variadic function 'vsum' with active arguments
// LEVELS: O0 O2
// Active doubles passed through `...` (va_arg): a clear error.
#include "check.h"
#include <stdarg.h>
__attribute__((noinline)) static double vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  va_end(ap);
  return s;
}
double f(double x, double y) { return vsum(2, x * x, y); }
int main(void) { return __enzyme_autodiff((void *)f, 1.5, 2.0) != 3.0; }
