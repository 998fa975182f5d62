// Reverse mode: mutually recursive functions.
#include "check.h"
double odd_f(double x, int n);
double even_f(double x, int n) {
  if (n == 0) return x;
  return cos(odd_f(x, n - 1)) * x;
}
double odd_f(double x, int n) {
  if (n == 0) return x * x;
  return even_f(x, n - 1) + 0.25 * x;
}
int main(void) {
  double x = 0.9;
  for (int n = 0; n < 6; n++) {
    double d = __enzyme_autodiff((void *)even_f, x, n);
    CHECK("deven fd", d, FD(x, even_f(x, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
