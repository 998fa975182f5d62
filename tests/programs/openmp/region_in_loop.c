// FLAGS: -fopenmp
// THREADS: 1 2 4
// A parallel region inside a serial time loop: every step forks (and its
// reverse forks again, last step first), each with its own thread tapes.
#include "check.h"
#define N 40
#define STEPS 5

double f(double *u, double *tmp, double k, int n) {
  for (int t = 0; t < STEPS; t++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++) tmp[i] = u[i] + k * sin(u[(i + 1) % n]);
#pragma omp parallel for
    for (int i = 0; i < n; i++) u[i] = tmp[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i] * u[i];
  return s;
}

int main(void) {
  double u0[N], u[N], du[N] = {0}, tmp[N], dtmp[N] = {0};
  double k = 0.3;
  for (int i = 0; i < N; i++) u0[i] = u[i] = cos(0.2 * i);
  double dk = __enzyme_autodiff((void *)f, enzyme_dup, u, du, enzyme_dup, tmp, dtmp, k,
                                enzyme_const, N);
  double ua[N];
#define F_AT(kk) ({ for (int j = 0; j < N; j++) ua[j] = u0[j]; f(ua, tmp, (kk), N); })
  double h = 1e-6;
  CHECK("dk fd", dk, (F_AT(k + h) - F_AT(k - h)) / (2 * h), 1e-6);
  for (int m = 0; m < N; m += 9) {
    double fp, fm;
    for (int j = 0; j < N; j++) ua[j] = u0[j];
    ua[m] += h;
    fp = f(ua, tmp, k, N);
    for (int j = 0; j < N; j++) ua[j] = u0[j];
    ua[m] -= h;
    fm = f(ua, tmp, k, N);
    CHECK("du fd", du[m], (fp - fm) / (2 * h), 1e-6);
  }
  CHECK_DONE();
}
