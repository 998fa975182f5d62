// A descriptor global (its initializer points to another global) in a
// context (__enzyme_context): the context's shadow of the descriptor
// points into the context's shadow of the described global, so a
// derivative reaching `a` through `p` accumulates into the context's
// shadow of `a`, each context its own, and __enzyme_shadow of the
// descriptor in a context reads that pointer. Reverse and forward mode;
// checked against analytic values and finite differences.
#include "check.h"
extern void *__enzyme_context(int);
extern void *__enzyme_shadow(void *, void *, int);
extern void __enzyme_zero_shadows(void *);
extern int enzyme_context;
static double a[3] = {1.0, 2.0, 3.0};
static double *p = a;
typedef struct {
  double *data;
  int n;
} Desc;
static double b[2] = {0.5, -1.5};
static Desc d = {b, 2};

// reads a through p and b through d
__attribute__((noinline)) double f(double x) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += p[i] * p[i] * x;
  for (int i = 0; i < d.n; i++) s += sin(d.data[i] * x);
  return s;
}
int main(void) {
  double x = 0.7;
  void *ctx = __enzyme_context(1);
  double *da = (double *)__enzyme_shadow(ctx, &a, 0);
  double *db = (double *)__enzyme_shadow(ctx, &b, 0);
  // the context's shadow of p points at the context's shadow of a
  double **dp = (double **)__enzyme_shadow(ctx, &p, 0);
  Desc *dd = (Desc *)__enzyme_shadow(ctx, &d, 0);
  CHECK("shadow of p -> shadow of a", *dp == da, 1, 0);
  CHECK("shadow of d.data -> shadow of b", dd->data == db, 1, 0);
  for (int round = 1; round <= 2; round++) {
    __enzyme_zero_shadows(ctx);
    CHECK("zeroed keeps the pointer", *dp == da, 1, 0);
    double dx = __enzyme_autodiff((void *)f, enzyme_context, ctx, x);
    CHECK("dx", dx, FD(x, f(x), 1e-6), 1e-6);
    for (int i = 0; i < 3; i++) CHECK("da", da[i], 2 * a[i] * x, 1e-12);
    for (int i = 0; i < 2; i++) CHECK("db", db[i], cos(b[i] * x) * x, 1e-12);
    CHECK("pointer kept after", *dp == da, 1, 0);
  }
  // a second context: its own shadows; the first is untouched
  void *other = __enzyme_context(1);
  __enzyme_autodiff((void *)f, enzyme_context, other, 2 * x);
  double *oa = (double *)__enzyme_shadow(other, &a, 0);
  CHECK("other da", oa[1], 2 * a[1] * 2 * x, 1e-12);
  CHECK("first da kept", da[1], 2 * a[1] * x, 1e-12);
  // forward mode reads the tangent seeded in the context through p
  __enzyme_zero_shadows(ctx);
  da[2] = 1.0;
  double t = __enzyme_fwddiff((void *)f, enzyme_context, ctx, x, 0.0);
  CHECK("fwd", t, 2 * a[2] * x, 1e-12);
  CHECK_DONE();
}
