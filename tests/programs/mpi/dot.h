/* The primal of dot_fwd.c and dot_rev.c (the forward and reverse mode
 * tests of the same program; the test files describe it). */
#ifndef ENZYME_RS_MPI_DOT_H
#define ENZYME_RS_MPI_DOT_H
#include "mpicheck.h"
#define N 5

double dotf(const double *x, const double *y) {
  double l = 0, g;
  for (int i = 0; i < N; i++) l += x[i] * y[i];
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return exp(0.1 * g);
}
#endif
