// printf inside the differentiated function is kept and carries no derivative.
#include "check.h"
static int calls = 0;
double f(double x) {
  double y = x * x * x;
  printf("f: x=%g y=%g\n", x, y);
  calls++;
  return y + sin(y);
}
int main(void) {
  double x = 0.5;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  CHECK("printed once", calls, 1, 0);
  CHECK("df/dx", d, 3 * x * x * (1 + cos(x * x * x)), 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
