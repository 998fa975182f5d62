// LEVELS: O0 O1 O2 O3
// RANKS: 1 2 4
/* Vector forward mode (enzyme_width 2) through MPI_Sendrecv around a
 * ring, MPI_Gatherv / MPI_Scatterv with uneven counts, MPI_Allgather, an
 * in-place MPI_Reduce with MPI_MIN and an MPI_Isend/MPI_Irecv pair
 * completed by MPI_Test in a loop; each lane against a finite difference
 * along its own direction. */
#include "mpicheck.h"
#define N 4
#define MAXP 8

double f(double *x) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  double a[N], b[N], all[N * MAXP], back[N], mine[N], mn[N];
  for (int i = 0; i < N; i++) a[i] = x[i] * x[i] + 0.1 * me;
  MPI_Sendrecv(a, N, MPI_DOUBLE, right, 3, b, N, MPI_DOUBLE, left, 3, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  /* rank q contributes q % N + 1 elements to rank 0 */
  int cnt[MAXP], dsp[MAXP], at = 0;
  for (int q = 0; q < p; q++) {
    cnt[q] = q % N + 1;
    dsp[q] = at;
    at += cnt[q];
  }
  MPI_Gatherv(b, cnt[me], MPI_DOUBLE, all, cnt, dsp, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (me == 0)
    for (int k = 0; k < at; k++) all[k] = sin(all[k]) * (1.0 + 0.1 * k);
  MPI_Scatterv(all, cnt, dsp, MPI_DOUBLE, back, cnt[me], MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allgather(x, N, MPI_DOUBLE, all, N, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) mine[i] = x[i] * (1.0 + 0.3 * me) + 0.2 * me;
  if (me == 0)
    MPI_Reduce(MPI_IN_PLACE, mine, N, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(mine, mn, N, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  double in = 0, out = x[0] * x[N - 1];
  MPI_Request rq[2];
  MPI_Irecv(&in, 1, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(&out, 1, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &rq[1]);
  for (int k = 0; k < 2; k++) {
    int done = 0;
    while (!done) MPI_Test(&rq[k], &done, MPI_STATUS_IGNORE);
  }
  double l = in * in, g = 0;
  for (int i = 0; i < cnt[me]; i++) l += back[i] * (1.0 + i);
  for (int k = 0; k < N * p; k++) l += all[k] * all[k] * (1.0 + 0.01 * k) * (1.0 + me);
  if (me == 0)
    for (int i = 0; i < N; i++) l += mine[i] * mine[i];
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

typedef struct {
  double d[2];
} v2;
extern v2 __enzyme_fwddiff_v2(void *, ...);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank();
  double x[N], v[2][N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + 0.13 * i + 0.07 * rank;
    v[1][i] = 0.3 - 0.25 * ((i * 5 + rank) % 4);
  }
  direction(v[0], N);
  v2 r = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dup, x, v[0], v[1]);
  for (int l = 0; l < 2; l++) CHECK("mpi lane", r.d[l], FD_DIR(x, v[l], N, f(x), 1e-6), 1e-6);
  MPI_DONE();
}
