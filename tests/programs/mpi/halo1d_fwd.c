// LEVELS: O0 O2
// RANKS: 2 4
/* 1-D nonlinear diffusion, distributed in blocks, halo exchange with
 * MPI_Isend/MPI_Irecv + MPI_Waitall every step (MPI_PROC_NULL at the ends);
 * the loss is all-reduced. Forward mode: the tangent along a
 * direction against a finite difference of the global loss. */
#include "mpicheck.h"
#define N 6
#define STEPS 4

double heat(double *u0) {
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

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * sin(1.0 + i + N * rank);
  direction(v, N);
  double t = __enzyme_fwddiff((void *)heat, enzyme_dup, x, v);
  double fd = FD_DIR(x, v, N, heat(x), 1e-6);
  CHECK("halo1d tangent", t, fd, 1e-6);
  MPI_DONE();
}
