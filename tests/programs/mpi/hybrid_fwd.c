// LEVELS: O0 O2
// RANKS: 2 4
// THREADS: 1 2
// FLAGS: -fopenmp
/* Hybrid MPI + OpenMP (hybrid_heat.h), forward mode: the tangent of the
 * global loss along a direction of the distributed input against a finite
 * difference. */
#include "hybrid_heat.h"

int main(int argc, char **argv) {
  hybrid_init(&argc, &argv);
  double x[N], v[N], k = 0.2;
  hybrid_input(x, v);
  double t = __enzyme_fwddiff((void *)heat, enzyme_dup, x, v, enzyme_const, k);
  double fd = FD_DIR(x, v, N, heat(x, k), 1e-6);
  CHECK("hybrid tangent", t, fd, 1e-6);
  MPI_DONE();
}
