/* The primal of gather_scatter_fwd.c and gather_scatter_rev.c (the forward and reverse mode
 * tests of the same program; the test files describe it). */
#ifndef ENZYME_RS_MPI_GATHER_SCATTER_H
#define ENZYME_RS_MPI_GATHER_SCATTER_H
#include "mpicheck.h"
#define B 3

double f(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *all = rank == 0 ? malloc(sizeof(double) * B * size) : NULL;
  double y[B], mine[B];
  for (int i = 0; i < B; i++) y[i] = x[i] * x[i] + 0.1 * x[i];
  MPI_Gather(y, B, MPI_DOUBLE, all, B, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int n = B * size;
    double prev = all[n - 1];
    for (int k = 0; k < n; k++) {
      double c = all[k];
      all[k] = c * (1.0 + 0.3 * prev);
      prev = c;
    }
  }
  MPI_Scatter(all, B, MPI_DOUBLE, mine, B, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double local = 0, g = 0;
  for (int i = 0; i < B; i++) local += sin(mine[i]) * (1.0 + i);
  MPI_Allreduce(&local, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(all);
  return g;
}
#endif
