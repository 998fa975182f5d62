#include <enzyme/enzyme.h>
double f(const double *x);
void grad(const double *x, double *g) {
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}
