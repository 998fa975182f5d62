/* The primal of alltoall_fwd.c and alltoall_rev.c (the forward and reverse mode
 * tests of the same program; the test files describe it). */
#ifndef ENZYME_RS_MPI_ALLTOALL_H
#define ENZYME_RS_MPI_ALLTOALL_H
#include "mpicheck.h"
#define B 2
#define MAXP 8

double f(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double y[B * MAXP], t[B * MAXP];
  for (int k = 0; k < B * size; k++) y[k] = x[k] * (1.0 + 0.1 * k);
  MPI_Alltoall(y, B, MPI_DOUBLE, t, B, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int k = 0; k < B * size; k++) t[k] = sin(t[k]) * (1.0 + 0.05 * rank + 0.01 * k);
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DOUBLE, t, B, MPI_DOUBLE, MPI_COMM_WORLD);
  double l = 0, g = 0;
  for (int k = 0; k < B * size; k++) l += t[k] * t[k] * (1.0 + 0.3 * k) + t[k] * x[k];
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}
#endif
