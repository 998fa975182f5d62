/* The primal of ring_fwd.c and ring_rev.c (the forward and reverse mode
 * tests of the same program; the test files describe it). */
#ifndef ENZYME_RS_MPI_RING_H
#define ENZYME_RS_MPI_RING_H
#include <mpi.h>
#include "../check.h"

double ring(double *x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double out = x[0] * x[0], in = 0;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  if (rank % 2 == 0) {
    MPI_Send(&out, 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&in, 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&out, 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
  }
  double local = sin(x[0]) * in, total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}
#endif
