// EXPECT-ERROR: exception handling (invoke/landingpad) with active values is not supported
// LEVELS: O0
#include "check.h"
double may_throw(double x);
double may_throw(double x) {
  if (x > 1e300) throw 1;
  return x * x;
}
double f(double x) {
  try {
    return may_throw(x);
  } catch (int) {
    return 0;
  }
}
int main() { return (int)__enzyme_autodiff((void *)f, 2.0); }
