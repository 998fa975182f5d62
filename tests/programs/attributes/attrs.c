// FLAGS: -fplugin=%plugin
// Enzyme's source attributes through the clang plugin (-fplugin= the same
// .so): enzyme_shadow on a global (its shadow receives the gradient),
// enzyme_inactive on a function (no derivative through it) and on a global,
// enzyme_function_like("malloc"/"free") on a user allocator declared
// before its definition, and the hints (accepted, no effect).
#include "../check.h"
#include <stdlib.h>

double d_g[2];
double g[2] __attribute__((enzyme_shadow(d_g))) = {1.5, 2.0};
double scale __attribute__((enzyme_inactive)) = 3.0;

static int calls;
__attribute__((enzyme_inactive)) __attribute__((noinline)) double noisy(double x) {
  calls++;
  return 1e-3 * x * x;
}
__attribute__((enzyme_function_like("malloc"))) void *my_alloc(size_t n);
__attribute__((enzyme_function_like("free"))) void my_free(void *p);
__attribute__((noinline)) void *my_alloc(size_t n) { return malloc(n); }
__attribute__((noinline)) void my_free(void *p) { free(p); }

__attribute__((enzyme_notypeanalysis, enzyme_no_escaping_allocation, enzyme_checkpoint,
               noinline)) double
sq(double x) {
  return x * x;
}

double f(double x) {
  double *t = (double *)my_alloc(2 * sizeof(double));
  t[0] = x * g[0];
  t[1] = sin(x) * g[1];
  double r = t[0] * t[1] + noisy(x) + sq(x) * scale;
  my_free(t);
  return r;
}

double plainf(double x) { return x * g[0] * sin(x) * g[1] + noisy(x) + sq(x) * scale; }

int main(void) {
  double x = 0.7;
  double d = __enzyme_autodiff((void *)f, x);
  double want = g[0] * g[1] * (sin(x) + x * cos(x)) + 2 * x * scale;
  CHECK("df/dx (noisy inactive)", d, want, 1e-12);
  CHECK("d_g[0]", d_g[0], x * sin(x) * g[1], 1e-12);
  CHECK("d_g[1]", d_g[1], x * g[0] * sin(x), 1e-12);
  double fd = FD(g[0], plainf(x), 1e-6);
  CHECK("d_g[0] fd", d_g[0], fd, 1e-6);
  CHECK("noisy ran", calls > 0, 1, 0);
  CHECK_DONE();
}
