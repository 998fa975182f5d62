// Reverse: alloca() inside a loop (a new stack block per iteration, filled
// and reduced), and a function using setjmp whose callee may longjmp (not
// taken on the differentiated path).
#include "check.h"
#include <alloca.h>
#include <setjmp.h>
__attribute__((noinline)) double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *t = (double *)alloca((i + 1) * sizeof(double));
    for (int j = 0; j <= i; j++) t[j] = x[j] * x[i];
    for (int j = 0; j <= i; j++) s += t[j];
  }
  return s;
}
static jmp_buf jb;
__attribute__((noinline)) static double g2(double x) { if (x > 10) longjmp(jb, 1); return x * x; }
double g(double x) { if (setjmp(jb)) return 0; return g2(x); }
int main(void) {
  double x[4] = {0.5, -1, 2, 0.3}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 4), 1e-6), 1e-6);
  double y = 1.5;
  CHECK("g", __enzyme_autodiff((void *)g, y), 3.0, 1e-12);
  CHECK_DONE();
}
