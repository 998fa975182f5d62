// Reverse: 64-bit (long, size_t) loop counters counting up and down,
// with a stride and an unsigned bound.
#include "check.h"
#include <stdint.h>
__attribute__((noinline)) double f(const double *x, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; i += 2) s += x[i] * x[i + 1];
  for (size_t i = (size_t)n; i-- > 0;) s = s * 0.5 + cos(x[i]);
  for (uint64_t i = 1; i < (uint64_t)n; i++) s += x[i] * x[i - 1] * 0.1;
  return s;
}
int main(void) {
  double x[6] = {0.3, 1.1, -0.6, 0.4, 0.9, -1.3}, dx[6] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, (int64_t)6);
  for (int i = 0; i < 6; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 6), 1e-6), 1e-6);
  CHECK_DONE();
}
