// A two-element struct result returns {primal, tangent}.
#include "check.h"
typedef struct { double p, d; } pd;
pd __enzyme_fwddiff_pd(void *, ...);
typedef struct { float p, d; } pdf;
pdf __enzyme_fwddiff_pdf(void *, float, float);
double f(double x, double y) { return exp(x) * y; }
float g(float x) { return x * x * x; }
int main(void) {
  double x = 0.4, y = 2.5;
  pd r = __enzyme_fwddiff_pd((void *)f, x, 1.0, y, 0.0);
  CHECK("primal", r.p, exp(x) * y, 1e-12);
  CHECK("tangent", r.d, exp(x) * y, 1e-12);
  CHECK("tangent fd", r.d, FD(x, f(x, y), 1e-6), 1e-6);
  r = __enzyme_fwddiff_pd((void *)f, enzyme_const, x, enzyme_dup, y, 1.0);
  CHECK("primal 2", r.p, exp(x) * y, 1e-12);
  CHECK("tangent dy", r.d, exp(x), 1e-12);
  pdf q = __enzyme_fwddiff_pdf((void *)g, 2.0f, 1.0f);
  CHECK("float primal", q.p, 8.0, 1e-6);
  CHECK("float tangent", q.d, 12.0, 1e-6);
  CHECK_DONE();
}
