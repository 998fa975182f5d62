/* Helpers for the MPI test programs: every rank checks its own values;
 * distributed gradients are checked along a direction v (the same on every
 * run): the global <grad, v> against a central finite difference of the
 * global result along v, computed by all ranks together. */
#ifndef ENZYME_RS_MPI_CHECK_H
#define ENZYME_RS_MPI_CHECK_H
#include <mpi.h>
#include "../check.h"

static int mpi_rank(void) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
static int mpi_size(void) {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/* Global dot product of distributed vectors (outside differentiated code). */
static double global_dot(const double *a, const double *b, int n) {
  double l = 0, g = 0;
  for (int i = 0; i < n; i++) l += a[i] * b[i];
  MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

/* A fixed direction, different per rank and element. */
static void direction(double *v, int n) {
  int r = mpi_rank();
  for (int i = 0; i < n; i++) v[i] = 0.5 + 0.37 * ((i * 7 + r * 3) % 5) - 0.2 * (i % 2);
}

/* Central difference of the global value `expr` (evaluated by all ranks)
 * along direction v of the distributed input x[0..n). */
#define FD_DIR(x, v, n, expr, h)                               \
  ({                                                           \
    double *s_ = malloc(sizeof(double) * (n));                 \
    for (int i_ = 0; i_ < (n); i_++) s_[i_] = (x)[i_];         \
    for (int i_ = 0; i_ < (n); i_++) (x)[i_] = s_[i_] + (h) * (v)[i_]; \
    double p_ = (expr);                                        \
    for (int i_ = 0; i_ < (n); i_++) (x)[i_] = s_[i_] - (h) * (v)[i_]; \
    double m_ = (expr);                                        \
    for (int i_ = 0; i_ < (n); i_++) (x)[i_] = s_[i_];         \
    free(s_);                                                  \
    (p_ - m_) / (2 * (h));                                     \
  })

/* This rank's neighbours in a 1-D block distribution (MPI_PROC_NULL past
 * the ends). */
#define NEIGHBOURS(left, right)                                  \
  int rank_, size_;                                              \
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);                         \
  MPI_Comm_size(MPI_COMM_WORLD, &size_);                         \
  int left = rank_ > 0 ? rank_ - 1 : MPI_PROC_NULL;              \
  int right = rank_ < size_ - 1 ? rank_ + 1 : MPI_PROC_NULL

/* One step's halo exchange of u[0..n+1]: the end cells are zeroed, then
 * received from the neighbours while u[1] and u[n] are sent, with
 * MPI_Irecv/MPI_Isend + MPI_Waitall. A macro, so the differentiated
 * function holds the calls itself at every optimization level. */
#define HALO_EXCHANGE(u, n, left, right)                                   \
  do {                                                                     \
    (u)[0] = 0.0;                                                          \
    (u)[(n) + 1] = 0.0;                                                    \
    MPI_Request req_[4];                                                   \
    MPI_Irecv(&(u)[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req_[0]);    \
    MPI_Irecv(&(u)[(n) + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req_[1]); \
    MPI_Isend(&(u)[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req_[2]);    \
    MPI_Isend(&(u)[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req_[3]);   \
    MPI_Waitall(4, req_, MPI_STATUSES_IGNORE);                             \
  } while (0)

#define MPI_DONE()    \
  do {                \
    MPI_Finalize();   \
    CHECK_DONE();     \
  } while (0)
#endif
