// Split reverse mode across files: __enzyme_augmentfwd and
// __enzyme_reverse here, the function (overwriting its input, calling a
// helper in a third file) in f.c; the tape travels between the two calls.
#include "check.h"
void smooth(double *x, double *out, int n);
int main(void) {
  enum { N = 5 };
  double x0[N] = {0.5, 1.2, -0.3, 0.8, 0.4}, x[N], dx[N] = {0}, out, dout = 1.0;
  for (int i = 0; i < N; i++) x[i] = x0[i];
  void *tape = __enzyme_augmentfwd((void *)smooth, enzyme_dup, x, dx, enzyme_dup, &out, &dout,
                                   enzyme_const, N);
  __enzyme_reverse((void *)smooth, enzyme_dup, x, dx, enzyme_dup, &out, &dout, enzyme_const, N,
                   tape);
  for (int i = 0; i < N; i++) {
    double xp[N], o;
#define OUT(d) (({ for (int k = 0; k < N; k++) xp[k] = x0[k]; xp[i] += (d); smooth(xp, &o, N); }), o)
    CHECK("dx fd", dx[i], (OUT(1e-6) - OUT(-1e-6)) / 2e-6, 1e-6);
  }
  CHECK_DONE();
}
