// Reverse mode: in-place overwrites x[i] = f(x[i]) in loops, repeated.
#include "check.h"
void step(double *x, int n, int reps) {
  for (int r = 0; r < reps; r++)
    for (int i = 0; i < n; i++) x[i] = sin(x[i]) * x[i] + 0.1 * r;
}
double run(double *x, int n) {
  step(x, n, 3);
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}
double wrap(const double *x0, int n) {
  double x[4];
  for (int i = 0; i < n; i++) x[i] = x0[i];
  return run(x, n);
}
int main(void) {
  double x[4] = {0.3, 1.1, -0.7, 2.0}, dx[4] = {0};
  __enzyme_autodiff((void *)wrap, x, dx, 4);
  for (int i = 0; i < 4; i++) CHECK("dinplace fd", dx[i], FD(x[i], wrap(x, 4), 1e-6), 1e-6);
  /* direct in-place on the argument: dx receives d(sum out)/d(x in) */
  double y[4] = {0.3, 1.1, -0.7, 2.0}, dy[4] = {0};
  __enzyme_autodiff((void *)run, y, dy, 4);
  for (int i = 0; i < 4; i++) CHECK("dinplace arg", dy[i], dx[i], 1e-12);
  CHECK_DONE();
}
