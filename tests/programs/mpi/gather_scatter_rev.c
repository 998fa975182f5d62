// LEVELS: O0 O2
// RANKS: 2 4
/* Gather / scatter of a distributed vector: each rank's block is gathered
 * at rank 0, transformed there (a coupling of all elements), scattered
 * back, and the result reduced to a loss. Reverse mode against a finite
 * difference of the global loss along a direction. */
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

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double x[B], dx[B] = {0}, v[B];
  for (int i = 0; i < B; i++) x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  direction(v, B);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double got = global_dot(dx, v, B) / size;
  CHECK("gather/scatter <grad,v>", got, FD_DIR(x, v, B, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
