// A scratch array read by one loop and refilled with other data for a
// later loop (rev/recompute.rs: a writer that runs only after the read
// does not stop recomputing the read value from the store that wrote it).
// The first reader's values are recomputed from x and m, the second's read
// again (nothing writes t after it); a refill inside an outer loop, where
// each writer runs before the other's reads, keeps the values on the tape.
// Each gradient against its analytic value and central differences.
#include "check.h"

#define D 7
// refilled (x, m, d): the kernel whose tape lit/tape/scratch_forward_o2.c
// checks.
#include "../../../lit/tape/scratch_forward_o2.c"
// The refill, then a clear after the last reader.
double cleared(const double *x, const double *m, int d) {
  double *t = malloc(sizeof(double) * d);
  double s = 0;
  for (int j = 0; j < d; j++) t[j] = sin(x[j]) * m[j];
  for (int j = 0; j < d; j++) s += t[j] * t[j] * t[j];
  for (int j = 0; j < d; j++) t[j] = 0;
  s += t[d / 2];
  free(t);
  return s;
}
// Two rounds: each writer's values are overwritten by the other's before
// the next round reads them.
double rounds(const double *x, const double *m, int d) {
  double *t = malloc(sizeof(double) * d);
  double s = 0;
  for (int r = 0; r < 3; r++) {
    for (int j = 0; j < d; j++) t[j] = x[j] * m[j] + r;
    for (int j = 0; j < d; j++) s += t[j] * t[j];
    for (int j = 0; j < d; j++) t[j] = x[j] - m[j] * r;
    for (int j = 0; j < d; j++) s += t[j] * x[j];
  }
  free(t);
  return s;
}

// (A macro: the function must be known where __enzyme_autodiff is called.)
#define CHECK_ONE(f, x, m, want)                                                       \
  do {                                                                                 \
    double xv[D], dx[D] = { 0 };                                                       \
    for (int j = 0; j < D; j++) xv[j] = (x)[j];                                        \
    __enzyme_autodiff((void *)f, enzyme_dup, xv, dx, enzyme_const, m, enzyme_const, D); \
    char label[64];                                                                    \
    for (int j = 0; j < D; j++) {                                                      \
      snprintf(label, sizeof label, "%s dx[%d]", #f, j);                               \
      CHECK(label, dx[j], (want)[j], 1e-12);                                           \
      snprintf(label, sizeof label, "%s fd dx[%d]", #f, j);                            \
      CHECK(label, dx[j], FD(xv[j], f(xv, m, D), 1e-6), 1e-6);                         \
    }                                                                                  \
  } while (0)

int main(void) {
  double x[D], m[D], w1[D], w2[D], w3[D];
  for (int j = 0; j < D; j++) {
    x[j] = 0.3 + 0.21 * j - 0.02 * j * j;
    m[j] = 1.1 - 0.17 * j;
    // refilled: (x m)^2 + (x + m) x
    w1[j] = 2 * x[j] * m[j] * m[j] + 2 * x[j] + m[j];
    // cleared: (sin(x) m)^3
    double t = sin(x[j]) * m[j];
    w2[j] = 3 * t * t * cos(x[j]) * m[j];
    // rounds: sum over r of (x m + r)^2 + (x - m r) x
    w3[j] = 0;
    for (int r = 0; r < 3; r++)
      w3[j] += 2 * (x[j] * m[j] + r) * m[j] + 2 * x[j] - m[j] * r;
  }
  CHECK_ONE(refilled, x, m, w1);
  CHECK_ONE(cleared, x, m, w2);
  CHECK_ONE(rounds, x, m, w3);
  CHECK_DONE();
}
