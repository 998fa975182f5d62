// LEVELS: O0 O2
// RANKS: 2 4
/* The halo exchange in a helper function called every step (differentiated
 * as a callee: its nonblocking records travel through its own tape), with a
 * periodic ring of ranks and a blocking MPI_Sendrecv in a second helper.
 * Reverse mode against a finite difference along a direction. */
#include "helper_exchange.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double x[N], dx[N] = {0}, v[N];
  for (int i = 0; i < N; i++) x[i] = 0.6 + 0.1 * cos(i + 2.0 * rank);
  direction(v, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double got = global_dot(dx, v, N) / size;
  CHECK("helper exchange <grad,v>", got, FD_DIR(x, v, N, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
