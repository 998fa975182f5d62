// Reverse: arrays of double complex (dup pointers to complex data):
// products, quotients and conjugates in a loop, a memcpy of the array,
// and the real part of a complex dot product.
#include "check.h"
#include <complex.h>
#include <string.h>
__attribute__((noinline)) double f(const double complex *z, const double complex *w, int n) {
  double complex t[8];
  memcpy(t, z, n * sizeof(double complex));
  double complex acc = 0;
  for (int i = 0; i < n; i++) acc += t[i] * conj(w[i]) / (1.0 + 0.5 * I * t[i]);
  return creal(acc) + cimag(acc) * 0.5;
}
int main(void) {
  enum { N = 3 };
  double complex z[N] = {0.3 + 0.2 * I, -0.5 + 1.0 * I, 0.8 - 0.4 * I}, w[N] = {1.0 - 0.5 * I, 0.25 + 0.75 * I, -1.2 + 0.1 * I};
  double complex dz[N] = {0}, dw[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, z, dz, enzyme_dup, w, dw, enzyme_const, N);
  double *zr = (double *)z, *wr = (double *)w, *dzr = (double *)dz, *dwr = (double *)dw;
  for (int k = 0; k < 2 * N; k++) {
    CHECK("dz fd", dzr[k], FD(zr[k], f(z, w, N), 1e-6), 1e-6);
    CHECK("dw fd", dwr[k], FD(wr[k], f(z, w, N), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
