// Reverse mode: <4 x float> vectors with shuffles and element access.
#include "check.h"
typedef float v4 __attribute__((vector_size(16)));
float f(const v4 *a, const v4 *b) {
  v4 p = *a * *b;
  v4 r = __builtin_shufflevector(p, *a, 3, 2, 5, 0);
  v4 q = r * r + p;
  return q[0] + q[1] + q[2] + q[3];
}
int main(void) {
  v4 a = {1, 2, 3, 4}, b = {0.5f, -1, 2, 0.25f}, da = {0, 0, 0, 0}, db = {0, 0, 0, 0};
  __enzyme_autodiff((void *)f, &a, &da, &b, &db);
  for (int k = 0; k < 4; k++) {
    CHECK("da fd", da[k], FD(a[k], f(&a, &b), 1e-3), 2e-3);
    CHECK("db fd", db[k], FD(b[k], f(&a, &b), 1e-3), 2e-3);
  }
  /* analytic: q = r^2 + p, r = (p3, p2, a1, p0) */
  CHECK("da0", da[0], b[0] + 2 * a[0] * b[0] * b[0], 1e-5);
  CHECK("da1", da[1], b[1] + 2 * a[1], 1e-5);
  CHECK_DONE();
}
