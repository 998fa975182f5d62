// Vector split mode (enzyme_width 2 and 4 with __enzyme_augmentfwd /
// __enzyme_reverse) of a function that reads and writes memory the caller
// sees and allocates scratch memory: the augmented sweep runs the primal
// once into one tape; __enzyme_reverse runs each lane's reverse sweep over
// that tape and frees it once (run under ASan: no double free, no leak).
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include <stdlib.h>
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

__attribute__((noinline)) void acc_sq(const double *x, int n, double *acc) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) *acc += t[i] * x[(i + 1) % n];
  free(t);
}

int main(void) {
  enum { N = 3 };
  double x[N] = {0.5, -1.5, 2.0};
  double want = 1;
  for (int i = 0; i < N; i++) want += x[i] * x[i] * x[(i + 1) % N];
  // d acc / d x_j = 2 x_j x_{j+1} + x_{j-1}^2
  double grad[N];
  for (int j = 0; j < N; j++) grad[j] = 2 * x[j] * x[(j + 1) % N] + x[(j + N - 1) % N] * x[(j + N - 1) % N];

  double acc = 1, dx[2][N] = {{0}}, da[2] = {1, -3};
  void *tape = __enzyme_augmentfwd((void *)acc_sq, enzyme_width, 2, enzyme_dup, x, dx[0], dx[1], enzyme_const, N,
                                   enzyme_dup, &acc, &da[0], &da[1]);
  CHECK("acc once after augmentfwd (width 2)", acc, want, 1e-14);
  __enzyme_reverse((void *)acc_sq, enzyme_width, 2, enzyme_dup, x, dx[0], dx[1], enzyme_const, N, enzyme_dup, &acc,
                   &da[0], &da[1], enzyme_tape, tape);
  CHECK("acc unchanged by reverse", acc, want, 1e-14);
  for (int j = 0; j < N; j++) {
    CHECK("lane 0", dx[0][j], 1 * grad[j], 1e-12);
    CHECK("lane 1", dx[1][j], -3 * grad[j], 1e-12);
  }

  double acc4 = 1, g[4][N] = {{0}}, s[4] = {1, 2, 0.5, -1};
  void *t4 = __enzyme_augmentfwd((void *)acc_sq, enzyme_width, 4, enzyme_dup, x, g[0], g[1], g[2], g[3],
                                 enzyme_const, N, enzyme_dup, &acc4, &s[0], &s[1], &s[2], &s[3]);
  __enzyme_reverse((void *)acc_sq, enzyme_width, 4, enzyme_dup, x, g[0], g[1], g[2], g[3], enzyme_const, N,
                   enzyme_dup, &acc4, &s[0], &s[1], &s[2], &s[3], enzyme_tape, t4);
  CHECK("acc once (width 4)", acc4, want, 1e-14);
  const double seed[4] = {1, 2, 0.5, -1};
  for (int l = 0; l < 4; l++)
    for (int j = 0; j < N; j++) CHECK("width-4 lane", g[l][j], seed[l] * grad[j], 1e-12);
  // finite differences, lane 0
  for (int j = 0; j < N; j++) {
    double xx[N] = {x[0], x[1], x[2]}, a = 0;
    CHECK("fd", dx[0][j], FD(xx[j], (a = 0, acc_sq(xx, N, &a), a), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
