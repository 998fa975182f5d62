// Reverse mode: <2 x double> vectors (vector_size(16)).
#include "check.h"
typedef double v2 __attribute__((vector_size(16)));
double f(const v2 *p, int n) {
  v2 acc = {0, 0};
  for (int i = 0; i < n; i++) acc += p[i] * p[i] * (v2){1.0, 2.0};
  return acc[0] * acc[1];
}
double g(double x, double y) {
  v2 a = {x, y};
  v2 b = a * a + a;
  return b[0] + b[1] * x;
}
typedef struct { double a, b; } R2;
R2 __enzyme_autodiff2(void *, ...);
int main(void) {
  v2 p[3] = {{1, 2}, {0.5, -1}, {2, 0.25}}, dp[3] = {{0, 0}, {0, 0}, {0, 0}};
  __enzyme_autodiff((void *)f, p, dp, 3);
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < 2; k++) CHECK("dv fd", dp[i][k], FD(p[i][k], f(p, 3), 1e-6), 1e-6);
  R2 r = __enzyme_autodiff2((void *)g, 0.7, 1.1);
  CHECK("g dx", r.a, 2 * 0.7 + 1 + (1.1 * 1.1 + 1.1), 1e-12);
  CHECK("g dy", r.b, (2 * 1.1 + 1) * 0.7, 1e-12);
  CHECK_DONE();
}
