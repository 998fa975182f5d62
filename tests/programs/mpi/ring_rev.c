// LEVELS: O0 O2
// RANKS: 2 4
/* Ring exchange: each rank sends x^2 to the right neighbour and receives its
 * left neighbour's value; the loss is sum over ranks of sin(x_r) * recv_r.
 * Reverse mode, gradient of the global loss w.r.t. each rank's x. */
#include "ring.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x = 0.3 + 0.1 * rank, dx = 0;
  __enzyme_autodiff((void *)ring, enzyme_dup, &x, &dx);
  /* d/dx_r: cos(x_r) * x_left^2 + sin(x_right) * 2 x_r; every rank
   * returns (and seeds) the global loss, so the gradient is that of the sum
   * of all ranks' results: size times the loss's. */
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double xl = 0.3 + 0.1 * left, xr = 0.3 + 0.1 * right;
  CHECK("ring dx", dx, size * (cos(x) * xl * xl + sin(xr) * 2 * x), 1e-12);
  MPI_Finalize();
  CHECK_DONE();
}
