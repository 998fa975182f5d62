// LEVELS: O0 O2
// RANKS: 2 4
/* Split reverse mode: __enzyme_augmentfwd runs a step with a nonblocking
 * periodic halo exchange and an MPI_Allreduce; other communication happens
 * between the two sweeps (an unrelated MPI_Allreduce and a Barrier); then
 * __enzyme_reverse. The records of the nonblocking calls travel on the
 * tape. Checked against a finite difference of the global loss. */
#include "mpicheck.h"
#define N 4

__attribute__((noinline)) double step(double *u) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double ghost[2], edge[2] = {u[0], u[N - 1]};
  MPI_Request r[4];
  MPI_Irecv(&ghost[0], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(&ghost[1], 1, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(&edge[1], 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(&edge[0], 1, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &r[3]);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  double l = 0, g = 0;
  for (int i = 0; i < N; i++) {
    double a = i > 0 ? u[i - 1] : ghost[0], b = i < N - 1 ? u[i + 1] : ghost[1];
    l += u[i] * (a + b) + 0.1 * u[i] * u[i] * u[i];
  }
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double x[N], dx[N] = {0}, v[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.1 * i + 0.3 * rank;
  direction(v, N);
  void *tape = __enzyme_augmentfwd((void *)step, enzyme_dup, x, dx);
  double other = rank, sum = 0;
  MPI_Allreduce(&other, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  __enzyme_reverse((void *)step, enzyme_dup, x, dx, 1.0, tape);
  double got = global_dot(dx, v, N) / size;
  CHECK("split <grad,v>", got, FD_DIR(x, v, N, step(x), 1e-6), 1e-6);
  MPI_DONE();
}
