// LEVELS: O0 O2
// RANKS: 2 4
/* Gather / scatter of a distributed vector: each rank's block is gathered
 * at rank 0, transformed there (a coupling of all elements), scattered
 * back, and the result reduced to a loss. Reverse mode against a finite
 * difference of the global loss along a direction. */
#include "gather_scatter.h"

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
