// LEVELS: O0 O2
// RANKS: 2 4
/* The halo exchange in a helper function called every step (differentiated
 * as a callee: the tangent requests live in the shadow request slots), with a
 * periodic ring of ranks and a blocking MPI_Sendrecv in a second helper.
 * Forward mode against a finite difference along a direction. */
#include "mpicheck.h"
#define N 5

__attribute__((noinline)) static void exchange(double *u, int n, int left, int right) {
  MPI_Request r[4];
  MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &r[3]);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
}

__attribute__((noinline)) static double shift(double v, int left, int right) {
  double in = 0;
  MPI_Sendrecv(&v, 1, MPI_DOUBLE, right, 3, &in, 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  return in;
}

double f(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double u[N + 2], w[N + 2];
  for (int i = 0; i < N; i++) u[i + 1] = x[i];
  for (int s = 0; s < 3; s++) {
    exchange(u, N, left, right);
    for (int i = 1; i <= N; i++) w[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) * u[i];
    for (int i = 1; i <= N; i++) u[i] = w[i];
  }
  double l = shift(u[1] * u[N], left, right) * u[2], g = 0;
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.6 + 0.1 * cos(i + 2.0 * rank);
  direction(v, N);
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v);
  CHECK("helper exchange tangent", t, FD_DIR(x, v, N, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
