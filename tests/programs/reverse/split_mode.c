// Split reverse mode: augmented forward sweeps for several inputs keep
// their tapes; the reverse sweeps run later, in another order.
#include "check.h"
void *__enzyme_augmentfwd(void *, ...);
typedef struct { double dx, dy; } D2;
D2 __enzyme_reverse2(void *, ...);
double __enzyme_reverse1(void *, ...);
int __enzyme_augmentsize(void *, ...);
extern int enzyme_tape, enzyme_allocated;

double f(double x, double y) {
  double s = 0;
  for (int i = 1; i <= 4; i++) s += sin(x * i) * y + x * x / i;
  return s;
}
double g(double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i] * a[i];
  return s;
}
int main(void) {
  double xs[3] = {0.3, -1.2, 2.0}, ys[3] = {1.5, 0.7, -0.4};
  void *tapes[3];
  for (int k = 0; k < 3; k++) tapes[k] = __enzyme_augmentfwd((void *)f, xs[k], ys[k]);
  int order[3] = {2, 0, 1};
  for (int j = 0; j < 3; j++) {
    int k = order[j];
    D2 d = __enzyme_reverse2((void *)f, xs[k], ys[k], 1.0, tapes[k]);
    double x = xs[k], y = ys[k];
    CHECK("df/dx", d.dx, FD(x, f(x, y), 1e-6), 1e-6);
    CHECK("df/dy", d.dy, FD(y, f(x, y), 1e-6), 1e-6);
  }
  // A seed other than 1 scales the gradient.
  void *t = __enzyme_augmentfwd((void *)f, 0.5, 2.0);
  D2 d = __enzyme_reverse2((void *)f, 0.5, 2.0, 3.0, enzyme_tape, t);
  double x = 0.5, y = 2.0;
  CHECK("seeded df/dx", d.dx, 3 * FD(x, f(x, y), 1e-6), 1e-6);
  // Pointers, with the tape in caller-provided memory.
  double a[4] = {1, -2, 0.5, 3}, da[4] = {0};
  int size = __enzyme_augmentsize((void *)g, enzyme_dup, a, da, enzyme_const, 4);
  CHECK("augmentsize positive", size > 0, 1, 0);
  char buf[64];
  __enzyme_augmentfwd((void *)g, enzyme_allocated, (int)sizeof buf, enzyme_tape, buf, enzyme_dup, a, da, enzyme_const, 4);
  __enzyme_reverse1((void *)g, enzyme_allocated, (int)sizeof buf, enzyme_dup, a, da, enzyme_const, 4, 1.0, enzyme_tape, buf);
  for (int i = 0; i < 4; i++) CHECK("dg/da", da[i], 3 * a[i] * a[i], 1e-12);
  CHECK_DONE();
}
