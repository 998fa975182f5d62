// Reverse mode: struct values built and passed by value inside the
// differentiated function, returned from helpers.
#include "check.h"
typedef struct { double re, im; } C;
static C cmul(C a, C b) { C r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; return r; }
static C cadd(C a, C b) { C r = {a.re + b.re, a.im + b.im}; return r; }
double f(double x, double y) {
  C z = {x, y}, acc = {0, 0};
  for (int i = 0; i < 3; i++) acc = cadd(cmul(acc, z), z);
  return acc.re * acc.re + acc.im * acc.im;
}
typedef struct { double a, b; } R2;
R2 __enzyme_autodiff2(void *, ...);
int main(void) {
  double x = 0.6, y = -0.3;
  R2 r = __enzyme_autodiff2((void *)f, x, y);
  CHECK("dx", r.a, FD(x, f(x, y), 1e-6), 1e-7);
  CHECK("dy", r.b, FD(y, f(x, y), 1e-6), 1e-7);
  CHECK_DONE();
}
