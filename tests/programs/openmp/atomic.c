// FLAGS: -fopenmp
// THREADS: 1 2 4
// omp atomic updates of shared active memory: a histogram-like scatter
// h[i % 5] += x[i]^2 and a total -= x[i], reverse and forward mode.
#include "check.h"
#define N 101

void f(const double *x, double *h, double *tot, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
#pragma omp atomic
    h[i % 5] += v;
#pragma omp atomic
    *tot -= sin(x[i]);
  }
}

int main(void) {
  double x[N], dx[N] = {0}, h[5] = {0}, dh[5] = {1, 2, 3, 4, 5}, tot = 0, dtot = 0.5;
  for (int i = 0; i < N; i++) x[i] = 0.01 * i;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, h, dh, enzyme_dup, &tot, &dtot,
                    enzyme_const, N);
  for (int i = 0; i < N; i++)
    CHECK("dx", dx[i], (i % 5 + 1) * 2 * x[i] - 0.5 * cos(x[i]), 1e-12);
  // forward: tangent of h and tot along dx = 1
  double tx[N], th[5] = {0}, ttot = 0, h2[5] = {0}, tot2 = 0;
  for (int i = 0; i < N; i++) tx[i] = 1.0;
  __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, h2, th, enzyme_dup, &tot2, &ttot,
                   enzyme_const, N);
  double wh[5] = {0}, wt = 0;
  for (int i = 0; i < N; i++) wh[i % 5] += 2 * x[i], wt -= cos(x[i]);
  for (int k = 0; k < 5; k++) CHECK("th", th[k], wh[k], 1e-12);
  CHECK("ttot", ttot, wt, 1e-12);
  CHECK_DONE();
}
