// Reverse mode: struct of arrays (pointers inside a struct).
#include "check.h"
typedef struct { double *x; double *w; int n; } SoA;
double wsum(const SoA *s) {
  double r = 0;
  for (int i = 0; i < s->n; i++) r += s->w[i] * tanh(s->x[i]);
  return r;
}
int main(void) {
  double x[4] = {0.1, 0.5, -1, 2}, w[4] = {1, 2, 3, 4};
  double dx[4] = {0}, dw[4] = {0};
  SoA s = {x, w, 4}, ds = {dx, dw, 4};
  __enzyme_autodiff((void *)wsum, &s, &ds);
  for (int i = 0; i < 4; i++) {
    double t = tanh(x[i]);
    CHECK("dx", dx[i], w[i] * (1 - t * t), 1e-12);
    CHECK("dw", dw[i], t, 1e-12);
  }
  CHECK_DONE();
}
