// LEVELS: O0 O2
// RANKS: 2
// EXPECT-ERROR: not a predefined MPI datatype constant
/* A derived datatype may hold active data: a compile error, not a silent
 * zero derivative. */
#include <mpi.h>
#include <enzyme/enzyme.h>

double f(double *x, MPI_Datatype pair) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double y[2] = {x[0] * x[0], x[0]};
  MPI_Bcast(y, 1, pair, 0, MPI_COMM_WORLD);
  return y[0] + y[1];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  double x = 1, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx, enzyme_const, pair);
  MPI_Finalize();
  return 0;
}
