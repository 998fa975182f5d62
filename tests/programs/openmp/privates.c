// FLAGS: -fopenmp
// THREADS: 1 2 4
// private, firstprivate and lastprivate variables holding active values.
#include "check.h"
#define N 64

double f(const double *x, double *y, double c, int n) {
  double tmp, scale = c * c, last = 0;
#pragma omp parallel for private(tmp) firstprivate(scale) lastprivate(last)
  for (int i = 0; i < n; i++) {
    tmp = x[i] * scale;
    y[i] = tmp * tmp;
    last = tmp + x[i];
  }
  return last;
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N];
  double c = 1.1;
  for (int i = 0; i < N; i++) x[i] = 0.03 * i, dy[i] = 1.0;
  double dc = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, c,
                                enzyme_const, N);
  double s = c * c, wc = 0;
  for (int i = 0; i < N; i++) {
    double want = 2 * x[i] * s * s + (i == N - 1 ? s + 1 : 0);
    CHECK("dx", dx[i], want, 1e-12);
    wc += 2 * x[i] * x[i] * s * 2 * c;
  }
  wc += x[N - 1] * 2 * c;
  CHECK("dc", dc, wc, 1e-11);
  // forward mode along dc = 1 (through the firstprivate copy)
  double tx[N] = {0}, ty[N] = {0};
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y, ty, c, 1.0,
                              enzyme_const, N);
  CHECK("fwd dlast/dc", t, x[N - 1] * 2 * c, 1e-11);
  double wy = 0;
  for (int i = 0; i < N; i++) wy += ty[i];
  double ey = 0;
  for (int i = 0; i < N; i++) ey += 2 * x[i] * x[i] * s * 2 * c;
  CHECK("fwd dy/dc", wy, ey, 1e-11);
  CHECK_DONE();
}
