// Reverse mode (C++): new[]/delete[] temporaries and a struct allocated
// with new inside the differentiated function.
#include "check.h"
struct Acc {
  double sum = 0, sq = 0;
  void add(double v) { sum += v; sq += v * v; }
};
extern "C" double variance(const double *x, int n) {
  double *t = new double[n];
  for (int i = 0; i < n; i++) t[i] = x[i] * 2 - 1;
  Acc *a = new Acc();
  for (int i = 0; i < n; i++) a->add(t[i]);
  double m = a->sum / n, v = a->sq / n - m * m;
  delete a;
  delete[] t;
  return v;
}
int main() {
  double x[5] = {0.5, 1.5, -0.25, 2, 0.75}, dx[5] = {0};
  __enzyme_autodiff((void *)variance, x, dx, 5);
  for (int i = 0; i < 5; i++) CHECK("dvar fd", dx[i], FD(x[i], variance(x, 5), 1e-6), 1e-6);
  CHECK_DONE();
}
