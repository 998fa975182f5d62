// Functions returning structs: a two-double struct (registers) gives its
// tangent struct; a large struct (returned through a hidden sret pointer)
// too; a result type with room for two copies gives {primal, tangent}.
#include "check.h"
typedef struct { double re, im; } cplx;
typedef struct { double a, b, c; } tri;
typedef struct { tri p, d; } tri_pd;
cplx expi(double t) { return (cplx){cos(t), sin(t)}; }
tri powers(double t, double k) { return (tri){k * t, t * t, t * t * t}; }
cplx __enzyme_fwddiff_c(void *, double, double);
tri __enzyme_fwddiff_t(void *, ...);
tri_pd __enzyme_fwddiff_tpd(void *, ...);
int main(void) {
  double t = 0.3, k = 2.0;
  cplx d = __enzyme_fwddiff_c((void *)expi, t, 1.0);
  CHECK("re", d.re, -sin(t), 1e-12);
  CHECK("im", d.im, cos(t), 1e-12);
  CHECK("re fd", d.re, FD(t, expi(t).re, 1e-6), 1e-6);
  tri e = __enzyme_fwddiff_t((void *)powers, t, 1.0, enzyme_const, k);
  CHECK("a", e.a, k, 1e-12);
  CHECK("b", e.b, 2 * t, 1e-12);
  CHECK("c", e.c, 3 * t * t, 1e-12);
  CHECK("c fd", e.c, FD(t, powers(t, k).c, 1e-6), 1e-6);
  tri_pd both = __enzyme_fwddiff_tpd((void *)powers, enzyme_const, t, k, 1.0);
  CHECK("primal a", both.p.a, k * t, 1e-12);
  CHECK("primal c", both.p.c, t * t * t, 1e-12);
  CHECK("da/dk", both.d.a, t, 1e-12);
  CHECK("db/dk", both.d.b, 0, 0);
  CHECK_DONE();
}
