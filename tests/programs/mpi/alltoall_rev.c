// LEVELS: O0 O2
// RANKS: 2 4
/* MPI_Alltoall (a distributed transpose) and an in-place one: each rank
 * sends block q of its vector to rank q, transforms what it received, and
 * transposes back in place; the loss is all-reduced. Reverse mode against a
 * finite difference along a direction. */
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

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size(), n = B * size;
  double x[B * MAXP], dx[B * MAXP] = {0}, v[B * MAXP];
  for (int k = 0; k < n; k++) x[k] = 0.2 + 0.07 * k - 0.1 * rank;
  direction(v, n);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double got = global_dot(dx, v, n) / size;
  CHECK("alltoall <grad,v>", got, FD_DIR(x, v, n, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
