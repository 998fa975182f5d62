// Reverse mode: the gradient of the n-dimensional Rosenbrock function in one
// call. The derivatives are added into the shadow array g.
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdio.h>

double rosenbrock(const double *x, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; i++) {
    double a = 1 - x[i], b = x[i + 1] - x[i] * x[i];
    f += a * a + 100 * b * b;
  }
  return f;
}

int main(void) {
  enum { N = 4 };
  double x[N] = {-1.2, 1.0, 0.5, 0.8}, g[N] = {0};
  __enzyme_autodiff((void *)rosenbrock, enzyme_dup, x, g, enzyme_const, N);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    // the analytic gradient
    double want = 0;
    if (i + 1 < N) want += -2 * (1 - x[i]) - 400 * x[i] * (x[i + 1] - x[i] * x[i]);
    if (i > 0) want += 200 * (x[i] - x[i - 1] * x[i - 1]);
    printf("df/dx%d = %g (analytic %g)\n", i, g[i], want);
    bad |= fabs(g[i] - want) > 1e-9 * (1 + fabs(want));
  }
  return bad;
}
