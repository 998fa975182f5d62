// sqrt, exp, exp2, log, log2, log10.
#include "check.h"
double f_sqrt(double x) { return sqrt(x * 3.0); }
double f_exp(double x) { return exp(-x * x); }
double f_exp2(double x) { return exp2(x); }
double f_log(double x) { return log(x * x + 1); }
double f_log2(double x) { return log2(x); }
double f_log10(double x) { return log10(x); }
#define T CHECK_FWD1
int main(void) {
  double x = 1.7;
  T(f_sqrt, x, 1.5 / sqrt(3 * x));
  T(f_exp, x, -2 * x * exp(-x * x));
  T(f_exp2, x, exp2(x) * log(2.0));
  T(f_log, x, 2 * x / (x * x + 1));
  T(f_log2, x, 1 / (x * log(2.0)));
  T(f_log10, x, 1 / (x * log(10.0)));
  CHECK_DONE();
}
