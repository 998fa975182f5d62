// Reverse mode: doubles copied through integer registers (memcpy into a
// uint64_t and back, a union), which must carry their adjoints along.
#include "check.h"
#include <stdint.h>
#include <string.h>
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    uint64_t bits;
    memcpy(&bits, &x[i], sizeof bits);
    double y;
    memcpy(&y, &bits, sizeof y);
    union { double d; uint64_t u; } un;
    un.d = y * y;
    uint64_t u = un.u;
    union { double d; uint64_t u; } back;
    back.u = u;
    s += back.d;
  }
  return s;
}
int main(void) {
  double x[3] = {1.5, -2, 0.5}, dx[3] = {0};
  __enzyme_autodiff((void *)f, x, dx, 3);
  for (int i = 0; i < 3; i++) CHECK("dpun", dx[i], 2 * x[i], 1e-12);
  CHECK_DONE();
}
