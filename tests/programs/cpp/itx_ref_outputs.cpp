// Reverse mode (C++): results written through double& references (several
// outputs), differentiated w.r.t. a duplicated input array; the outputs'
// shadows carry the seeds.
#include "check.h"
#include <cmath>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, int, const double *, double *, int, double *, double *, int,
                       double *, double *, int, int);
static void stats(const double *x, double &mean, double &rms, int n) {
  mean = 0;
  rms = 0;
  for (int i = 0; i < n; i++) {
    mean += x[i];
    rms += x[i] * x[i];
  }
  mean /= n;
  rms = std::sqrt(rms / n);
}
static void wrapper(const double *x, double *m, double *r, int n) { stats(x, *m, *r, n); }
int main() {
  const int n = 5;
  double x[n] = {0.5, -1.25, 2.0, 0.75, 1.5}, dx[n] = {0};
  double m, dm = 2.0, r, dr = 3.0;  // seeds: gradient of 2*mean + 3*rms
  __enzyme_autodiff((void *)wrapper, enzyme_dup, x, dx, enzyme_dup, &m, &dm, enzyme_dup, &r, &dr,
                    enzyme_const, n);
  double mm, rr, m0, r0;
  stats(x, m0, r0, n);
  CHECK("primal mean", m, m0, 1e-12);
  CHECK("primal rms", r, r0, 1e-12);
  for (int i = 0; i < n; i++) {
    double want = 2.0 / n + 3.0 * x[i] / (n * r0);
    CHECK("dx analytic", dx[i], want, 1e-12);
    double fd = FD(x[i], (stats(x, mm, rr, n), 2 * mm + 3 * rr), 1e-6);
    CHECK("dx fd", dx[i], fd, 1e-6);
  }
  CHECK("seed dm consumed", dm, 0.0, 0);
  CHECK("seed dr consumed", dr, 0.0, 0);
  CHECK_DONE();
}
