// Split mode with a caller-provided tape: __enzyme_augmentsize gives its
// size, enzyme_allocated + enzyme_tape pass the buffer to both sweeps;
// the function has a loop whose values the reverse sweep needs. (As in
// Enzyme, the size after enzyme_allocated must be a compile-time
// constant: a literal here, checked against __enzyme_augmentsize.)
#include "check.h"
int __enzyme_augmentsize(void *, ...);
void __enzyme_reverse_t(void *, ...);
extern int enzyme_tape, enzyme_allocated;
__attribute__((noinline)) double f(double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; i++) {
    p *= sin(x[i]) + 2;
    x[i] = p;
  }
  return p;
}
int main(void) {
  enum { N = 4 };
  double x0[N] = {0.3, 1.1, -0.7, 2.0}, x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = x0[i];
  int size = __enzyme_augmentsize((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  printf("tape size %d\n", size);
  CHECK("tape fits", size <= 256, 1, 0);
  void *buf = malloc(256);
  __enzyme_augmentfwd((void *)f, enzyme_allocated, 256, enzyme_tape, buf, enzyme_dup, x, dx, enzyme_const, N);
  __enzyme_reverse_t((void *)f, enzyme_allocated, 256, enzyme_dup, x, dx, enzyme_const, N, 1.0, enzyme_tape,
                     buf);
  double p = 1;
  for (int i = 0; i < N; i++) p *= sin(x0[i]) + 2;
  for (int i = 0; i < N; i++) CHECK("dx", dx[i], p / (sin(x0[i]) + 2) * cos(x0[i]), 1e-12);
  free(buf);
  CHECK_DONE();
}
