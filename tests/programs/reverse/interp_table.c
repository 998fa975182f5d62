// Reverse mode: linear interpolation in a table with an index computed
// from the active input (float -> int conversion).
#include "check.h"
static const double table[6] = {0, 1, 4, 9, 16, 25};
double interp(const double *tab, double x) {
  int i = (int)floor(x);
  if (i < 0) i = 0;
  if (i > 4) i = 4;
  double t = x - i;
  return tab[i] * (1 - t) + tab[i + 1] * t;
}
double g(double x) { return interp(table, x) * x; }
int main(void) {
  double tab[6], dtab[6] = {0};
  for (int i = 0; i < 6; i++) tab[i] = table[i];
  double x = 2.3;
  double dx = __enzyme_autodiff((void *)interp, enzyme_dup, tab, dtab, enzyme_out, x);
  CHECK("dx slope", dx, tab[3] - tab[2], 1e-12);
  CHECK("dtab2", dtab[2], 0.7, 1e-12);
  CHECK("dtab3", dtab[3], 0.3, 1e-12);
  CHECK("dtab0", dtab[0], 0, 0);
  double dg = __enzyme_autodiff((void *)g, x);
  CHECK("dg fd", dg, FD(x, g(x), 1e-7), 1e-6);
  CHECK_DONE();
}
