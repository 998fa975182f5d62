// LEVELS: O0 O2
// RANKS: 2 4
/* MPI_Gatherv / MPI_Scatterv with uneven blocks (rank r holds r+1
 * elements): gathered at rank 1, scaled by a running product there,
 * scattered back, squared and all-reduced. Reverse mode against a finite
 * difference along a direction. */
#include "mpicheck.h"
#define MAXB 4

double f(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int counts[8], displs[8], tot = 0;
  for (int r = 0; r < size; r++) {
    counts[r] = r + 1;
    displs[r] = tot;
    tot += r + 1;
  }
  int n = rank + 1;
  double y[MAXB], back[MAXB];
  for (int i = 0; i < n; i++) y[i] = exp(0.3 * x[i]);
  double *all = malloc(sizeof(double) * tot);
  MPI_Gatherv(y, n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  if (rank == 1) {
    double p = 1.0;
    for (int k = 0; k < tot; k++) {
      double c = all[k];
      all[k] = c * p;
      p = 0.5 + 0.5 * c;
    }
  }
  MPI_Scatterv(all, counts, displs, MPI_DOUBLE, back, n, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  double l = 0, g = 0;
  for (int i = 0; i < n; i++) l += back[i] * back[i];
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(all);
  return g;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double x[MAXB] = {0}, dx[MAXB] = {0}, v[MAXB] = {0};
  int n = rank + 1;
  for (int i = 0; i < n; i++) x[i] = 0.1 * i - 0.2 * rank + 0.3;
  direction(v, n);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double got = global_dot(dx, v, n) / size;
  CHECK("gatherv/scatterv <grad,v>", got, FD_DIR(x, v, n, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
