// memcpy between active buffers copies the shadow too.
#include "check.h"
#include <string.h>
double f(const double *in, int n) {
  double buf[16];
  memcpy(buf, in, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += buf[i] * buf[i] * (i + 1);
  return s;
}
typedef struct { double a, b; } pair;
double g(double x) {
  pair p = {x, x * x}, q;
  memcpy(&q, &p, sizeof p);
  return q.a * q.b;
}
int main(void) {
  double in[5] = {1, 2, 3, 4, 5}, din[5] = {0, 0, 1, 0, 0};
  double d = __enzyme_fwddiff((void *)f, enzyme_dup, in, din, enzyme_const, 5);
  CHECK("df/din2", d, 2 * in[2] * 3, 1e-12);
  CHECK("df/din2 fd", d, FD(in[2], f(in, 5), 1e-6), 1e-6);
  double x = 1.1;
  double dg = __enzyme_fwddiff((void *)g, x, 1.0);
  CHECK("dg/dx", dg, 3 * x * x, 1e-12);
  CHECK("dg/dx fd", dg, FD(x, g(x), 1e-6), 1e-6);
  CHECK_DONE();
}
