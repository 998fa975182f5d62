// LEVELS: O0 O2
// RANKS: 2 4
/* Gather / scatter of a distributed vector: each rank's block is gathered
 * at rank 0, transformed there (a coupling of all elements), scattered
 * back, and the result reduced to a loss. Forward mode against a finite
 * difference of the global loss along a direction. */
#include "gather_scatter.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  double x[B], v[B];
  for (int i = 0; i < B; i++) x[i] = 0.2 + 0.15 * i + 0.1 * rank;
  direction(v, B);
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v);
  CHECK("gather/scatter tangent", t, FD_DIR(x, v, B, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
