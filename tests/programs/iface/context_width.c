// A context made for width 2 (__enzyme_context(2)) gives an
// __enzyme_fwddiff call with enzyme_context that width without
// enzyme_width (as Enzyme): the context's lane shadows of a global seed
// its tangents, lane by lane, beside the argument's two tangents.
#include "../check.h"

typedef struct {
  double d[2];
} Tangents;
extern int enzyme_context;
extern void *__enzyme_context(int);
extern void *__enzyme_shadow(void *, void *, int);
Tangents __enzyme_fwddiff_t2(void *, ...) __asm__("__enzyme_fwddiff");

double g = 3.0;
__attribute__((noinline)) double f(double x) { return g * x * x; }

int main(void) {
  void *ctx = __enzyme_context(2);
  double *dg0 = (double *)__enzyme_shadow(ctx, &g, 0);
  double *dg1 = (double *)__enzyme_shadow(ctx, &g, 1);
  *dg0 = 1.0;
  *dg1 = 0.0;
  double x = 2.0;
  // Lane 0: g' = 1, x' = 0; lane 1: g' = 0, x' = 1.
  Tangents t = __enzyme_fwddiff_t2((void *)f, enzyme_context, ctx, x, 0.0, 1.0);
  CHECK("lane 0 (d/dg)", t.d[0], x * x, 1e-12);
  CHECK("lane 1 (d/dx)", t.d[1], 2 * g * x, 1e-12);
  // The same with the width given as well.
  Tangents u = __enzyme_fwddiff_t2((void *)f, enzyme_width, 2, enzyme_context, ctx, x, 0.0, 1.0);
  CHECK("explicit width, lane 0", u.d[0], x * x, 1e-12);
  CHECK("explicit width, lane 1", u.d[1], 2 * g * x, 1e-12);
  return check_failures != 0;
}
