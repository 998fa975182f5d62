#include "check.h"
extern void *__enzyme_context(int);
extern void *__enzyme_shadow(void *, void *, int);
extern void __enzyme_zero_shadows(void *);
extern int enzyme_context;
typedef struct { double d1, d2; } T2;
extern T2 __enzyme_fwddiff2(double (*)(double), ...) __asm__("__enzyme_fwddiff");
double scale = 2.0;
double weights[2] = {3.0, 5.0};
double hidden = 7.0;
double f(double x) { return scale * (weights[0] + weights[1]) * x * x + hidden * x; }
int main() {
  void *ctx = __enzyme_context(1);
  double *ds = (double *)__enzyme_shadow(ctx, &scale, 0);
  double *dw = (double *)__enzyme_shadow(ctx, &weights, 0);
  double *dh = (double *)__enzyme_shadow(ctx, &hidden, 0);
  for (int i = 1; i <= 3; i++) {
    __enzyme_zero_shadows(ctx);
    double x = i;
    double dx = __enzyme_autodiff((void *)f, enzyme_context, ctx, x);
    CHECK("dx", dx, 2 * 2.0 * 8.0 * x + 7.0, 1e-12);
    CHECK("ds", *ds, 8.0 * x * x, 1e-12);
    CHECK("dw0", dw[0], 2.0 * x * x, 1e-12);
    CHECK("dw1", dw[1], 2.0 * x * x, 1e-12);
    CHECK("dh", *dh, x, 1e-12);
  }
  /* another context: own shadows */
  void *other = __enzyme_context(1);
  __enzyme_autodiff((void *)f, enzyme_context, other, 3.0);
  CHECK("other ds", *(double *)__enzyme_shadow(other, &scale, 0), 8.0 * 9.0, 1e-12);
  CHECK("ctx ds kept", *ds, 8.0 * 9.0, 1e-12);
  /* forward mode reads the tangents seeded in the context */
  __enzyme_zero_shadows(ctx);
  *ds = 1.0;
  double t = __enzyme_fwddiff((void *)f, enzyme_context, ctx, 3.0, 0.0);
  CHECK("fwd", t, 8.0 * 9.0, 1e-12);
  void *c2 = __enzyme_context(2);
  double *dw_0 = (double *)__enzyme_shadow(c2, &weights[1], 0);
  double *dh_1 = (double *)__enzyme_shadow(c2, &hidden, 1);
  *dw_0 = 1.0; *dh_1 = 1.0;
  T2 t2 = __enzyme_fwddiff2(f, enzyme_width, 2, enzyme_context, c2, 3.0, 0.0, 0.0);
  CHECK("fwd2 lane0", t2.d1, 2.0 * 9.0, 1e-12);
  CHECK("fwd2 lane1", t2.d2, 3.0, 1e-12);
  CHECK_DONE();
}
