// Reverse mode: calls to functions returning pointers into active memory.
#include "check.h"
static double *__attribute__((noinline)) pick(double *a, double *b, int k) {
  return k ? a + 1 : b + 2;
}
static double *__attribute__((noinline)) maxp(double *v, int n) {
  double *m = v;
  for (int i = 1; i < n; i++) if (v[i] > *m) m = &v[i];
  return m;
}
double f(double *a, double *b) {
  double *p = pick(a, b, 1), *q = pick(a, b, 0);
  double *m = maxp(a, 4);
  return *p * *q + *m * *m;
}
int main(void) {
  double a[4] = {1, 2, 5, 3}, b[4] = {4, 5, 6, 7}, da[4] = {0}, db[4] = {0};
  __enzyme_autodiff((void *)f, a, da, b, db);
  CHECK("da1", da[1], b[2], 1e-12);
  CHECK("db2", db[2], a[1], 1e-12);
  CHECK("da2 (max)", da[2], 2 * a[2], 1e-12);
  CHECK("da0", da[0], 0, 0);
  CHECK("db0", db[0], 0, 0);
  CHECK_DONE();
}
