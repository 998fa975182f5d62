// LEVELS: O0 O1 O2 O3
// RANKS: 1 2 4
/* MPI_Alltoallv with uneven counts per rank pair, overlapping send blocks
 * and gaps between received blocks, then an in-place MPI_Alltoallv; the
 * loss is all-reduced. Forward mode against a finite difference along a
 * direction. */
#include "alltoallv.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), n = mpi_size() + 3;
  double x[NX], v[NX];
  for (int k = 0; k < n; k++) x[k] = 0.2 + 0.07 * k - 0.1 * rank;
  direction(v, n);
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v);
  CHECK("alltoallv tangent", t, FD_DIR(x, v, n, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
