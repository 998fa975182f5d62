// Reverse: a while loop chasing indices stored in an int array (a linked
// list by index) with a data-dependent length, accumulating values.
#include "check.h"
__attribute__((noinline)) double chase(const double *v, const int *next, int start) {
  double s = 0, w = 1;
  int i = start;
  while (i >= 0) {
    s += w * v[i] * v[i];
    w *= 0.5 + v[i] * 0.1;
    i = next[i];
  }
  return s;
}
int main(void) {
  double v[6] = {0.3, 1.2, -0.5, 0.8, 2.0, -1.1}, dv[6] = {0};
  int next[6] = {4, -1, 0, 2, 1, 3}; /* 5 -> 3 -> 2 -> 0 -> 4 -> 1 */
  __enzyme_autodiff((void *)chase, enzyme_dup, v, dv, enzyme_const, next, enzyme_const, 5);
  for (int i = 0; i < 6; i++) CHECK("dv fd", dv[i], FD(v[i], chase(v, next, 5), 1e-6), 1e-6);
  CHECK_DONE();
}
