// LEVELS: O0
// RANKS: 2
// EXPECT-ERROR: 'MPI_Put' has no derivative
/* One-sided communication has no derivative: a compile error naming the
 * call (and its source line). */
#include <mpi.h>
#include <enzyme/enzyme.h>

double f(double *x, MPI_Win win) {
  double y = x[0] * x[0];
  MPI_Put(&y, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, win);
  return y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double x = 1, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx, enzyme_const, MPI_WIN_NULL);
  MPI_Finalize();
  return 0;
}
