// LEVELS: O0 O2
// RANKS: 2 4
/* MPI_MAX and MPI_MIN reductions: the element-wise maximum over ranks
 * (all-reduce) and the minimum at rank 0 (reduce); the derivative goes to
 * the rank and element that won. Reverse mode, analytic check. */
#include "mpicheck.h"
#define N 3

double peak(double *x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double y[N], mx[N], mn[N];
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i];
  MPI_Allreduce(y, mx, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Reduce(x, mn, N, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  double s = 0;
  for (int i = 0; i < N; i++) s += (1.0 + i) * mx[i];
  if (rank == 0)
    for (int i = 0; i < N; i++) s += 3.0 * mn[i] * mn[i];
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double x[N], dx[N] = {0};
  /* element i is largest on rank (i % size) and smallest on rank ((i+1) % size) */
  for (int i = 0; i < N; i++) {
    int hi = i % size, lo = (i + 1) % size;
    x[i] = rank == hi ? 2.0 + 0.1 * i : rank == lo ? 0.5 + 0.05 * i : 1.0 + 0.01 * rank;
  }
  __enzyme_autodiff((void *)peak, enzyme_dup, x, dx);
  for (int i = 0; i < N; i++) {
    int hi = i % size, lo = (i + 1) % size;
    double want = 0;
    /* every rank's copy of sum (1+i) mx[i] is seeded: size times */
    if (rank == hi) want += size * (1.0 + i) * 2 * x[i];
    if (rank == lo) want += 6.0 * x[i];
    CHECK("dpeak/dx", dx[i], want, 1e-12);
  }
  MPI_DONE();
}
