/* The primal of helper_exchange_fwd.c and helper_exchange_rev.c (the forward and reverse mode
 * tests of the same program; the test files describe it). */
#ifndef ENZYME_RS_MPI_HELPER_EXCHANGE_H
#define ENZYME_RS_MPI_HELPER_EXCHANGE_H
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
#endif
