// A pointer global whose memory the program allocates outside
// differentiated code (aligned_alloc, malloc, calloc; as newer flang does
// for ALLOCATE), asked for its shadow: the shadow points to a zeroed block
// of the same size, in each context (zeroed with __enzyme_zero_shadows)
// and in the module's shadows (__enzyme_shadow(&p, 1, 0)), and the
// gradient accumulates there.
#include "check.h"
#include <stdlib.h>
extern void *__enzyme_context(int);
extern void *__enzyme_shadow_ctx(void *, void *, int) __asm__("__enzyme_shadow");
extern void *__enzyme_shadow(void *, int, int);
extern void __enzyme_zero_shadows(void *);
extern int enzyme_context;

double *a, *b, *c;
__attribute__((noinline)) void init(void) {
  a = (double *)aligned_alloc(64, 8 * sizeof(double));
  b = (double *)malloc(3 * sizeof(double));
  c = (double *)calloc(2, sizeof(double));
  for (int i = 0; i < 8; i++)
    a[i] = i + 1;
  for (int i = 0; i < 3; i++)
    b[i] = 0.5 * i;
  c[1] = 4.0;
}

double f(double x) {
  double s = 0;
  for (int i = 0; i < 8; i++)
    s += a[i] * a[i] * x;
  return s + b[2] * x + c[1];
}

int main(void) {
  init();
  void *ctx = __enzyme_context(1);
  double **da = (double **)__enzyme_shadow_ctx(ctx, &a, 0);
  double **db = (double **)__enzyme_shadow_ctx(ctx, &b, 0);
  for (int j = 1; j <= 2; j++) {
    __enzyme_zero_shadows(ctx);
    double x = j;
    double dx = __enzyme_autodiff((void *)f, enzyme_context, ctx, x);
    CHECK("dx", dx, 204.0 + b[2], 1e-12);
    for (int i = 0; i < 8; i++)
      CHECK("da[i]", (*da)[i], 2.0 * (i + 1) * x, 1e-12);
    CHECK("db[2]", (*db)[2], x, 1e-12);
    CHECK("db[0]", (*db)[0], 0.0, 0);
  }
  // Without a context: the module's shadows.
  double **mc = (double **)__enzyme_shadow(&c, 1, 0);
  double dx = __enzyme_autodiff((void *)f, 3.0);
  CHECK("dx (module shadows)", dx, 204.0 + b[2], 1e-12);
  CHECK("dc[1] (module shadows)", (*mc)[1], 1.0, 1e-12);
  CHECK("dc[0] (module shadows)", (*mc)[0], 0.0, 0);
  free(a);
  free(b);
  free(c);
  CHECK_DONE();
}
