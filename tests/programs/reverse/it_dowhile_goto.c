// Reverse: a do-while loop, a goto-built loop, and a loop with an
// unstructured exit through goto, all in one function.
#include "check.h"
__attribute__((noinline)) double f(const double *x, int n) {
  double s = 0;
  int i = 0;
  do {
    s += x[i] * x[i];
    i++;
  } while (i < n);
  int j = 0;
again:
  s = s * 0.9 + sin(x[j]);
  if (++j < n) goto again;
  for (int k = 0; k < n; k++) {
    if (x[k] > 1.5) goto out; /* leaves the loop with the partial product */
    s *= 1 + 0.1 * x[k];
  }
  s += 100;
out:
  return s;
}
int main(void) {
  double x[5] = {0.2, -0.4, 0.9, 1.7, 0.3}, dx[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 5), 1e-6), 1e-6);
  double y[4] = {0.2, -0.4, 0.9, 0.3}, dy[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, y, dy, enzyme_const, 4);
  for (int i = 0; i < 4; i++) CHECK("dy fd", dy[i], FD(y[i], f(y, 4), 1e-6), 1e-6);
  CHECK_DONE();
}
