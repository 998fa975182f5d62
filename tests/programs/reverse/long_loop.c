// Reverse mode: a long loop (200k iterations) whose values go through the
// tape, so the tape grows many times.
#include "check.h"
double f(double x, int n) {
  double s = x;
  for (int i = 0; i < n; i++) s = sin(s) * 0.5 + x * 1e-3 + s * s * 1e-2;
  return s;
}
int main(void) {
  double x = 0.4;
  double d = __enzyme_autodiff((void *)f, x, 200000);
  CHECK("dlong fd", d, FD(x, f(x, 200000), 1e-6), 1e-5);
  CHECK_DONE();
}
