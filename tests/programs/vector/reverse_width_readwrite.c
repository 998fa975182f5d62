// Vector reverse mode of a function that reads and writes memory the
// caller sees (`*acc += x0 * x1`): running the primal once per lane would
// add twice, so enzyme-rs refuses it with a clear error (until the sweeps
// get a lane dimension) instead of a wrong result.
// LEVELS: O0 O2
// EXPECT-ERROR: vector reverse mode (enzyme_width 2) of 'accumulate'
#include "check.h"

void accumulate(const double *x, double *acc) { *acc += x[0] * x[1]; }

int main(void) {
  double x[2] = {2, 3}, dx0[2] = {0}, dx1[2] = {0};
  double acc = 1, da0 = 1, da1 = 2;
  __enzyme_autodiff((void *)accumulate, enzyme_width, 2, enzyme_dup, x, dx0, dx1, enzyme_dup, &acc, &da0, &da1);
  CHECK("acc", acc, 7, 0);
  CHECK_DONE();
}
