/* The primal of halo1d_fwd.c and halo1d_rev.c (the forward and reverse mode
 * tests of the same program; the test files describe it). */
#ifndef ENZYME_RS_MPI_HALO1D_H
#define ENZYME_RS_MPI_HALO1D_H
#include "mpicheck.h"
#define N 6
#define STEPS 4

double heat(double *u0) {
  NEIGHBOURS(left, right);
  double *u = malloc(sizeof(double) * (N + 2)), *un = malloc(sizeof(double) * (N + 2));
  for (int i = 0; i < N; i++) u[i + 1] = u0[i];
  for (int s = 0; s < STEPS; s++) {
    HALO_EXCHANGE(u, N, left, right);
    for (int i = 1; i <= N; i++)
      un[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.05 * sin(u[i]) * u[i];
    for (int i = 1; i <= N; i++) u[i] = un[i];
  }
  double local = 0, global = 0;
  for (int i = 1; i <= N; i++) local += u[i] * u[i] * (1.0 + 0.1 * i);
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(u);
  free(un);
  return global;
}
#endif
