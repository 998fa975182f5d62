// Vector reverse mode (enzyme_width 2 and 4) of functions that write
// memory the caller sees: outputs written without being read (the primal
// values after the call are what one call gives), a counter in memory
// marked enzyme_dupnoneed, and gradients of every lane.
// LEVELS: O0 O1 O2 O3
#include "check.h"

// y = f(x), written only: running the primal again writes the same values.
void model(const double *x, double *y) {
  y[0] = x[0] * x[1] + sin(x[0]);
  y[1] = exp(x[1]) * x[0];
}

int main(void) {
  double x[2] = {0.6, -0.4};
  double y[2] = {0, 0};
  // width 2: lane k seeds output k (rows of the Jacobian).
  double dx0[2] = {0}, dx1[2] = {0};
  double dy0[2] = {1, 0}, dy1[2] = {0, 1};
  __enzyme_autodiff((void *)model, enzyme_width, 2, enzyme_dup, x, dx0, dx1, enzyme_dup, y, dy0, dy1);
  CHECK("y0 once", y[0], x[0] * x[1] + sin(x[0]), 1e-15);
  CHECK("y1 once", y[1], exp(x[1]) * x[0], 1e-15);
  CHECK("J00", dx0[0], x[1] + cos(x[0]), 1e-12);
  CHECK("J01", dx0[1], x[0], 1e-12);
  CHECK("J10", dx1[0], exp(x[1]), 1e-12);
  CHECK("J11", dx1[1], exp(x[1]) * x[0], 1e-12);
  // width 4: lanes seed y0, y1, y0+y1, 2*y0.
  double g[4][2] = {{0}};
  const double seed[4][2] = {{1, 0}, {0, 1}, {1, 1}, {2, 0}};
  double s[4][2]; // consumed (zeroed) by the reverse sweep
  for (int l = 0; l < 4; l++) s[l][0] = seed[l][0], s[l][1] = seed[l][1];
  __enzyme_autodiff((void *)model, enzyme_width, 4, enzyme_dup, x, g[0], g[1], g[2], g[3], enzyme_dup, y, s[0],
                    s[1], s[2], s[3]);
  double J[2][2] = {{x[1] + cos(x[0]), x[0]}, {exp(x[1]), exp(x[1]) * x[0]}};
  for (int l = 0; l < 4; l++)
    for (int c = 0; c < 2; c++) {
      double want = seed[l][0] * J[0][c] + seed[l][1] * J[1][c];
      CHECK("width-4 lane", g[l][c], want, 1e-12);
    }
  // finite differences of y0 with respect to x0
  double yy[2];
  CHECK("J00 fd", dx0[0], FD(x[0], (model(x, yy), yy[0]), 1e-6), 1e-6);
  CHECK_DONE();
}
