// LEVELS: O0 O2
// RANKS: 2 4
/* Distributed dot product in forward mode, with x active and y constant:
 * the tangent is f'(<x,y>) <dx, y>. */
#include "dot.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  double x[N], y[N], v[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.1 * (i + 1) + 0.2 * rank;
    y[i] = 1.0 - 0.1 * i + 0.05 * rank;
  }
  direction(v, N);
  double g = global_dot(x, y, N), vy = global_dot(v, y, N);
  double t = __enzyme_fwddiff((void *)dotf, enzyme_dup, x, v, enzyme_const, y);
  CHECK("dot tangent", t, 0.1 * exp(0.1 * g) * vy, 1e-12);
  CHECK("dot tangent fd", t, FD_DIR(x, v, N, dotf(x, y), 1e-6), 1e-6);
  MPI_DONE();
}
