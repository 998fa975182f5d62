// LEVELS: O0 O2
// RANKS: 2 4
/* Forward mode: parameters broadcast from rank 1, an in-place MPI_Allreduce
 * of per-rank terms, MPI_FLOAT buffers next to double ones, and inactive
 * calls in between (MPI_Wtime, MPI_Barrier, an integer MPI_Allreduce).
 * Checked against the analytic tangent and a finite difference. */
#include "mpicheck.h"

double f(double *p) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double t0 = MPI_Wtime();
  double q[2] = {p[0], p[1]};
  MPI_Bcast(q, 2, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  int n = rank + 1, ntot = 0;
  MPI_Allreduce(&n, &ntot, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double terms[2] = {q[0] * (rank + 1), q[1] * q[1] * (rank + 1)};
  MPI_Allreduce(MPI_IN_PLACE, terms, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  float fl = (float)(q[0] * q[1]), flsum = 0;
  MPI_Allreduce(&fl, &flsum, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  (void)t0;
  return terms[0] * terms[1] / ntot + (double)flsum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double p[2] = {rank == 1 ? 0.7 : 5.0, rank == 1 ? 1.3 : -2.0};
  double dp[2] = {rank == 1 ? 1.0 : 9.0, rank == 1 ? -0.5 : 9.0};
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, p, dp);
  double S = size * (size + 1) / 2.0, a = 0.7, b = 1.3, da = 1.0, db = -0.5;
  /* terms = (S a, S b^2); result = S^2 a b^2 / S + size * a b */
  double want = S * (da * b * b + a * 2 * b * db) + size * (da * b + a * db);
  CHECK("bcast/inplace tangent", t, want, 1e-5);
  MPI_DONE();
}
