// Reverse: memcpy into and out of an array field of a struct that also
// holds an int and a pointer (the copy covers doubles only), and a copy
// of part of a struct (its leading double fields).
#include "check.h"
#include <string.h>
typedef struct {
  int n;
  double arr[4];
  double *p;
} Box;
typedef struct {
  double u, v;
  int k;
  double *q;
} Head;
__attribute__((noinline)) double f(const double *x, Head *h) {
  Box b;
  b.n = 4;
  b.p = &b.arr[1];
  memcpy(b.arr, x, 4 * sizeof(double));
  double out[4];
  memcpy(out, b.arr, sizeof out);
  Head g;
  memcpy(&g, h, 2 * sizeof(double)); /* u and v only */
  double s = 0;
  for (int i = 0; i < b.n; i++) s += out[i] * out[i] * (i + 1);
  return s + *b.p * g.u * g.v;
}
int main(void) {
  double x[4] = {0.5, -1.2, 0.8, 2.0}, dx[4] = {0};
  double e = 3.0, de = 0;
  Head h = {0.7, -0.4, 1, &e}, dh = {0, 0, 0, &de};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, &h, &dh);
  for (int i = 0; i < 4; i++) CHECK("dx", dx[i], 2 * x[i] * (i + 1) + (i == 1 ? h.u * h.v : 0), 1e-12);
  CHECK("du", dh.u, x[1] * h.v, 1e-12);
  CHECK("dv", dh.v, x[1] * h.u, 1e-12);
  CHECK("dq kept", dh.q == &de, 1, 0);
  CHECK_DONE();
}
