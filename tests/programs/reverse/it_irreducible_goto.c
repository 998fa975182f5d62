// Reverse: an irreducible loop built with goto (entered at the top or in
// the middle depending on an argument).
#include "check.h"
__attribute__((noinline)) double f(const double *x, int n, int start_mid) {
  double s = 0.5;
  int i = 0;
  if (start_mid) goto mid;
top:
  s = s * x[i] + 1.0;
mid:
  s = sin(s) + x[i] * 0.5;
  i++;
  if (i < n) goto top;
  return s;
}
int main(void) {
  double x[4] = {0.5, -1, 2, 0.3}, dx[4] = {0};
  for (int m = 0; m < 2; m++) {
    for (int i = 0; i < 4; i++) dx[i] = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4, enzyme_const, m);
    for (int i = 0; i < 4; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 4, m), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
