// Enzyme-style: a struct mixing ints, pointers and doubles passed with a
// shadow struct whose pointers point at shadow data.
#include <stdio.h>
#include <math.h>
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
typedef struct { int n; double scale; double *data; } Obj;
double objnorm(Obj *o) {
  double s = 0;
  for (int i = 0; i < o->n; i++) s += o->data[i] * o->data[i];
  return o->scale * sqrt(s);
}
int main() {
  double d[3] = {3, 0, 4}, dd[3] = {0};
  Obj o = {3, 2.0, d}, doo = {3, 0.0, dd};
  __enzyme_autodiff((void *)objnorm, enzyme_dup, &o, &doo);
  printf("dscale %f dd %f %f %f\n", doo.scale, dd[0], dd[1], dd[2]);
  return !(fabs(doo.scale - 5) < 1e-12 && fabs(dd[0] - 1.2) < 1e-12 && dd[1] == 0 &&
           fabs(dd[2] - 1.6) < 1e-12);
}
