// LEVELS: O0 O2
// RANKS: 2 4
/* Shift with MPI_Sendrecv (blocks of 2 to the right, MPI_PROC_NULL at the
 * ends: the first rank keeps its buffer's previous values), three rounds.
 * Reverse mode against a finite difference of the global loss. */
#include "mpicheck.h"
#define B 2

double f(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double cur[B], in[B];
  for (int i = 0; i < B; i++) {
    cur[i] = x[i];
    in[i] = 0.5 * x[i]; /* kept when nothing arrives (rank 0) */
  }
  for (int k = 0; k < 3; k++) {
    MPI_Sendrecv(cur, B, MPI_DOUBLE, right, 5, in, B, MPI_DOUBLE, left, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < B; i++) cur[i] = cos(cur[i]) + in[i] * in[i];
  }
  double l = 0, g = 0;
  for (int i = 0; i < B; i++) l += cur[i] * (1 + i);
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double x[B], dx[B] = {0}, v[B];
  for (int i = 0; i < B; i++) x[i] = 0.4 + 0.1 * i - 0.05 * rank;
  direction(v, B);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double got = global_dot(dx, v, B) / size;
  CHECK("sendrecv <grad,v>", got, FD_DIR(x, v, B, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
