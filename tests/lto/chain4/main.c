// Four files: main -> simulate (sim.c) -> step (step.c) -> force (force.c).
// Reverse mode of an explicit time integration over a state array, with
// the initial state and a scalar parameter active.
#include "check.h"
double simulate(double *state, double k, int steps);
int main(void) {
  double s0[2] = {1.0, 0.0}, s[2], ds[2] = {0};
  double k = 1.7;
#define RESET (s[0] = s0[0], s[1] = s0[1])
  RESET;
  double dk = __enzyme_autodiff((void *)simulate, enzyme_dup, s, ds, enzyme_out, k, enzyme_const, 40);
  RESET;
  CHECK("dk fd", dk, FD(k, (RESET, simulate(s, k, 40)), 1e-6), 1e-6);
  for (int i = 0; i < 2; i++) {
    double fd = FD(s0[i], (RESET, simulate(s, k, 40)), 1e-6);
    CHECK("ds0 fd", ds[i], fd, 1e-6);
  }
  CHECK_DONE();
}
