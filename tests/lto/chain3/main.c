// A callee chain across three files: energy (model.c) calls pair_term and
// spring (terms.c) in a loop over an array; reverse mode with a duplicated
// array, checked against finite differences.
#include "check.h"
double energy(const double *x, int n);
int main(void) {
  enum { N = 6 };
  double x[N] = {0.1, 0.9, 2.2, 2.8, 4.1, 5.3}, dx[N] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) CHECK("dE/dx fd", dx[i], FD(x[i], energy(x, N), 1e-6), 1e-6);
  CHECK_DONE();
}
