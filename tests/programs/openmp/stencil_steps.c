// FLAGS: -fopenmp
// THREADS: 1 2 4
// Time steps of a heat-like stencil inside ONE parallel region: worksharing
// loops separated by implicit barriers (mirrored in the reverse sweep),
// ping-ponging between two buffers, then an energy reduction.
#include "check.h"
#define N 96
#define STEPS 6

double run(double *u, double *v, int n) {
  double e = 0;
#pragma omp parallel
  {
    for (int t = 0; t < STEPS; t++) {
#pragma omp for
      for (int i = 1; i < n - 1; i++) v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.01 * u[i] * u[i];
#pragma omp for
      for (int i = 1; i < n - 1; i++) u[i] = v[i];
    }
#pragma omp for reduction(+ : e)
    for (int i = 0; i < n; i++) e += u[i] * u[i];
  }
  return e;
}

int main(void) {
  double u0[N], u[N], du[N] = {0}, v[N] = {0}, dv[N] = {0};
  for (int i = 0; i < N; i++) u0[i] = exp(-0.01 * (i - 40) * (i - 40));
  for (int i = 0; i < N; i++) u[i] = u0[i];
  __enzyme_autodiff((void *)run, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, N);
  for (int k = 5; k < N; k += 17) {
    double ua[N], va[N] = {0};
    for (int i = 0; i < N; i++) ua[i] = u0[i];
    double h = 1e-6;
    ua[k] = u0[k] + h;
    double fp = run(ua, va, N);
    for (int i = 0; i < N; i++) ua[i] = u0[i], va[i] = 0;
    ua[k] = u0[k] - h;
    double fm = run(ua, va, N);
    CHECK("du fd", du[k], (fp - fm) / (2 * h), 1e-6);
  }
  CHECK_DONE();
}
