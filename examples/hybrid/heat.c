/* Hybrid MPI + OpenMP example: the gradient of a distributed 1-D heat
 * equation. The rod is split in blocks over the MPI ranks; each step
 * exchanges one halo cell with each neighbour (MPI_Isend / MPI_Irecv /
 * MPI_Waitall) and updates the block with an OpenMP parallel loop; the
 * loss (a weighted sum of squares) is reduced by OpenMP within a rank and
 * by MPI_Allreduce across ranks.
 *
 *   enzyme-clang -fopenmp (via OMPI_CC) ... ; mpirun -np 2 ./heat
 *
 * __enzyme_autodiff gives each rank the gradient of the global loss with
 * respect to its own block of the initial temperature and to the
 * conductivity k; the program checks both against finite differences. */
#include <enzyme/enzyme.h>
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1000 /* cells per rank */
#define STEPS 20

double loss(const double *u0, double k) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double *u = malloc(sizeof(double) * (N + 2)), *un = malloc(sizeof(double) * (N + 2));
  for (int i = 0; i < N; i++) u[i + 1] = u0[i];
  for (int s = 0; s < STEPS; s++) {
    u[0] = u[N + 1] = 0.0; /* fixed ends; interior halos are received */
    MPI_Request req[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[N], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
#pragma omp parallel for
    for (int i = 1; i <= N; i++) un[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]);
#pragma omp parallel for
    for (int i = 1; i <= N; i++) u[i] = un[i];
  }
  double local = 0, global = 0;
#pragma omp parallel for reduction(+ : local)
  for (int i = 1; i <= N; i++) local += (1.0 + 0.001 * i) * u[i] * u[i];
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(u);
  free(un);
  return global;
}

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *u0 = malloc(sizeof(double) * N), *du0 = calloc(N, sizeof(double));
  for (int i = 0; i < N; i++) u0[i] = sin(0.01 * (i + N * rank));
  double k = 0.2;
  /* Every rank returns (and so seeds) the same global loss: the gradient
   * each rank gets is `size` times the gradient of the loss. */
  double dk = __enzyme_autodiff((void *)loss, enzyme_dup, u0, du0, k) / size;
  double dk_total;
  MPI_Allreduce(&dk, &dk_total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  /* Finite-difference checks: k, and one cell on the last rank. */
  double h = 1e-6, fd_k = (loss(u0, k + h) - loss(u0, k - h)) / (2 * h);
  int j = N / 2, owner = size - 1;
  double save = u0[j];
  if (rank == owner) u0[j] = save + h;
  double fp = loss(u0, k);
  if (rank == owner) u0[j] = save - h;
  double fm = loss(u0, k);
  if (rank == owner) u0[j] = save;
  double fd_u = (fp - fm) / (2 * h);
  int ok = fabs(dk_total - fd_k) <= 1e-5 * fmax(1.0, fabs(fd_k));
  if (rank == owner) {
    double g = du0[j] / size;
    ok &= fabs(g - fd_u) <= 1e-5 * fmax(1.0, fabs(fd_u));
    printf("rank %d of %d, %d threads: dL/du0[%d] = %.10f (finite difference %.10f)\n", rank,
           size, omp_get_max_threads(), j, g, fd_u);
  }
  if (rank == 0) printf("dL/dk = %.10f (finite difference %.10f)\n", dk_total, fd_k);
  int all_ok;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  free(u0);
  free(du0);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
