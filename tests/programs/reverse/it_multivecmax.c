// Reverse: the maximum over several vectors (nested loops, the running
// maximum's position tracked by index and by pointer), then a product of
// the per-vector maxima.
#include "check.h"
__attribute__((noinline)) double multivecmax(double **v, const int *len, int m) {
  double prod = 1;
  for (int k = 0; k < m; k++) {
    const double *best = &v[k][0];
    int bi = 0;
    for (int i = 1; i < len[k]; i++)
      if (v[k][i] > *best) {
        best = &v[k][i];
        bi = i;
      }
    prod *= *best + 0.1 * v[k][bi];
  }
  return prod;
}
int main(void) {
  double a[3] = {0.5, 1.7, -0.2}, b[4] = {2.5, 0.3, 2.1, -1.0}, c[2] = {-0.4, -0.1};
  double da[3] = {0}, db[4] = {0}, dc[2] = {0};
  double *v[3] = {a, b, c}, *dv[3] = {da, db, dc};
  int len[3] = {3, 4, 2};
  __enzyme_autodiff((void *)multivecmax, enzyme_dup, v, dv, enzyme_const, len, enzyme_const, 3);
  double ma = 1.1 * 1.7, mb = 1.1 * 2.5, mc = 1.1 * -0.1;
  CHECK("da1", da[1], 1.1 * mb * mc, 1e-12);
  CHECK("db0", db[0], 1.1 * ma * mc, 1e-12);
  CHECK("dc1", dc[1], 1.1 * ma * mb, 1e-12);
  CHECK("others", da[0] + da[2] + db[1] + db[2] + db[3] + dc[0], 0, 0);
  CHECK_DONE();
}
