// FLAGS: -fopenmp
// THREADS: 1 2 4
// Two nowait worksharing loops on independent data, then a barrier and a
// loop reading both.
#include "check.h"
#define N 77

void f(const double *x, double *a, double *b, double *out, int n) {
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++) a[i] = x[i] * x[i];
#pragma omp for nowait schedule(static, 2)
    for (int i = 0; i < n; i++) b[i] = sin(x[i]);
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++) out[i] = a[n - 1 - i] * b[i];
  }
}

int main(void) {
  double x[N], dx[N] = {0}, a[N], da[N] = {0}, b[N], db[N] = {0}, o[N], dO[N];
  for (int i = 0; i < N; i++) x[i] = 0.02 * i + 0.1, dO[i] = 1.0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, a, da, enzyme_dup, b, db,
                    enzyme_dup, o, dO, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    // x_k enters a[k] (used by out[n-1-k]) and b[k] (used by out[k])
    double want = 2 * x[k] * sin(x[N - 1 - k]) + cos(x[k]) * x[N - 1 - k] * x[N - 1 - k];
    CHECK("dx", dx[k], want, 1e-12);
  }
  CHECK_DONE();
}
