// A descriptor global's shadow, queried with __enzyme_shadow, points at the
// shadow of the global it describes (width 1 and each lane of width 2),
// and adjoints / tangents seeded or read through either agree.
#include "check.h"
typedef struct { double d1, d2; } T2;
extern void *__enzyme_shadow(void *, int, int);
extern T2 __enzyme_fwddiff2(double (*)(double), ...) __asm__("__enzyme_fwddiff");
double w[3] = {1.0, 2.0, 3.0};
double *wp = w;
struct { int n; double *data; double *last; } desc = {3, w, &w[2]};
// reads the weights only through the descriptors
double f(double x) {
  double s = 0;
  for (int i = 0; i < desc.n; i++)
    s += desc.data[i] * x * (i + 1);
  return s + wp[1] * x * x + *desc.last;
}
int main() {
  double *dw = (double *)__enzyme_shadow(&w, 1, 0);
  double **dwp = (double **)__enzyme_shadow(&wp, 1, 0);
  char *dd = (char *)__enzyme_shadow(&desc, 1, 0);
  CHECK("shadow of wp is the shadow of w", *dwp == dw, 1, 0);
  CHECK("shadow desc.data", *(double **)(dd + sizeof(double *)) == dw, 1, 0);
  CHECK("shadow desc.last", *(double **)(dd + 2 * sizeof(double *)) == dw + 2, 1, 0);
  CHECK("shadow desc.n", *(int *)dd, 3, 0);
  double x = 1.5;
  for (int i = 0; i < 3; i++)
    dw[i] = 0;
  double dx = __enzyme_autodiff((void *)f, x);
  CHECK("dx", dx, 1.0 + 2.0 * 2 + 3.0 * 3 + 2 * 2.0 * x, 1e-12);
  CHECK("dw0", dw[0], x, 1e-12);
  CHECK("dw1", dw[1], 2 * x + x * x, 1e-12);
  CHECK("dw2", dw[2], 3 * x + 1.0, 1e-12);
  // forward: the tangent of w seeded through the shadow
  dw[0] = 0, dw[1] = 1, dw[2] = 0;
  double t = __enzyme_fwddiff((void *)f, x, 0.0);
  CHECK("t fd", t, FD(w[1], f(x), 1e-6), 1e-6);
  // width 2: each lane's descriptor points at that lane's shadow of w
  double *d0 = (double *)__enzyme_shadow(&w, 2, 0), *d1 = (double *)__enzyme_shadow(&w, 2, 1);
  CHECK("lane 0 wp", *(double **)__enzyme_shadow(&wp, 2, 0) == d0, 1, 0);
  CHECK("lane 1 wp", *(double **)__enzyme_shadow(&wp, 2, 1) == d1, 1, 0);
  d0[0] = 1, d0[1] = 0, d0[2] = 0;
  d1[0] = 0, d1[1] = 0, d1[2] = 1;
  T2 t2 = __enzyme_fwddiff2(f, enzyme_width, 2, x, 0.0, 0.0);
  CHECK("t2.1 fd", t2.d1, FD(w[0], f(x), 1e-6), 1e-6);
  CHECK("t2.2 fd", t2.d2, FD(w[2], f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
