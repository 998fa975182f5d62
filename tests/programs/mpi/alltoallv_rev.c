// LEVELS: O0 O1 O2 O3
// RANKS: 1 2 4
/* MPI_Alltoallv with uneven counts per rank pair, overlapping send blocks
 * (their adjoints add up) and gaps between received blocks (their
 * adjoints stay), then an in-place MPI_Alltoallv; the loss is all-reduced.
 * Reverse mode against a finite difference along a direction (every rank
 * seeds the replicated loss: the gradient is size times the loss's). */
#include "alltoallv.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size(), n = size + 3;
  double x[NX], dx[NX] = {0}, v[NX];
  for (int k = 0; k < n; k++) x[k] = 0.2 + 0.07 * k - 0.1 * rank;
  direction(v, n);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double got = global_dot(dx, v, n) / size;
  CHECK("alltoallv <grad,v>", got, FD_DIR(x, v, n, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
