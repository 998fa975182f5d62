// LEVELS: O0 O2
// RANKS: 2 4
/* Parameter broadcast: rank 0 holds two parameters (a, b), broadcasts them;
 * each rank evaluates a local model on its own data point, and the losses
 * are summed at rank 0 with MPI_Reduce. Reverse mode: rank 0's gradient of
 * the global loss; the other ranks' parameter copies get no gradient. */
#include <mpi.h>
#include "../check.h"

double loss(double *p) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double q[2] = {p[0], p[1]};
  MPI_Bcast(q, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double t = 1.0 + rank;
  double y = q[0] * exp(-q[1] * t);
  double target = 2.0 / (1.0 + t);
  double l = (y - target) * (y - target), g = 0;
  MPI_Reduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return g; /* the global loss at rank 0, zero elsewhere */
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Only rank 0's values matter (the others are overwritten by the bcast). */
  double p[2] = {rank == 0 ? 1.5 : -7.0, rank == 0 ? 0.4 : 9.0}, dp[2] = {0, 0};
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp);
  double ga = 0, gb = 0;
  for (int r = 0; r < size; r++) {
    double t = 1.0 + r, e = exp(-0.4 * t), y = 1.5 * e, res = y - 2.0 / (1.0 + t);
    ga += 2 * res * e;
    gb += 2 * res * 1.5 * e * (-t);
  }
  if (rank == 0) {
    CHECK("dloss/da", dp[0], ga, 1e-12);
    CHECK("dloss/db", dp[1], gb, 1e-12);
    double fd_a = FD(p[0], loss(p), 1e-6);
    CHECK("dloss/da fd", dp[0], fd_a, 1e-6);
  } else {
    CHECK("non-root da", dp[0], 0.0, 0);
    CHECK("non-root db", dp[1], 0.0, 0);
    (void)loss(p); /* matches rank 0's finite-difference calls */
    (void)loss(p);
  }
  MPI_Finalize();
  CHECK_DONE();
}
