// Reverse: printf (and fprintf to stderr) inside the differentiated
// function, printing active values; the output has no derivative.
#include "check.h"
__attribute__((noinline)) double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i] * x[i];
    printf("  step %d: s = %g\n", i, s);
  }
  fprintf(stderr, "done, s = %f\n", s);
  return s * s;
}
int main(void) {
  double x[3] = {0.5, 1.0, -0.75}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  double s = 0;
  for (int i = 0; i < 3; i++) s += x[i] * x[i] * x[i];
  for (int i = 0; i < 3; i++) CHECK("dx", dx[i], 2 * s * 3 * x[i] * x[i], 1e-12);
  CHECK_DONE();
}
