// LEVELS: O0 O2
// RANKS: 2 4
/* The halo exchange in a helper function called every step (differentiated
 * as a callee: the tangent requests live in the shadow request slots), with a
 * periodic ring of ranks and a blocking MPI_Sendrecv in a second helper.
 * Forward mode against a finite difference along a direction. */
#include "helper_exchange.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.6 + 0.1 * cos(i + 2.0 * rank);
  direction(v, N);
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v);
  CHECK("helper exchange tangent", t, FD_DIR(x, v, N, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
