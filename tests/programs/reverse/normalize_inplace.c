// Reverse mode: normalize a vector in place, then a weighted sum of it.
#include "check.h"
double f(double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  double inv = 1 / sqrt(s);
  for (int i = 0; i < n; i++) v[i] *= inv;
  double r = 0;
  for (int i = 0; i < n; i++) r += v[i] * (i + 1);
  return r;
}
double g(const double *v0, int n) {
  double v[8];
  for (int i = 0; i < n; i++) v[i] = v0[i];
  return f(v, n);
}
int main(void) {
  double v[4] = {1, -2, 0.5, 3}, dv[4] = {0};
  __enzyme_autodiff((void *)f, v, dv, 4);
  double w[4] = {1, -2, 0.5, 3};
  for (int i = 0; i < 4; i++) CHECK("dnorm fd", dv[i], FD(w[i], g(w, 4), 1e-6), 1e-6);
  CHECK_DONE();
}
