// Copying doubles through integer registers (unions / memcpy to uint64):
// the shadow bits travel along.
#include "check.h"
#include <stdint.h>
#include <string.h>
typedef union { double d; uint64_t u; } bits;
double via_union(double x) {
  bits b;
  b.d = x * x;
  uint64_t raw = b.u;
  bits c;
  c.u = raw;
  return c.d * 3.0;
}
void copy_words(double *dst, const double *src, int n) {
  for (int i = 0; i < n; i++) {
    uint64_t w;
    memcpy(&w, &src[i], 8);
    memcpy(&dst[i], &w, 8);
  }
}
int main(void) {
  double x = 1.25;
  double d = __enzyme_fwddiff((void *)via_union, x, 1.0);
  CHECK("d union", d, 6 * x, 1e-12);
  CHECK("d union fd", d, FD(x, via_union(x), 1e-6), 1e-6);
  double s[3] = {1, 2, 3}, ds[3] = {0.5, 0.25, 4}, t[3], dt[3] = {9, 9, 9};
  __enzyme_fwddiff((void *)copy_words, enzyme_dup, t, dt, enzyme_dup, s, ds, 3);
  CHECK("dt0", dt[0], 0.5, 0);
  CHECK("dt2", dt[2], 4, 0);
  CHECK("t1", t[1], 2, 0);
  CHECK_DONE();
}
