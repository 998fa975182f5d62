// Reverse mode: four active scalars (sret struct) and a primal return
// in front of them.
#include "check.h"
typedef struct { double a, b, c, d; } R4;
typedef struct { double p, a, b, c, d; } P4;
R4 __enzyme_autodiff4(void *, ...);
P4 __enzyme_autodiffp4(void *, ...);
double f(double a, double b, double c, double d) { return a * b + c * d + a * d * sin(b); }
int main(void) {
  double a = 1.5, b = 0.3, c = -2, d = 0.9;
  R4 r = __enzyme_autodiff4((void *)f, a, b, c, d);
  CHECK("da", r.a, b + d * sin(b), 1e-12);
  CHECK("db", r.b, a + a * d * cos(b), 1e-12);
  CHECK("dc", r.c, d, 1e-12);
  CHECK("dd", r.d, c + a * sin(b), 1e-12);
  P4 p = __enzyme_autodiffp4((void *)f, enzyme_primal_return, a, b, c, d);
  CHECK("primal", p.p, f(a, b, c, d), 1e-12);
  CHECK("p da", p.a, r.a, 0);
  CHECK("p dd", p.d, r.d, 0);
  CHECK_DONE();
}
