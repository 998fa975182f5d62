// LEVELS: O0 O2
// RANKS: 2 4
/* MPI_Alltoall (a distributed transpose) and an in-place one: each rank
 * sends block q of its vector to rank q, transforms what it received, and
 * transposes back in place; the loss is all-reduced. Reverse mode against a
 * finite difference along a direction. */
#include "alltoall.h"

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
