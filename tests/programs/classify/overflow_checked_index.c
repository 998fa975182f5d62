// FLAGS: -ftrapv
// Integer intrinsics with struct results: -ftrapv (like UBSan's
// signed-overflow check) turns index arithmetic into
// llvm.smul/sadd.with.overflow returning {i64, i1}; they carry no
// derivative and must not stop differentiation. Also the saturating and
// overflow builtins (__builtin_umull_overflow). The index is also read
// from a struct beside a shadowed pointer (as in an Eigen evaluator).
#include "check.h"
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct { const double *data; long stride; } View;
__attribute__((noinline)) static double at(const View *v, long i) { return v->data[i * v->stride]; }
static double f(const double *x, long stride, long n) {
  View v = {x, stride};
  double s = 0;
  for (long i = 0; i < n; i++) {
    long k = i * stride + 1;
    s += x[k] * x[k - 1] + sin(at(&v, i));
  }
  unsigned long m;
  if (!__builtin_umull_overflow((unsigned long)n, 2ul, &m)) s *= (double)(m % 3 + 1);
  return s;
}
int main(void) {
  double x[12], dx[12] = {0};
  for (int i = 0; i < 12; i++) x[i] = 0.3 * i - 1.1;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 2L, enzyme_const, 5L);
  for (int i = 0; i < 12; i++) {
    CHECK("dx fd", dx[i], FD(x[i], f(x, 2, 5), 1e-6), 1e-6);
    double t[12] = {0};
    t[i] = 1;
    CHECK("fwd", __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, 2L, enzyme_const, 5L), dx[i], 1e-10);
  }
  CHECK_DONE();
}
