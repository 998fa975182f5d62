// __enzyme_set_fixed_point marks a converged loop x = C sin(x) + p: its
// gradient is the implicit one, dL/dp_k = 2 w_k x*_k / (1 - C cos x*_k),
// computed by iterating the adjoint of one iteration at the converged
// state, and the tape does not grow with the number of iterations (split
// mode leaves the tape object to read: bytes pushed in its second field),
// while the same loop unmarked keeps every iteration on its tape.
#include "check.h"
#include <enzyme/fixed_point.h>
#include <stdint.h>
#define N 3
#define C 0.9
static const double w[N] = {1.0, -0.5, 2.0};
static int last_iters;
static double loss(const double *x) {
  double s = 0;
  for (int k = 0; k < N; k++) s += w[k] * x[k] * x[k];
  return s;
}
static double marked(const double *p, double tol) {
  double x[N] = {0, 0, 0}, err = 1;
  int it = 0;
  while (err > tol) {
    __enzyme_set_fixed_point(1e-30, 0, 0, x, sizeof(x));
    err = 0;
    for (int k = 0; k < N; k++) {
      double nx = C * sin(x[k]) + p[k];
      err = fmax(err, fabs(nx - x[k]));
      x[k] = nx;
    }
    it++;
  }
  last_iters = it;
  return loss(x);
}
static double plain(const double *p, double tol) {
  double x[N] = {0, 0, 0}, err = 1;
  while (err > tol) {
    err = 0;
    for (int k = 0; k < N; k++) {
      double nx = C * sin(x[k]) + p[k];
      err = fmax(err, fabs(nx - x[k]));
      x[k] = nx;
    }
  }
  return loss(x);
}
// Tape bytes of one split-mode run, and the gradient into dp (a macro: the
// function must be known where __enzyme_* is called).
#define RUN(f, p, dp, tol)                                                  \
  ({                                                                        \
    for (int k_ = 0; k_ < N; k_++) (dp)[k_] = 0;                            \
    void *t_ = __enzyme_augmentfwd((void *)f, enzyme_dup, p, dp, enzyme_const, tol); \
    int64_t bytes_ = ((int64_t *)t_)[1];                                    \
    __enzyme_reverse((void *)f, enzyme_dup, p, dp, enzyme_const, tol, 1.0, t_); \
    bytes_;                                                                 \
  })
int main(void) {
  double p[N] = {0.3, -0.2, 0.5}, dp[N], dq[N];
  // The converged state, for the implicit derivative.
  double x[N] = {0, 0, 0};
  for (int i = 0; i < 2000; i++)
    for (int k = 0; k < N; k++) x[k] = C * sin(x[k]) + p[k];
  int64_t b_short = RUN(marked, p, dp, 1e-6);
  int it_short = last_iters;
  int64_t b_long = RUN(marked, p, dp, 1e-14);
  int it_long = last_iters;
  for (int k = 0; k < N; k++) {
    CHECK("implicit", dp[k], 2 * w[k] * x[k] / (1 - C * cos(x[k])), 1e-9);
    CHECK("fd", dp[k], FD(p[k], marked(p, 1e-14), 1e-6), 1e-6);
  }
  int64_t u_short = RUN(plain, p, dq, 1e-6);
  int64_t u_long = RUN(plain, p, dq, 1e-14);
  for (int k = 0; k < N; k++) CHECK("marked = unrolled", dp[k], dq[k], 1e-8);
  printf("iterations %d and %d: marked tape %lld and %lld bytes; unmarked %lld and %lld bytes\n",
         it_short, it_long, (long long)b_short, (long long)b_long, (long long)u_short, (long long)u_long);
  CHECK("more iterations", it_long > it_short + 20, 1, 0);
  CHECK("marked tape does not grow", (double)b_long, (double)b_short, 0);
  CHECK("unmarked tape grows", u_long > u_short, 1, 0);
  CHECK_DONE();
}
