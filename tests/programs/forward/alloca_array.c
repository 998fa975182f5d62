// Local arrays (alloca) written and read with active values.
#include "check.h"
double f(double x) {
  double a[8];
  a[0] = x;
  for (int i = 1; i < 8; i++) a[i] = a[i - 1] * x + 1.0;
  double s = 0;
  for (int i = 0; i < 8; i += 2) s += a[i] * a[i + 1];
  return s;
}
int main(void) {
  double x = 0.9;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  double a[8], da[8];
  a[0] = x; da[0] = 1;
  for (int i = 1; i < 8; i++) { a[i] = a[i - 1] * x + 1; da[i] = da[i - 1] * x + a[i - 1]; }
  double want = 0;
  for (int i = 0; i < 8; i += 2) want += da[i] * a[i + 1] + a[i] * da[i + 1];
  CHECK("df/dx", d, want, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
