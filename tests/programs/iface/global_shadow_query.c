#include "check.h"
typedef struct { double d1, d2; } T2;
extern void *__enzyme_shadow(void *, int, int);
extern T2 __enzyme_fwddiff2(double (*)(double), ...) __asm__("__enzyme_fwddiff");
double g = 2.0;
struct { double a; double b; } blk = {1.0, 3.0};
double f(double x) { return g * x * x + blk.b * x; }
int main() {
  double *dg = (double *)__enzyme_shadow(&g, 1, 0);
  double *db = (double *)__enzyme_shadow(&blk.b, 1, 0);
  *dg = 0; *db = 0;
  double dx = __enzyme_autodiff((void*)f, 3.0);
  CHECK("dx", dx, 2*2.0*3.0+3.0, 1e-12);
  CHECK("dg", *dg, 9.0, 1e-12);
  CHECK("db", *db, 3.0, 1e-12);
  *dg = 1.0; *db = 0.0;
  double t = __enzyme_fwddiff((void*)f, 3.0, 0.0);
  CHECK("t", t, 9.0, 1e-12);
  double *dg0 = (double *)__enzyme_shadow(&g, 2, 0), *dg1 = (double *)__enzyme_shadow(&g, 2, 1);
  double *db0 = (double *)__enzyme_shadow(&blk.b, 2, 0), *db1 = (double *)__enzyme_shadow(&blk.b, 2, 1);
  *dg0 = 1; *dg1 = 0; *db0 = 0; *db1 = 1;
  T2 t2 = __enzyme_fwddiff2(f, enzyme_width, 2, 3.0, 0.0, 0.0);
  CHECK("t2.1", t2.d1, 9.0, 1e-12);
  CHECK("t2.2", t2.d2, 3.0, 1e-12);
  CHECK("dg unchanged", *dg, 1.0, 0);
  CHECK_DONE();
}
