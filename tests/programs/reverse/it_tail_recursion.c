// Reverse: tail recursion with an accumulator (Horner evaluation, turned
// into a loop at -O2) and a recursion that walks a pointer forward.
#include "check.h"
__attribute__((noinline)) static double horner(const double *c, int n, double x, double acc) {
  if (n == 0) return acc;
  return horner(c + 1, n - 1, x, acc * x + c[0]);
}
__attribute__((noinline)) static double prod_rec(const double *v, int n) {
  return n == 0 ? 1.0 : v[0] * prod_rec(v + 1, n - 1);
}
double f(const double *c, double x) { return horner(c, 5, x, 0.0) + prod_rec(c, 5) * x; }
int main(void) {
  double c[5] = {0.5, -1.0, 2.0, 0.3, 1.1}, dc[5] = {0}, x = 0.7;
  double dx = __enzyme_autodiff((void *)f, enzyme_dup, c, dc, enzyme_out, x);
  CHECK("dx fd", dx, FD(x, f(c, x), 1e-6), 1e-6);
  double p = 1;
  for (int i = 0; i < 5; i++) p *= c[i];
  for (int i = 0; i < 5; i++) {
    CHECK("dc", dc[i], pow(x, 4 - i) + p / c[i] * x, 1e-12);
  }
  CHECK_DONE();
}
