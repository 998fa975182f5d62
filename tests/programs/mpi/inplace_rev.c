// LEVELS: O0 O2
// RANKS: 2 4
/* Loss reduction with MPI_IN_PLACE at the root (MPI_Reduce, MPI_Gather,
 * MPI_Scatter), an MPI_Ssend / MPI_Recv pair and an MPI_Irecv completed by
 * polling MPI_Test. Reverse mode against a finite difference along a
 * direction of the global loss. */
#include "mpicheck.h"
#define B 2

double f(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double y[B];
  for (int i = 0; i < B; i++) y[i] = x[i] * x[i] + 0.5 * x[i];
  /* gather at the root, in place there */
  double *all = malloc(sizeof(double) * B * size);
  for (int i = 0; i < B; i++) all[rank * B + i] = y[i];
  if (rank == 0)
    MPI_Gather(MPI_IN_PLACE, B, MPI_DOUBLE, all, B, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  else
    MPI_Gather(y, B, MPI_DOUBLE, NULL, B, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int k = 1; k < B * size; k++) all[k] = all[k] * (1.0 + 0.2 * all[k - 1]);
  /* scatter back, in place at the root */
  double back[B];
  if (rank == 0) {
    MPI_Scatter(all, B, MPI_DOUBLE, MPI_IN_PLACE, B, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < B; i++) back[i] = all[i];
  } else {
    MPI_Scatter(NULL, B, MPI_DOUBLE, back, B, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  /* rank 1 sends its first value to rank 0 synchronously; rank 0 polls */
  double got = 0;
  if (rank == 1) MPI_Ssend(&back[0], 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Request rq;
    int done = 0;
    MPI_Irecv(&got, 1, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD, &rq);
    while (!done) MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
  }
  double l = got * got;
  for (int i = 0; i < B; i++) l += sin(back[i]);
  if (rank == 0)
    MPI_Reduce(MPI_IN_PLACE, &l, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(&l, NULL, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  free(all);
  return rank == 0 ? l : 0.0;
}

static double f_all(double *x) {
  double g = f(x);
  MPI_Bcast(&g, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return g;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  double x[B], dx[B] = {0}, v[B];
  for (int i = 0; i < B; i++) x[i] = 0.3 + 0.2 * i - 0.1 * rank;
  direction(v, B);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double got = global_dot(dx, v, B);
  CHECK("in place <grad,v>", got, FD_DIR(x, v, B, f_all(x), 1e-6), 1e-6);
  MPI_DONE();
}
