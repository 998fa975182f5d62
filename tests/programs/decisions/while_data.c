// A while loop whose trip count depends on the active data: accumulate
// x[i]^2 * p until the sum passes a threshold. The gradient flows through
// the iterations that ran: d/dx[i] = 2 x[i] p (i < stop), d/dp = sum.
#include "../check.h"

static double f(const double *x, double p, int n, double limit) {
  double acc = 0;
  int i = 0;
  while (i < n && acc < limit) {
    acc += x[i] * x[i] * p;
    i++;
  }
  return acc * (1.0 + 0.01 * i);
}

int main(void) {
  double limits[] = {0.0, 0.5, 3.0, 1e9};
  for (int li = 0; li < 4; li++) {
    int n = 30;
    double x[30], dx[30] = {0}, p = 0.8;
    for (int i = 0; i < n; i++) x[i] = 0.3 + 0.05 * ((i * 7) % 11);
    double limit = limits[li];
    double dp = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, p, enzyme_const, n,
                                  enzyme_const, limit);
    // the reference: the same loop, by hand
    double acc = 0;
    int stop = 0;
    while (stop < n && acc < limit) {
      acc += x[stop] * x[stop] * p;
      stop++;
    }
    double scale = 1.0 + 0.01 * stop;
    char name[64];
    for (int i = 0; i < n; i++) {
      snprintf(name, sizeof name, "limit=%g dx[%d]", limit, i);
      CHECK(name, dx[i], i < stop ? 2.0 * x[i] * p * scale : 0.0, 1e-12);
    }
    snprintf(name, sizeof name, "limit=%g dp", limit);
    CHECK(name, dp, acc / p * scale, 1e-12);
    CHECK("dp fd", dp, FD(p, f(x, p, n, limit), 1e-7), 1e-5);
    CHECK("dx[0] fd", dx[0], FD(x[0], f(x, p, n, limit), 1e-7), 1e-5);
  }
  CHECK_DONE();
}
