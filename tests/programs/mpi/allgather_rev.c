// LEVELS: O0 O2
// RANKS: 2 4
/* MPI_Allgather (and an in-place one): every rank gathers all blocks and
 * computes a rank-dependent weighted sum of products; the losses are summed
 * at rank 0. Reverse mode against a finite difference along a direction. */
#include "mpicheck.h"
#define B 2

double f(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *all = malloc(sizeof(double) * B * size), *all2 = malloc(sizeof(double) * B * size);
  double y[B];
  for (int i = 0; i < B; i++) y[i] = x[i] * x[i];
  MPI_Allgather(y, B, MPI_DOUBLE, all, B, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < B; i++) all2[rank * B + i] = sin(x[i]);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DOUBLE, all2, B, MPI_DOUBLE, MPI_COMM_WORLD);
  double l = 0, g = 0;
  for (int k = 0; k < B * size; k++) l += all[k] * all2[(k + rank + 1) % (B * size)] * (1.0 + 0.1 * rank);
  MPI_Reduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  free(all);
  free(all2);
  return g;
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
  for (int i = 0; i < B; i++) x[i] = 0.3 + 0.2 * i + 0.1 * rank;
  direction(v, B);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double got = global_dot(dx, v, B);
  CHECK("allgather <grad,v>", got, FD_DIR(x, v, B, f_all(x), 1e-6), 1e-6);
  MPI_DONE();
}
