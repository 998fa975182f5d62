// __enzyme_no_escaping_allocation: a local array given to a registered
// (inactive) function stays uncaptured, so loads through pointers loaded
// from memory are read again in the reverse sweep rather than taped
// (lit/iface/no_escaping_allocation.c shows the tape). The gradient is
// the same as without the registration: analytic values and finite
// differences.
#include "check.h"
static double recorded = 0;
__attribute__((noinline)) void record(const double *buf, int n) {
  for (int i = 0; i < n; i++) recorded += buf[i];
}
void *__enzyme_inactivefn[] = {(void *)record};
void *__enzyme_no_escaping_allocation[] = {(void *)record};
typedef struct {
  double *data;
} Vec;
static double f(Vec *v, int n) {
  double tmp[4] = {0};
  double s = 0;
  for (int i = 0; i < n; i++) {
    tmp[i & 3] += v->data[i];
    s += sin(v->data[i]) * v->data[i];
  }
  record(tmp, 4);
  return s;
}
int main(void) {
  enum { N = 6 };
  double x[N] = {0.2, -1.1, 0.7, 2.3, -0.4, 1.6}, dx[N] = {0};
  Vec v = {x}, dv = {dx};
  __enzyme_autodiff((void *)f, enzyme_dup, &v, &dv, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    CHECK("d f", dx[i], cos(x[i]) * x[i] + sin(x[i]), 1e-12);
    CHECK("d f fd", dx[i], FD(x[i], f(&v, N), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
