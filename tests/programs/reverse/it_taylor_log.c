// Reverse: log(1 - x) = -sum x^k / k with pow() and an int->double
// conversion of the counter; typed prototype with no activity markers.
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, double, int);
double taylorlog(double x, int terms) {
  double s = 0;
  for (int k = 1; k <= terms; k++) s -= pow(x, k) / k;
  return s;
}
int main(void) {
  int bad = 0;
  double xs[3] = {0.1, 0.5, -0.4};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    double d = __enzyme_autodiff((void *)taylorlog, x, 60);
    double exact = 0; /* derivative of the truncated series */
    for (int k = 1; k <= 60; k++) exact -= pow(x, k - 1);
    printf("x=%g d=%.15g want %.15g (1/(x-1) = %g)\n", x, d, exact, 1 / (x - 1));
    if (fabs(d - exact) > 1e-12 * fabs(exact)) bad = 1;
  }
  return bad;
}
