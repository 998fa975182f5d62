// enzyme_nocache before an argument (Enzyme's marker: its memory is not
// overwritten between the augmented forward and the reverse sweep) is
// accepted in every mode, split or not; the derivatives are unchanged.
#include "../check.h"

static void sq(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0}, y[3] = {0}, dy[3] = {1, 1, 1};
  void *tape = __enzyme_augmentfwd((void *)sq, enzyme_nocache, enzyme_dup, y, dy, enzyme_nocache,
                                   enzyme_dup, x, dx, enzyme_const, 3);
  __enzyme_reverse((void *)sq, enzyme_nocache, enzyme_dup, y, dy, enzyme_nocache, enzyme_dup, x, dx,
                   enzyme_const, 3, tape);
  for (int i = 0; i < 3; i++) {
    CHECK("split: y", y[i], x[i] * x[i], 0);
    CHECK("split: dx", dx[i], 2 * x[i], 1e-12);
  }
  double ex[3] = {0}, ey[3] = {0}, edy[3] = {1, 1, 1};
  __enzyme_autodiff((void *)sq, enzyme_dup, ey, edy, enzyme_nocache, x, ex, 3);
  for (int i = 0; i < 3; i++)
    CHECK("combined: dx", ex[i], 2 * x[i], 1e-12);
  CHECK_DONE();
}
