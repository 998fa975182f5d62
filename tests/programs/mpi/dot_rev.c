// LEVELS: O0 O2
// RANKS: 2 4
/* Distributed dot product <x, y> of two block-distributed vectors, then a
 * scalar function of it. Reverse mode: d/dx = f'(<x,y>) y (every rank
 * holds the replicated result; the gradient of the sum over ranks). */
#include "dot.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double x[N], y[N], dx[N] = {0}, dy[N] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = 0.1 * (i + 1) + 0.2 * rank;
    y[i] = 1.0 - 0.1 * i + 0.05 * rank;
  }
  double g = global_dot(x, y, N);
  __enzyme_autodiff((void *)dotf, enzyme_dup, x, dx, enzyme_dup, y, dy);
  for (int i = 0; i < N; i++) {
    CHECK("ddot/dx", dx[i], size * 0.1 * exp(0.1 * g) * y[i], 1e-12);
    CHECK("ddot/dy", dy[i], size * 0.1 * exp(0.1 * g) * x[i], 1e-12);
  }
  MPI_DONE();
}
