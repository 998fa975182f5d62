// enzyme_width with __enzyme_autodiff: N adjoint seeds at once (one
// shadow per lane for each duplicated argument; each active scalar's
// derivative comes back once per lane).
// LEVELS: O0 O1 O2 O3
#include "check.h"
typedef struct { double d[3]; } D3;
D3 __enzyme_autodiff_w3(void *, ...);

// y = A x with A fixed; the "output" is written to memory: lane k seeds
// output component k, so the lanes give the rows of the Jacobian.
void lin(const double *x, double *y) {
  y[0] = 2 * x[0] + sin(x[1]);
  y[1] = x[0] * x[1];
  y[2] = exp(x[0]) - x[1] * x[1];
}
double sq(double x) { return x * x * x; }

int main(void) {
  double x[2] = {0.4, -1.1};
  double dx0[2] = {0}, dx1[2] = {0}, dx2[2] = {0};
  double y[3], dy0[3] = {1, 0, 0}, dy1[3] = {0, 1, 0}, dy2[3] = {0, 0, 1};
  __enzyme_autodiff((void *)lin, enzyme_width, 3, enzyme_dup, x, dx0, dx1, dx2, enzyme_dupnoneed, y, dy0, dy1,
                    dy2);
  double J[3][2] = {{2, cos(x[1])}, {x[1], x[0]}, {exp(x[0]), -2 * x[1]}};
  double *rows[3] = {dx0, dx1, dx2};
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 2; c++) CHECK("jacobian row", rows[r][c], J[r][c], 1e-12);
  // A scalar: three lanes, each seeded with 1.
  D3 d = __enzyme_autodiff_w3((void *)sq, enzyme_width, 3, 1.5);
  for (int k = 0; k < 3; k++) CHECK("scalar lane", d.d[k], 3 * 1.5 * 1.5, 1e-12);
  CHECK_DONE();
}
