// LEVELS: O0 O2
// RANKS: 2 4
/* 2-D stencil (an NX x NY block per rank, the ranks stacked along y):
 * halo rows exchanged with MPI_Irecv/MPI_Isend and one MPI_Wait per
 * request, a few explicit steps of a nonlinear diffusion, the loss summed
 * at rank 0 with MPI_Reduce. Reverse mode; the distributed gradient along
 * a direction against a finite difference of the global loss. */
#include "halo2d.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  enum { M = NX * NY };
  double x[M], dx[M] = {0}, v[M];
  for (int i = 0; i < M; i++) x[i] = 0.5 + 0.3 * cos(0.7 * i + 1.3 * rank);
  direction(v, M);
  __enzyme_autodiff((void *)sim, enzyme_dup, x, dx);
  double got = global_dot(dx, v, M);
  double fd = FD_DIR(x, v, M, sim_all(x), 1e-6);
  CHECK("halo2d <grad,v>", got, fd, 1e-6);
  MPI_DONE();
}
