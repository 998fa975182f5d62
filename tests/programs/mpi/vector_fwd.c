// LEVELS: O0 O1 O2 O3
// RANKS: 1 2 4
/* Vector forward mode (enzyme_width 3) through MPI: a nonblocking halo
 * exchange, blocking sends to rank 0, a broadcast, a sum reduction, an
 * all-reduce MAX (the winners are found once for all lanes) and an
 * all-to-all; each lane's tangent against a finite difference along its
 * own direction. */
#include "mpicheck.h"
#define N 5

double f(double *x) {
  NEIGHBOURS(left, right);
  double u[N + 2], s = 0, m[N], r = 0, b, a[2 * 8], t[2 * 8];
  for (int i = 0; i < N; i++) u[i + 1] = sin(x[i]) + 0.1 * i;
  HALO_EXCHANGE(u, N, left, right);
  for (int i = 1; i <= N; i++) s += u[i] * (u[i - 1] + u[i + 1]);
  /* everyone's partial sum to rank 0 by blocking messages */
  if (rank_ == 0) {
    r = s;
    for (int q = 1; q < size_; q++) {
      double in;
      MPI_Recv(&in, 1, MPI_DOUBLE, q, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      r += in * (1.0 + 0.1 * q);
    }
  } else {
    MPI_Send(&s, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
  }
  b = r * r;
  MPI_Bcast(&b, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double red = 0;
  MPI_Reduce(&s, &red, 1, MPI_DOUBLE, MPI_SUM, size_ - 1, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) m[i] = x[i] * (1.0 + 0.2 * rank_) + 0.3 * i * rank_ + 0.05 * rank_; /* no ties */
  MPI_Allreduce(MPI_IN_PLACE, m, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  for (int k = 0; k < 2 * size_; k++) a[k] = x[k % N] * x[(k + 1) % N];
  MPI_Alltoall(a, 2, MPI_DOUBLE, t, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  double l = 0.01 * b + (rank_ == size_ - 1 ? red * red : 0), g = 0;
  for (int i = 0; i < N; i++) l += m[i] * m[i] * (1.0 + i);
  for (int k = 0; k < 2 * size_; k++) l += sin(t[k]) * (1.0 + 0.1 * k);
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

typedef struct {
  double d[3];
} v3;
extern v3 __enzyme_fwddiff_v3(void *, ...);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  double x[N], v[3][N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.3 + 0.11 * i - 0.05 * rank;
    v[1][i] = i == 2 ? 1.0 : 0.0;
    v[2][i] = -0.4 + 0.3 * ((i + rank) % 3);
  }
  direction(v[0], N);
  v3 r = __enzyme_fwddiff_v3((void *)f, enzyme_width, 3, enzyme_dup, x, v[0], v[1], v[2]);
  for (int l = 0; l < 3; l++) CHECK("mpi lane", r.d[l], FD_DIR(x, v[l], N, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
