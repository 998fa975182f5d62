// EXPECT-ERROR: enzyme_interleave, all primals first and the shadows after it, is not supported by enzyme-rs
// LEVELS: O0 O2
// enzyme_interleave is refused with a clear error and the line.
#include "check.h"
extern int enzyme_interleave;
static void f(const double *x, double *y) { y[0] = x[0] * x[1]; }
int main(void) {
  double x[2] = {1, 2}, dx[2] = {0}, y[1], dy[1] = {1};
  __enzyme_autodiff((void *)f, x, y, enzyme_interleave, dx, dy);
  printf("%g\n", dx[0]);
  return 0;
}
