// LDFLAGS: -Wl,-mllvm,-import-instr-limit=5000
// A function too large for ThinLTO's default import limit: the link
// raises the limit as the error message (and README) say; full LTO needs
// nothing.
#include "check.h"
double big(const double *x, int n);
int main(void) {
  enum { N = 5 };
  double x[N] = {0.1, 0.4, -0.3, 0.8, 0.2}, dx[N] = {0};
  __enzyme_autodiff((void *)big, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) CHECK("dbig fd", dx[i], FD(x[i], big(x, N), 1e-6), 1e-6);
  CHECK_DONE();
}
