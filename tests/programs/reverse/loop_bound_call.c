// A loop whose bound is the result of a call that takes the differentiated
// pointer (n = count(x)), with signed and unsigned counters, and a
// max-reduction over it. At -O0 the loop's trip count is that call's result
// itself, which the augmented sweep replaces by the callee's augmented
// call: the reverse sweep once read the deleted call (a crash, or a wrong
// counter and a segfault).
#include "../check.h"

__attribute__((noinline)) unsigned long count_u(const double *x) { return x[0] > -1e300 ? 4 : 0; }
__attribute__((noinline)) long count_s(const double *x) { return x[1] > -1e300 ? 4 : 0; }

double sum_u(const double *x) {
  unsigned long n = count_u(x);
  double r = 0;
  for (unsigned long i = 0; i < n; i++)
    r += x[i] * x[i] * (double)(i + 1);
  return r;
}

double sum_s(const double *x) {
  long n = count_s(x);
  double r = 0;
  for (long i = 0; i < n; i++)
    r += sin(x[i]) * x[(i + 1) % n];
  return r;
}

double max_u(const double *x) {
  double m = x[0];
  for (unsigned long i = 1; i < count_u(x); i++)
    if (x[i] > m)
      m = x[i];
  return m * m;
}

#define CHECK_GRAD(f, x)                                                       \
  do {                                                                         \
    double dx[4] = {0}, xp[4];                                                 \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx);                           \
    for (int k = 0; k < 4; k++) {                                              \
      for (int j = 0; j < 4; j++)                                              \
        xp[j] = x[j];                                                          \
      double h = 1e-6;                                                         \
      xp[k] = x[k] + h;                                                        \
      double fp = f(xp);                                                       \
      xp[k] = x[k] - h;                                                        \
      double fm = f(xp);                                                       \
      char name[64];                                                           \
      snprintf(name, sizeof name, "%s dx[%d]", #f, k);                         \
      CHECK(name, dx[k], (fp - fm) / (2 * h), 1e-6);                           \
    }                                                                          \
  } while (0)

int main(void) {
  double x[4] = {0.5, -1.25, 2.0, 0.75};
  CHECK_GRAD(sum_u, x);
  CHECK_GRAD(sum_s, x);
  CHECK_GRAD(max_u, x);
  double dx[4] = {0};
  __enzyme_autodiff((void *)sum_u, enzyme_dup, x, dx);
  for (int k = 0; k < 4; k++)
    CHECK("sum_u analytic", dx[k], 2 * x[k] * (k + 1), 1e-12);
  return check_failures != 0;
}
