/* Hybrid MPI + OpenMP: a 1-D nonlinear heat equation distributed in blocks
 * over the ranks (halo exchange with MPI_Isend/MPI_Irecv + MPI_Waitall
 * each step, MPI_PROC_NULL at the ends), each rank's update and its part
 * of the loss computed by an OpenMP team; the loss is all-reduced. The
 * primal of hybrid_fwd.c and hybrid_rev.c. */
#include <omp.h>
#include "mpicheck.h"
#define N 48
#define STEPS 3

double heat(double *u0, double k) {
  NEIGHBOURS(left, right);
  double *u = malloc(sizeof(double) * (N + 2)), *un = malloc(sizeof(double) * (N + 2));
  for (int i = 0; i < N; i++) u[i + 1] = u0[i];
  for (int s = 0; s < STEPS; s++) {
    HALO_EXCHANGE(u, N, left, right);
#pragma omp parallel for
    for (int i = 1; i <= N; i++)
      un[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.05 * sin(u[i]) * u[i];
#pragma omp parallel for
    for (int i = 1; i <= N; i++) u[i] = un[i];
  }
  double local = 0, global = 0;
#pragma omp parallel for reduction(+ : local)
  for (int i = 1; i <= N; i++) local += u[i] * u[i] * (1.0 + 0.1 * i);
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(u);
  free(un);
  return global;
}

/* MPI calls stay outside the parallel regions. */
static void hybrid_init(int *argc, char ***argv) {
  int provided;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
}

static void hybrid_input(double *x, double *v) {
  int rank = mpi_rank();
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * sin(1.0 + i + N * rank);
  direction(v, N);
}
