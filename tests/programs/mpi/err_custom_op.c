// LEVELS: O0 O2
// RANKS: 2
// EXPECT-ERROR: a custom MPI_Op) has no derivative
/* A reduction with a user-defined operation has no derivative. */
#include <mpi.h>
#include <enzyme/enzyme.h>

static void prod(void *in, void *inout, int *len, MPI_Datatype *t) {
  for (int i = 0; i < *len; i++) ((double *)inout)[i] *= ((double *)in)[i];
}

double f(double *x, MPI_Op op) {
  double y = x[0] * x[0], g = 0;
  MPI_Allreduce(&y, &g, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  return g;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Op op;
  MPI_Op_create(prod, 1, &op);
  double x = 1, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx, enzyme_const, op);
  MPI_Finalize();
  return 0;
}
