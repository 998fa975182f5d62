// The function differentiated lives in a static library (lib/, archived
// with llvm-ar from LTO objects) and calls another archive member.
#include "check.h"
double loss(const double *p, const double *data, int n);
int main(void) {
  enum { N = 8 };
  double data[N], p[3] = {0.5, -0.2, 1.1}, dp[3] = {0};
  for (int i = 0; i < N; i++) data[i] = sin(0.3 * i) + 0.1 * i;
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp, enzyme_const, data, enzyme_const, N);
  for (int j = 0; j < 3; j++) CHECK("dloss fd", dp[j], FD(p[j], loss(p, data, N), 1e-6), 1e-6);
  CHECK_DONE();
}
