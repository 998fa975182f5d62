// LEVELS: O0 O2
// RANKS: 2 4
/* MPI_MAX (in place, all-reduce) and MPI_MIN (reduce to rank 1) in forward
 * mode: the tangent of the winning rank's element travels. Ties go to the
 * lowest rank. Checked against the analytic tangent. */
#include "mpicheck.h"
#define N 4

double f(double *x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double y[N], mn[N];
  for (int i = 0; i < N; i++) y[i] = sin(x[i]);
  MPI_Allreduce(MPI_IN_PLACE, y, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Reduce(x, mn, N, MPI_DOUBLE, MPI_MIN, 1, MPI_COMM_WORLD);
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i] * (1.0 + i);
  if (rank == 1)
    for (int i = 0; i < N; i++) s += mn[i] * mn[i];
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double x[N], dx[N];
  for (int i = 0; i < N; i++) {
    int hi = (i + 2) % size, lo = (i + 3) % size;
    x[i] = rank == hi ? 1.2 + 0.05 * i : rank == lo ? 0.1 + 0.02 * i : 0.6;
    if (i == N - 1) x[i] = 0.7; /* a tie everywhere: rank 0 wins both */
    dx[i] = 1.0 + rank + 0.5 * i;
  }
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx);
  double want = 0;
  for (int i = 0; i < N; i++) {
    int hi = (i + 2) % size, lo = (i + 3) % size;
    if (i == N - 1) hi = lo = 0;
    double xh = i == N - 1 ? 0.7 : 1.2 + 0.05 * i, xl = i == N - 1 ? 0.7 : 0.1 + 0.02 * i;
    want += cos(xh) * (1.0 + hi + 0.5 * i) * (1.0 + i);
    if (rank == 1) want += 2 * xl * (1.0 + lo + 0.5 * i);
  }
  CHECK("minmax tangent", t, want, 1e-12);
  MPI_DONE();
}
