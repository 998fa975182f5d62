/* The primal of alltoallv_fwd.c and alltoallv_rev.c (the forward and
 * reverse mode tests of the same program; the test files describe it). */
#ifndef ENZYME_RS_MPI_ALLTOALLV_H
#define ENZYME_RS_MPI_ALLTOALLV_H
#include "mpicheck.h"
#define MAXP 8
#define NX (MAXP + 3)

/* Elements rank `from` sends to rank `to` (uneven, not symmetric). */
static int cnt(int from, int to) { return 1 + (2 * from + to) % 3; }

double f(double *x) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int n = p + 3;
  int sc[MAXP], sd[MAXP], rc[MAXP], rd[MAXP], c2[MAXP], d2[MAXP];
  int at = 0, at2 = 0;
  for (int q = 0; q < p; q++) {
    sc[q] = cnt(me, q);
    sd[q] = q; /* send blocks overlap: x-derived y[q..q+2] go to several ranks */
    rc[q] = cnt(q, me);
    rd[q] = at;
    at += rc[q] + 1; /* a gap after each received block */
    c2[q] = 1 + (me + q) % 2; /* symmetric: for the in-place exchange */
    d2[q] = at2;
    at2 += c2[q];
  }
  double y[NX], t[4 * MAXP];
  for (int k = 0; k < n; k++) y[k] = x[k] * (1.0 + 0.1 * k);
  /* the gaps keep these values: their derivative must survive */
  for (int k = 0; k < at; k++) t[k] = 0.5 * x[k % n];
  MPI_Alltoallv(y, sc, sd, MPI_DOUBLE, t, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int k = 0; k < at; k++) t[k] = sin(t[k]) * (1.0 + 0.05 * me + 0.01 * k);
  MPI_Alltoallv(MPI_IN_PLACE, 0, 0, MPI_DOUBLE, t, c2, d2, MPI_DOUBLE, MPI_COMM_WORLD);
  double l = 0, g = 0;
  for (int k = 0; k < at; k++) l += t[k] * t[k] * (1.0 + 0.3 * k) + t[k] * x[k % n];
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}
#endif
