// LEVELS: O0 O2
// RANKS: 2 4
// THREADS: 1 2
// FLAGS: -fopenmp
/* Hybrid MPI + OpenMP (hybrid_heat.h), reverse mode: the distributed
 * gradient along a direction against a finite difference of the global
 * loss, and the gradient of the replicated parameter k. */
#include "hybrid_heat.h"

int main(int argc, char **argv) {
  hybrid_init(&argc, &argv);
  int size = mpi_size();
  double x[N], dx[N] = {0}, v[N], k = 0.2;
  hybrid_input(x, v);
  double dk = __enzyme_autodiff((void *)heat, enzyme_dup, x, dx, k);
  /* every rank seeded the replicated global loss: size times the gradient */
  double got = global_dot(dx, v, N) / size;
  double fd = FD_DIR(x, v, N, heat(x, k), 1e-6);
  CHECK("hybrid <grad,v>", got, fd, 1e-6);
  double dk_all = 0;
  MPI_Allreduce(&dk, &dk_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  CHECK("hybrid dk", dk_all / size, FD(k, heat(x, k), 1e-6), 1e-6);
  MPI_DONE();
}
