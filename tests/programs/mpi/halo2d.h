/* The primal of halo2d_fwd.c and halo2d_rev.c (the forward and reverse mode
 * tests of the same program; the test files describe it). */
#ifndef ENZYME_RS_MPI_HALO2D_H
#define ENZYME_RS_MPI_HALO2D_H
#include "mpicheck.h"
#define NX 5
#define NY 3
#define STEPS 3
#define AT(u, i, j) (u)[(j) * NX + (i)]

double sim(double *u0) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int up = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  /* rows 0 and NY+1 are halos */
  double *u = calloc(NX * (NY + 2), sizeof(double));
  double *un = calloc(NX * (NY + 2), sizeof(double));
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) AT(u, i, j + 1) = u0[j * NX + i];
  for (int s = 0; s < STEPS; s++) {
    MPI_Request rq[4];
    MPI_Irecv(&AT(u, 0, 0), NX, MPI_DOUBLE, down, 10, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&AT(u, 0, NY + 1), NX, MPI_DOUBLE, up, 11, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(&AT(u, 0, 1), NX, MPI_DOUBLE, down, 11, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(&AT(u, 0, NY), NX, MPI_DOUBLE, up, 10, MPI_COMM_WORLD, &rq[3]);
    for (int k = 0; k < 4; k++) MPI_Wait(&rq[k], MPI_STATUS_IGNORE);
    for (int j = 1; j <= NY; j++)
      for (int i = 0; i < NX; i++) {
        double l = i > 0 ? AT(u, i - 1, j) : 0, r = i < NX - 1 ? AT(u, i + 1, j) : 0;
        double c = AT(u, i, j);
        AT(un, i, j) = c + 0.1 * (l + r + AT(u, i, j - 1) + AT(u, i, j + 1) - 4 * c) - 0.02 * c * c * c;
      }
    for (int j = 1; j <= NY; j++)
      for (int i = 0; i < NX; i++) AT(u, i, j) = AT(un, i, j);
  }
  double local = 0, global = 0;
  for (int j = 1; j <= NY; j++)
    for (int i = 0; i < NX; i++) local += AT(u, i, j) * AT(u, i, j) * (1 + 0.1 * i);
  MPI_Reduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  free(u);
  free(un);
  return global; /* at rank 0; 0 elsewhere */
}

static double sim_all(double *x) {
  double g = sim(x);
  MPI_Bcast(&g, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return g;
}
#endif
