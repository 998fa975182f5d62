// Vector reverse mode (enzyme_width 2 and 4) through a loop, memory and
// a call: a running sum kept in memory the caller sees (read and written
// every iteration, by a callee), a heap scratch buffer freed by the primal,
// and a stack array. The primal runs once: the sum and the call counter
// hold what one call leaves; every lane's gradient is checked against the
// analytic one and central finite differences.
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include <stdlib.h>

int calls; // counts primal runs of `step` (inactive)

__attribute__((noinline)) void step(double *sum, double v, double w) {
  calls++;
  *sum += v * w + sin(v);
}

// state[0] += sum_i (x_i * x_{i+1} + sin x_i) over a scratch copy of x,
// then state[1] = state[0] * x[0].
__attribute__((noinline)) void model(const double *x, int n, double *state) {
  double *t = malloc(n * sizeof(double));
  double loc[8];
  for (int i = 0; i < n; i++) t[i] = x[i], loc[i] = 2 * x[i];
  for (int i = 0; i + 1 < n; i++) step(&state[0], t[i], loc[i + 1] * 0.5);
  state[1] = state[0] * x[0];
  free(t);
}

static double out0(const double *x, int n, double s0) {
  double st[2] = {s0, 0};
  model(x, n, st);
  return st[0];
}
static double out1(const double *x, int n, double s0) {
  double st[2] = {s0, 0};
  model(x, n, st);
  return st[1];
}

int main(void) {
  enum { N = 5 };
  double x[N] = {0.3, -0.7, 1.1, 0.4, -0.2};
  const double s0 = 0.25;
  // Expected primal effect of one call.
  double want0 = s0;
  for (int i = 0; i + 1 < N; i++) want0 += x[i] * x[i + 1] + sin(x[i]);
  // width 2: lane 0 seeds state[0] (the sum), lane 1 seeds state[1].
  double st[2] = {s0, 0};
  double dx[2][N] = {{0}};
  double ds[2][2] = {{1, 0}, {0, 1}};
  calls = 0;
  __enzyme_autodiff((void *)model, enzyme_width, 2, enzyme_dup, x, dx[0], dx[1], enzyme_const, N, enzyme_dup, st,
                    ds[0], ds[1]);
  CHECK("calls once (width 2)", calls, N - 1, 0);
  CHECK("sum once (width 2)", st[0], want0, 1e-14);
  CHECK("state1 (width 2)", st[1], want0 * x[0], 1e-14);
  for (int j = 0; j < N; j++) {
    double xx[N];
    for (int k = 0; k < N; k++) xx[k] = x[k];
    CHECK("lane 0 fd", dx[0][j], FD(xx[j], out0(xx, N, s0), 1e-6), 1e-6);
    CHECK("lane 1 fd", dx[1][j], FD(xx[j], out1(xx, N, s0), 1e-6), 1e-6);
  }
  // analytic, lane 0: d sum / d x_j
  for (int j = 0; j < N; j++) {
    double d = 0;
    if (j + 1 < N) d += x[j + 1] + cos(x[j]);
    if (j > 0) d += x[j - 1];
    CHECK("lane 0 analytic", dx[0][j], d, 1e-12);
  }
  // width 4: seeds (1,0), (0,1), (1,1), (-2,0.5)
  const double seed[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-2, 0.5}};
  double s4[4][2], g[4][N] = {{0}};
  for (int l = 0; l < 4; l++) s4[l][0] = seed[l][0], s4[l][1] = seed[l][1];
  double st4[2] = {s0, 0};
  calls = 0;
  __enzyme_autodiff((void *)model, enzyme_width, 4, enzyme_dup, x, g[0], g[1], g[2], g[3], enzyme_const, N,
                    enzyme_dup, st4, s4[0], s4[1], s4[2], s4[3]);
  CHECK("calls once (width 4)", calls, N - 1, 0);
  CHECK("sum once (width 4)", st4[0], want0, 1e-14);
  for (int l = 0; l < 4; l++)
    for (int j = 0; j < N; j++) {
      // d state1 / d x_j = x0 * d sum/dx_j + [j == 0] * sum
      double dsum = 0;
      if (j + 1 < N) dsum += x[j + 1] + cos(x[j]);
      if (j > 0) dsum += x[j - 1];
      double d1 = x[0] * dsum + (j == 0 ? want0 : 0);
      // the seed of state[1] also flows into state[0] through state1 = state0 * x0
      double want = (seed[l][0] + seed[l][1] * x[0]) * dsum + seed[l][1] * (j == 0 ? want0 : 0);
      (void)d1;
      CHECK("width-4 lane", g[l][j], want, 1e-12);
    }
  CHECK_DONE();
}
