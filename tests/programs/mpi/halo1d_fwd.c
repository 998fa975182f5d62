// LEVELS: O0 O2
// RANKS: 2 4
/* 1-D nonlinear diffusion, distributed in blocks, halo exchange with
 * MPI_Isend/MPI_Irecv + MPI_Waitall every step (MPI_PROC_NULL at the ends);
 * the loss is all-reduced. Forward mode: the tangent along a
 * direction against a finite difference of the global loss. */
#include "halo1d.h"

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
