// Vector reverse mode (enzyme_width 2 and 4) of a function that reads and
// writes memory the caller sees (`*acc += x0 * x1`): the primal runs once
// (one augmented sweep, one tape), so `*acc` is added to once; each lane's
// reverse sweep runs over that tape with its own shadows and seed.
// LEVELS: O0 O1 O2 O3
#include "check.h"

void accumulate(const double *x, double *acc) { *acc += x[0] * x[1]; }

int main(void) {
  // width 2
  double x[2] = {2, 3}, dx0[2] = {0}, dx1[2] = {0};
  double acc = 1, da0 = 1, da1 = 2;
  __enzyme_autodiff((void *)accumulate, enzyme_width, 2, enzyme_dup, x, dx0, dx1, enzyme_dup, &acc, &da0, &da1);
  CHECK("acc once (width 2)", acc, 7, 0);
  CHECK("lane 0 d/dx0", dx0[0], 1 * x[1], 1e-15);
  CHECK("lane 0 d/dx1", dx0[1], 1 * x[0], 1e-15);
  CHECK("lane 1 d/dx0", dx1[0], 2 * x[1], 1e-15);
  CHECK("lane 1 d/dx1", dx1[1], 2 * x[0], 1e-15);
  // d acc_out / d acc_in = 1: the seed passes through unchanged.
  CHECK("lane 0 dacc", da0, 1, 0);
  CHECK("lane 1 dacc", da1, 2, 0);

  // width 4, seeds 1, -1, 0.5, 3
  double g[4][2] = {{0}};
  const double seed[4] = {1, -1, 0.5, 3};
  double s[4] = {seed[0], seed[1], seed[2], seed[3]};
  double acc4 = 10;
  __enzyme_autodiff((void *)accumulate, enzyme_width, 4, enzyme_dup, x, g[0], g[1], g[2], g[3], enzyme_dup, &acc4,
                    &s[0], &s[1], &s[2], &s[3]);
  CHECK("acc once (width 4)", acc4, 16, 0);
  for (int l = 0; l < 4; l++) {
    CHECK("width-4 d/dx0", g[l][0], seed[l] * x[1], 1e-15);
    CHECK("width-4 d/dx1", g[l][1], seed[l] * x[0], 1e-15);
    CHECK("width-4 dacc", s[l], seed[l], 0);
  }
  // finite differences of the effect with respect to x0
  double xx[2] = {x[0], x[1]};
  double a = 0;
  CHECK("fd", g[0][0], FD(xx[0], (a = 0, accumulate(xx, &a), a), 1e-6), 1e-6);
  CHECK_DONE();
}
