// __enzyme_function_like: a user allocator and deallocator treated like
// malloc and free (shadow allocations made the same way), in forward and
// reverse mode.
// LEVELS: O0 O1 O2 O3
#include "check.h"

static long live = 0;
__attribute__((noinline)) void *pool_alloc(size_t n) {
  live++;
  return malloc(n);
}
__attribute__((noinline)) void pool_free(void *p) {
  live--;
  free(p);
}
void *__enzyme_function_like[] = {(void *)pool_alloc, (void *)"malloc"};
void *__enzyme_function_like_free[] = {(void *)pool_free, (void *)"free"};

double f(const double *x, int n) {
  double *t = pool_alloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = sin(x[i]) * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i];
  pool_free(t);
  return s;
}

int main(void) {
  enum { n = 4 };
  double x[n] = {0.2, 0.5, -0.3, 0.9}, dx[n] = {0};
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, n);
  CHECK("balanced after reverse", live, 0, 0);
  long before = live;
  for (int j = 0; j < n; j++) CHECK("reverse", dx[j], FD(x[j], f(x, n), 1e-6), 1e-6);
  for (int j = 0; j < n; j++) {
    double t[n] = {0};
    t[j] = 1;
    double d = __enzyme_fwddiff((void *)f, x, t, enzyme_const, n);
    CHECK("forward", d, FD(x[j], f(x, n), 1e-6), 1e-6);
  }
  CHECK("balanced forward", live, before, 0);
  CHECK_DONE();
}
