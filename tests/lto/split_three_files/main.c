// Split reverse mode with the __enzyme_augmentfwd call (aug.c) and the
// __enzyme_reverse call (rev.c) in different files from each other and from
// the function (f.c, calling blend here): the tape made by one file's
// augmented forward sweep is read by the other file's reverse sweep.
#include "check.h"
double blend(double a, double b) { return 0.3 * a + 0.7 * b + 0.1 * sin(a * b); }
void smooth(double *x, double *out, int n);
void *do_aug(double *x, double *dx, double *out, double *dout, int n);
void do_rev(double *x, double *dx, double *out, double *dout, int n, void *tape);
int main(void) {
  enum { N = 5 };
  double x0[N] = {0.5, 1.2, -0.3, 0.8, 0.4}, x[N], dx[N] = {0}, out, dout = 1.0;
  for (int i = 0; i < N; i++) x[i] = x0[i];
  void *tape = do_aug(x, dx, &out, &dout, N);
  do_rev(x, dx, &out, &dout, N, tape);
  for (int i = 0; i < N; i++) {
    double xp[N], o;
#define OUT(d) (({ for (int k = 0; k < N; k++) xp[k] = x0[k]; xp[i] += (d); smooth(xp, &o, N); }), o)
    CHECK("dx fd", dx[i], (OUT(1e-6) - OUT(-1e-6)) / 2e-6, 1e-6);
  }
  CHECK_DONE();
}
