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
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double *u = malloc(sizeof(double) * (N + 2)), *un = malloc(sizeof(double) * (N + 2));
  for (int i = 0; i < N; i++) u[i + 1] = u0[i];
  for (int s = 0; s < STEPS; s++) {
    u[0] = 0.0;
    u[N + 1] = 0.0;
    MPI_Request req[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[N], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
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
