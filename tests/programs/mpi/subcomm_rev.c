// LEVELS: O0 O2
// RANKS: 2 4
/* Sub-communicators: MPI_Comm_split into even and odd ranks, a sum within
 * each group (MPI_Allreduce on the sub-communicator) and a broadcast from
 * the group's first rank, then the product of the two groups' values
 * combined over MPI_COMM_WORLD. Reverse mode, analytic check. The
 * communicator is made outside the differentiated function and passed in. */
#include "mpicheck.h"

double f(double *x, MPI_Comm group) {
  double y = x[0] * x[0], s = 0, lead = 0;
  int grank;
  MPI_Comm_rank(group, &grank);
  MPI_Allreduce(&y, &s, 1, MPI_DOUBLE, MPI_SUM, group);
  if (grank == 0) lead = x[0];
  MPI_Bcast(&lead, 1, MPI_DOUBLE, 0, group);
  double mine = s * lead, g = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &grank);
  if (grank > 1) mine = 0; /* ranks 0 (even group) and 1 (odd group) report */
  MPI_Allreduce(&mine, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  MPI_Comm group;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &group);
  double x = 0.5 + 0.25 * rank, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx, enzyme_const, group);
  /* g = sum over groups c of S_c * x_lead(c), S_c = sum_{r in c} x_r^2 */
  double S = 0, lead = 0.5 + 0.25 * (rank % 2);
  for (int r = rank % 2; r < size; r += 2) S += (0.5 + 0.25 * r) * (0.5 + 0.25 * r);
  double want = 2 * x * lead + (rank < 2 ? S : 0);
  CHECK("subcomm dx", dx, size * want, 1e-12);
  MPI_Comm_free(&group);
  MPI_DONE();
}
