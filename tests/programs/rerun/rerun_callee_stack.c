/* The automatic re-run (forced: every loop that may be) in a callee whose
 * loop reads an array on its caller's stack. The caller's augmented sweep
 * has returned by the time the callee's reverse sweep would run the loop
 * again, so that loop must be taped instead (at -O0 the pointer is read
 * back from its stack slot: the copy the re-run is built on is put through
 * mem2reg, so the pointer is seen to be the parameter). AddressSanitizer
 * (detect_stack_use_after_return) would report the re-run's reads; the
 * gradient is checked against central differences, also for a heap
 * array the caller frees after the call (which the pass counts as
 * overwritten: taped as well). */
// FLAGS: -fplugin=%plugin -mllvm -enzyme-rs-auto-rerun=1
#include "../check.h"
#include <stdlib.h>

__attribute__((noinline)) static double inner(const double *u, double x, long n) {
  double s = x;
  for (long i = 0; i < n; i++)
    s = sin(s) * u[i % 4] + 0.1 * x;
  return s;
}

__attribute__((noinline)) double on_stack(const double *x, long n) {
  double u[4];
  for (int k = 0; k < 4; k++)
    u[k] = x[k] * 0.5 + 0.4;
  return inner(u, x[0], n);
}

__attribute__((noinline)) double on_heap(const double *x, long n) {
  double *u = malloc(4 * sizeof(double));
  for (int k = 0; k < 4; k++)
    u[k] = x[k] * 0.5 + 0.4;
  double r = inner(u, x[0], n);
  free(u);
  return r;
}

#define GRAD(f, n)                                                             \
  do {                                                                         \
    double x[4] = {0.3, 0.5, 0.7, 0.9}, dx[4] = {0};                           \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, (long)(n));  \
    for (int k = 0; k < 4; k++) {                                              \
      char label[64];                                                          \
      snprintf(label, sizeof label, "%s n=%d dx[%d]", #f, (int)(n), k);        \
      CHECK(label, dx[k], FD(x[k], f(x, n), 1e-6), 1e-6);                      \
    }                                                                          \
  } while (0)

int main(void) {
  for (int n = 1; n < 12; n += 5) {
    GRAD(on_stack, n);
    GRAD(on_heap, n);
  }
  return check_failures != 0;
}
