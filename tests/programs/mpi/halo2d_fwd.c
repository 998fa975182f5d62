// LEVELS: O0 O2
// RANKS: 2 4
/* 2-D stencil (an NX x NY block per rank, the ranks stacked along y):
 * halo rows exchanged with MPI_Irecv/MPI_Isend and one MPI_Wait per
 * request, a few explicit steps of a nonlinear diffusion, the loss summed
 * at rank 0 with MPI_Reduce. Forward mode; the tangent along a direction
 * against a finite difference of the global loss. */
#include "halo2d.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  enum { M = NX * NY };
  double x[M], v[M];
  for (int i = 0; i < M; i++) x[i] = 0.5 + 0.3 * cos(0.7 * i + 1.3 * rank);
  direction(v, M);
  double t = __enzyme_fwddiff((void *)sim, enzyme_dup, x, v);
  MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double fd = FD_DIR(x, v, M, sim_all(x), 1e-6);
  CHECK("halo2d tangent", t, fd, 1e-6);
  MPI_DONE();
}
