// A struct holding a data pointer: the shadow struct holds the shadow
// data pointer (its other fields are read from the primal).
#include "check.h"
typedef struct { double *data; int n; double scale; } vec;
double norm2(const vec *v) {
  double s = 0;
  for (int i = 0; i < v->n; i++) s += v->data[i] * v->data[i];
  return s * v->scale;
}
void axpy(double a, const vec *x, vec *y) {
  for (int i = 0; i < x->n; i++) y->data[i] += a * x->data[i];
}
int main(void) {
  double d[3] = {1, 2, 3}, dd[3] = {1, 0, 1};
  vec v = {d, 3, 0.5}, dv = {dd, 3, 1.0};
  double r = __enzyme_fwddiff((void *)norm2, &v, &dv);
  CHECK("d norm2", r, 0.5 * (2 * 1 * 1 + 2 * 3 * 1) + 14 * 1.0, 1e-12);
  dd[0] = 0; dd[2] = 0; dv.scale = 0; dd[1] = 1;
  r = __enzyme_fwddiff((void *)norm2, &v, &dv);
  CHECK("d norm2 fd", r, FD(d[1], norm2(&v), 1e-6), 1e-6);
  double yd[3] = {0, 0, 0}, dyd[3] = {0, 0, 0};
  vec y = {yd, 3, 1}, dy = {dyd, 3, 0};
  double a = 2.0;
  __enzyme_fwddiff((void *)axpy, a, 1.0, enzyme_const, &v, &y, &dy);
  for (int i = 0; i < 3; i++) CHECK("d axpy/da", dyd[i], d[i], 1e-12);
  CHECK("primal y", yd[2], 6, 1e-12);
  CHECK_DONE();
}
