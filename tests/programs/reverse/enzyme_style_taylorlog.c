// Enzyme-style: a Taylor series of log(1 - x) with a run-time term count.
#include <stdio.h>
#include <math.h>
double __enzyme_autodiff(void *, ...);
double taylorlog(double x, unsigned n) {
  double sum = 0;
  for (unsigned i = 1; i <= n; i++) sum -= pow(x, i) / i;
  return sum;
}
int main() {
  double x = 0.5;
  double d = __enzyme_autodiff((void *)taylorlog, x, 1000u);
  printf("d = %.17g want %.17g\n", d, -1 / (1 - x));
  return fabs(d + 1 / (1 - x)) > 1e-10;
}
