/* Runtime helpers for the derivatives of MPI calls (OpenMPI ABI: handles
 * are pointers). enzyme-rs compiles this file to LLVM IR at build time and
 * links it into a module whose differentiated code calls MPI; the functions
 * get internal linkage there. It does not include mpi.h: the few handles and
 * entry points it needs are declared here with OpenMPI's layout.
 *
 * Conventions: a shadow buffer argument is NULL when the primal buffer has
 * no shadow (inactive data); the communication still happens (the peer
 * expects it), with zeros sent or the received values dropped. Only
 * MPI_DOUBLE and MPI_FLOAT buffers carry derivatives; other datatypes are
 * passed through with their element size and no arithmetic. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *Comm, *Dt, *Op, *Req;
typedef struct {
  int source, tag, error, cancelled;
  size_t ucount;
} Status;

extern struct ompi_dt_ ompi_mpi_double, ompi_mpi_float, ompi_mpi_int;
extern struct ompi_op_ ompi_mpi_op_sum, ompi_mpi_op_max, ompi_mpi_op_min;
#define DOUBLE ((Dt)&ompi_mpi_double)
#define FLOAT ((Dt)&ompi_mpi_float)
#define INT ((Dt)&ompi_mpi_int)
#define SUM ((Op)&ompi_mpi_op_sum)
#define MAX ((Op)&ompi_mpi_op_max)
#define MIN ((Op)&ompi_mpi_op_min)
#define IN_PLACE ((void *)1)
#define IGNORE ((Status *)0)

int MPI_Comm_rank(Comm, int *);
int MPI_Comm_size(Comm, int *);
int MPI_Type_size(Dt, int *);
int MPI_Send(const void *, int, Dt, int, int, Comm);
int MPI_Recv(void *, int, Dt, int, int, Comm, Status *);
int MPI_Isend(const void *, int, Dt, int, int, Comm, Req *);
int MPI_Irecv(void *, int, Dt, int, int, Comm, Req *);
int MPI_Wait(Req *, Status *);
int MPI_Sendrecv(const void *, int, Dt, int, int, void *, int, Dt, int, int, Comm, Status *);
int MPI_Bcast(void *, int, Dt, int, Comm);
int MPI_Reduce(const void *, void *, int, Dt, Op, int, Comm);
int MPI_Allreduce(const void *, void *, int, Dt, Op, Comm);
int MPI_Gather(const void *, int, Dt, void *, int, Dt, int, Comm);
int MPI_Scatter(const void *, int, Dt, void *, int, Dt, int, Comm);
int MPI_Gatherv(const void *, int, Dt, void *, const int *, const int *, Dt, int, Comm);
int MPI_Scatterv(const void *, const int *, const int *, Dt, void *, int, Dt, int, Comm);
int MPI_Allgather(const void *, int, Dt, void *, int, Dt, Comm);
int MPI_Alltoall(const void *, int, Dt, void *, int, Dt, Comm);
int MPI_Alltoallv(const void *, const int *, const int *, Dt, void *, const int *, const int *, Dt,
                  Comm);
int MPI_Reduce_scatter_block(const void *, void *, int, Dt, Op, Comm);
int MPI_Abort(Comm, int);
extern struct ompi_comm_ ompi_mpi_comm_world;

#define X __attribute__((visibility("hidden")))

static void fail(const char *what) {
  fprintf(stderr, "enzyme-rs: %s\n", what);
  MPI_Abort((Comm)&ompi_mpi_comm_world, 70);
  abort();
}

/* Bytes per element; derivatives only for double and float. */
static size_t esize(Dt t) {
  int s = 0;
  MPI_Type_size(t, &s);
  return (size_t)s;
}
static int rank_of(Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}
static int size_of(Comm c) {
  int s = 1;
  MPI_Comm_size(c, &s);
  return s;
}
static void *zeros(size_t bytes) { return calloc(bytes ? bytes : 1, 1); }

/* dst[i] += src[i] (masked by win when given). */
static void acc(void *dst, const void *src, int n, Dt t, const char *win) {
  if (!dst || n <= 0) return;
  if (t == DOUBLE) {
    double *d = dst;
    const double *s = src;
    for (int i = 0; i < n; i++)
      if (!win || win[i]) d[i] += s[i];
  } else if (t == FLOAT) {
    float *d = dst;
    const float *s = src;
    for (int i = 0; i < n; i++)
      if (!win || win[i]) d[i] += s[i];
  }
}
static void zero(void *p, int n, Dt t) {
  if (p && n > 0) memset(p, 0, (size_t)n * esize(t));
}
static void check_peer(int peer, const char *call) {
  if (peer == -1) {
    char m[200];
    snprintf(m, sizeof m, "%s with MPI_ANY_SOURCE / MPI_ANY_TAG has no derivative (name the peer and tag)", call);
    fail(m);
  }
}

/* ---- point to point ---------------------------------------------------- */

X void __enzyme_rs_mpi_send_fwd(const void *dbuf, int n, Dt t, int dest, int tag, Comm c) {
  void *z = dbuf ? NULL : zeros((size_t)n * esize(t));
  MPI_Send(dbuf ? dbuf : z, n, t, dest, tag, c);
  free(z);
}
X void __enzyme_rs_mpi_recv_fwd(void *dbuf, int n, Dt t, int src, int tag, Comm c) {
  check_peer(src, "MPI_Recv");
  check_peer(tag, "MPI_Recv");
  void *z = dbuf ? NULL : zeros((size_t)n * esize(t));
  MPI_Recv(dbuf ? dbuf : z, n, t, src, tag, c, IGNORE);
  free(z);
}
/* Reverse of a send: receive the adjoint and add it into the shadow. */
X void __enzyme_rs_mpi_send_rev(void *dbuf, int n, Dt t, int dest, int tag, Comm c) {
  void *tmp = zeros((size_t)n * esize(t));
  MPI_Recv(tmp, n, t, dest, tag, c, IGNORE);
  acc(dbuf, tmp, n, t, NULL);
  free(tmp);
}
#define PROC_NULL (-2)
/* Reverse of a receive: send the shadow back, then zero it (a receive from
 * MPI_PROC_NULL wrote nothing: its buffer keeps its adjoint). */
X void __enzyme_rs_mpi_recv_rev(void *dbuf, int n, Dt t, int src, int tag, Comm c) {
  check_peer(src, "MPI_Recv");
  check_peer(tag, "MPI_Recv");
  __enzyme_rs_mpi_send_fwd(dbuf, n, t, src, tag, c);
  if (src != PROC_NULL) zero(dbuf, n, t);
}
X void __enzyme_rs_mpi_sendrecv_fwd(const void *ds, int sn, Dt st, int dest, int stag, void *dr,
                                     int rn, Dt rt, int src, int rtag, Comm c) {
  check_peer(src, "MPI_Sendrecv");
  check_peer(rtag, "MPI_Sendrecv");
  void *zs = ds ? NULL : zeros((size_t)sn * esize(st));
  void *zr = dr ? NULL : zeros((size_t)rn * esize(rt));
  MPI_Sendrecv(ds ? ds : zs, sn, st, dest, stag, dr ? dr : zr, rn, rt, src, rtag, c, IGNORE);
  free(zs);
  free(zr);
}
X void __enzyme_rs_mpi_sendrecv_rev(void *ds, int sn, Dt st, int dest, int stag, void *dr, int rn,
                                     Dt rt, int src, int rtag, Comm c) {
  check_peer(src, "MPI_Sendrecv");
  check_peer(rtag, "MPI_Sendrecv");
  void *tmp = zeros((size_t)sn * esize(st));
  void *zr = dr ? NULL : zeros((size_t)rn * esize(rt));
  MPI_Sendrecv(dr ? dr : zr, rn, rt, src, rtag, tmp, sn, st, dest, stag, c, IGNORE);
  acc(ds, tmp, sn, st, NULL);
  if (src != PROC_NULL) zero(dr, rn, rt);
  free(tmp);
  free(zr);
}

/* ---- nonblocking ----------------------------------------------------------
 * The shadow of a request slot holds a record: in forward mode the
 * tangent message's request and its scratch buffer; in reverse mode what
 * the adjoint needs (made at the Isend/Irecv, started at the reverse of the
 * wait, finished at the reverse of the Isend/Irecv). */
typedef struct {
  int recv; /* 1: Irecv, 0: Isend */
  void *dbuf;
  int n;
  Dt t;
  int peer, tag;
  Comm c;
  void *tmp;
  Req req;
} Rec;

X void __enzyme_rs_mpi_isend_fwd(const void *dbuf, int n, Dt t, int dest, int tag, Comm c,
                                  Rec **slot) {
  Rec *r = calloc(1, sizeof(Rec));
  if (!dbuf) dbuf = r->tmp = zeros((size_t)n * esize(t));
  MPI_Isend(dbuf, n, t, dest, tag, c, &r->req);
  if (slot) *slot = r;
}
X void __enzyme_rs_mpi_irecv_fwd(void *dbuf, int n, Dt t, int src, int tag, Comm c, Rec **slot) {
  check_peer(src, "MPI_Irecv");
  check_peer(tag, "MPI_Irecv");
  Rec *r = calloc(1, sizeof(Rec));
  if (!dbuf) dbuf = r->tmp = zeros((size_t)n * esize(t));
  MPI_Irecv(dbuf, n, t, src, tag, c, &r->req);
  if (slot) *slot = r;
}
X void __enzyme_rs_mpi_wait_fwd(Rec **slot) {
  if (!slot || !*slot) return;
  Rec *r = *slot;
  MPI_Wait(&r->req, IGNORE);
  free(r->tmp);
  free(r);
  *slot = NULL;
}
X void __enzyme_rs_mpi_waitall_fwd(int n, Rec **slots) {
  for (int i = 0; i < n; i++) __enzyme_rs_mpi_wait_fwd(&slots[i]);
}
X void __enzyme_rs_mpi_test_fwd(const int *flag, Rec **slot) {
  if (*flag) __enzyme_rs_mpi_wait_fwd(slot);
}

/* Augmented sweep: the record of an Isend/Irecv, into the shadow slot. */
X Rec *__enzyme_rs_mpi_irec(int recv, void *dbuf, int n, Dt t, int peer, int tag, Comm c,
                           Rec **slot) {
  if (recv) {
    check_peer(peer, "MPI_Irecv");
    check_peer(tag, "MPI_Irecv");
  }
  Rec *r = calloc(1, sizeof(Rec));
  r->recv = recv;
  r->dbuf = dbuf;
  r->n = n;
  r->t = t;
  r->peer = peer;
  r->tag = tag;
  r->c = c;
  if (slot) *slot = r;
  return r;
}
/* Augmented sweep at a wait: take the record out of the shadow slot. */
X Rec *__enzyme_rs_mpi_take(Rec **slot) {
  if (!slot) return NULL;
  Rec *r = *slot;
  *slot = NULL;
  return r;
}
X Rec **__enzyme_rs_mpi_take_all(int n, Rec **slots) {
  Rec **out = calloc(n > 0 ? (size_t)n : 1, sizeof(Rec *));
  for (int i = 0; i < n; i++) out[i] = __enzyme_rs_mpi_take(slots ? &slots[i] : NULL);
  return out;
}
X Rec *__enzyme_rs_mpi_take_if(const int *flag, Rec **slot) {
  return *flag ? __enzyme_rs_mpi_take(slot) : NULL;
}
/* Reverse of a wait: start the adjoint message. */
X void __enzyme_rs_mpi_wait_rev(Rec *r) {
  if (!r) return;
  size_t bytes = (size_t)r->n * esize(r->t);
  if (r->recv) {
    if (!r->dbuf) r->dbuf = r->tmp = zeros(bytes);
    MPI_Isend(r->dbuf, r->n, r->t, r->peer, r->tag, r->c, &r->req);
  } else {
    r->tmp = zeros(bytes);
    MPI_Irecv(r->tmp, r->n, r->t, r->peer, r->tag, r->c, &r->req);
  }
}
X void __enzyme_rs_mpi_waitall_rev(int n, Rec **rs) {
  for (int i = n - 1; i >= 0; i--) __enzyme_rs_mpi_wait_rev(rs[i]);
  free(rs);
}
/* Reverse of an Isend/Irecv: complete the adjoint message. */
X void __enzyme_rs_mpi_start_rev(Rec *r) {
  if (!r) return;
  if (r->req) MPI_Wait(&r->req, IGNORE);
  if (r->recv) {
    if (r->tmp != r->dbuf && r->peer != PROC_NULL) zero(r->dbuf, r->n, r->t);
  } else {
    acc(r->dbuf, r->tmp, r->n, r->t, NULL);
  }
  free(r->tmp);
  free(r);
}

/* ---- collectives ---------------------------------------------------------- */

X void __enzyme_rs_mpi_bcast_fwd(void *dbuf, int n, Dt t, int root, Comm c) {
  void *z = dbuf ? NULL : zeros((size_t)n * esize(t));
  MPI_Bcast(dbuf ? dbuf : z, n, t, root, c);
  free(z);
}
/* Reverse of a broadcast: sum the adjoints at the root. */
X void __enzyme_rs_mpi_bcast_rev(void *dbuf, int n, Dt t, int root, Comm c) {
  size_t bytes = (size_t)n * esize(t);
  if (rank_of(c) == root) {
    void *z = dbuf ? NULL : zeros(bytes);
    MPI_Reduce(IN_PLACE, dbuf ? dbuf : z, n, t, SUM, root, c);
    free(z);
  } else {
    void *z = dbuf ? NULL : zeros(bytes);
    MPI_Reduce(dbuf ? dbuf : z, NULL, n, t, SUM, root, c);
    free(z);
    zero(dbuf, n, t);
  }
}

static int is_minmax(Op op) { return op == MAX || op == MIN; }
static void check_op(Op op, const char *call) {
  if (op != SUM && !is_minmax(op)) {
    char m[200];
    snprintf(m, sizeof m, "%s: only MPI_SUM, MPI_MAX and MPI_MIN have derivatives", call);
    fail(m);
  }
}

/* MAX/MIN: a copy of this rank's input, taken before the call. */
X void *__enzyme_rs_mpi_save(const void *sbuf, const void *rbuf, int n, Dt t, Op op) {
  if (!is_minmax(op)) return NULL;
  const void *in = sbuf == IN_PLACE ? rbuf : sbuf;
  size_t bytes = (size_t)n * esize(t);
  void *s = malloc(bytes ? bytes : 1);
  if (in && bytes) memcpy(s, in, bytes);
  return s;
}
/* MAX/MIN: after the call, which elements this rank won (the lowest rank
 * among equal values). root < 0: an all-reduce. */
X char *__enzyme_rs_mpi_winners(void *saved, void *rbuf, int n, Dt t, Op op, int root, Comm c) {
  if (!is_minmax(op)) return NULL;
  int me = rank_of(c);
  size_t bytes = (size_t)n * esize(t);
  void *res = malloc(bytes ? bytes : 1);
  if (root < 0 || me == root) memcpy(res, rbuf, bytes);
  if (root >= 0) MPI_Bcast(res, n, t, root, c);
  int *cand = malloc(sizeof(int) * (n > 0 ? n : 1));
  for (int i = 0; i < n; i++) {
    int eq = t == DOUBLE ? ((double *)saved)[i] == ((double *)res)[i]
                         : ((float *)saved)[i] == ((float *)res)[i];
    cand[i] = eq ? me : 0x7fffffff;
  }
  MPI_Allreduce(IN_PLACE, cand, n, INT, MIN, c);
  char *win = malloc(n > 0 ? n : 1);
  for (int i = 0; i < n; i++) win[i] = cand[i] == me;
  free(cand);
  free(res);
  free(saved);
  return win;
}

/* Forward reduce (root < 0: all-reduce), one lane; `win` is freed by
 * __enzyme_rs_mpi_drop. */
X void __enzyme_rs_mpi_reduce_fwd(const void *sbuf, void *ds, void *dr, int n, Dt t, Op op,
                                   int root, Comm c, char *win) {
  check_op(op, root < 0 ? "MPI_Allreduce" : "MPI_Reduce");
  int me = rank_of(c), here = root < 0 || me == root;
  size_t bytes = (size_t)n * esize(t);
  int inplace = sbuf == IN_PLACE;
  void *in = zeros(bytes);
  if (inplace ? dr != NULL : ds != NULL) memcpy(in, inplace ? dr : ds, bytes);
  if (win) { /* only the winner's tangent counts */
    for (int i = 0; i < n; i++)
      if (!win[i]) memset((char *)in + i * esize(t), 0, esize(t));
  }
  void *out = here ? (dr ? dr : zeros(bytes)) : NULL;
  if (root < 0)
    MPI_Allreduce(in, out, n, t, SUM, c);
  else
    MPI_Reduce(in, out, n, t, SUM, root, c);
  if (here && !dr) free(out);
  free(in);
}
/* Forward mode: the winners, once every lane's reduce_fwd has run. */
X void __enzyme_rs_mpi_drop(void *p) { free(p); }
/* Reverse reduce (root < 0: all-reduce): every rank's input gets the sum
 * (all-reduce) or the root's (reduce) output adjoint; MAX/MIN only where
 * this rank won. */
X void __enzyme_rs_mpi_reduce_rev(const void *sbuf, void *ds, void *dr, int n, Dt t, Op op,
                                   int root, Comm c, char *win) {
  check_op(op, root < 0 ? "MPI_Allreduce" : "MPI_Reduce");
  int me = rank_of(c), here = root < 0 || me == root;
  size_t bytes = (size_t)n * esize(t);
  void *g = zeros(bytes);
  if (here && dr) memcpy(g, dr, bytes);
  if (root < 0)
    MPI_Allreduce(IN_PLACE, g, n, t, SUM, c);
  else
    MPI_Bcast(g, n, t, root, c);
  if (here) zero(dr, n, t);
  if (sbuf == IN_PLACE) {
    if (dr) {
      if (win)
        for (int i = 0; i < n; i++)
          if (!win[i]) memset((char *)g + i * esize(t), 0, esize(t));
      memcpy(dr, g, bytes);
    }
  } else {
    acc(ds, g, n, t, win);
  }
  free(g);
  free(win);
}

X void __enzyme_rs_mpi_gather_fwd(const void *sbuf, void *ds, int sn, Dt st, void *dr, int rn,
                                   Dt rt, int root, Comm c) {
  int here = rank_of(c) == root;
  void *zs = NULL, *zr = NULL;
  if (sbuf != IN_PLACE && !ds) ds = zs = zeros((size_t)sn * esize(st));
  if (here && !dr) dr = zr = zeros((size_t)rn * size_of(c) * esize(rt));
  MPI_Gather(sbuf == IN_PLACE ? IN_PLACE : ds, sn, st, dr, rn, rt, root, c);
  free(zs);
  free(zr);
}
/* Reverse of a gather: scatter the adjoints back. */
X void __enzyme_rs_mpi_gather_rev(const void *sbuf, void *ds, int sn, Dt st, void *dr, int rn,
                                   Dt rt, int root, Comm c) {
  int me = rank_of(c), here = me == root, p = size_of(c);
  int inplace = sbuf == IN_PLACE;
  void *zr = NULL, *tmp = NULL;
  if (here && !dr) dr = zr = zeros((size_t)rn * p * esize(rt));
  if (!inplace) tmp = zeros((size_t)sn * esize(st));
  MPI_Scatter(dr, rn, rt, inplace ? IN_PLACE : tmp, sn, st, root, c);
  if (!inplace) acc(ds, tmp, sn, st, NULL);
  if (here && !zr) {
    size_t blk = (size_t)rn * esize(rt);
    for (int q = 0; q < p; q++)
      if (!(inplace && q == me)) memset((char *)dr + q * blk, 0, blk);
  }
  free(tmp);
  free(zr);
}
X void __enzyme_rs_mpi_scatter_fwd(void *ds, int sn, Dt st, const void *rbuf, void *dr, int rn,
                                    Dt rt, int root, Comm c) {
  int here = rank_of(c) == root;
  void *zs = NULL, *zr = NULL;
  if (here && !ds) ds = zs = zeros((size_t)sn * size_of(c) * esize(st));
  if (rbuf != IN_PLACE && !dr) dr = zr = zeros((size_t)rn * esize(rt));
  MPI_Scatter(ds, sn, st, rbuf == IN_PLACE ? IN_PLACE : dr, rn, rt, root, c);
  free(zs);
  free(zr);
}
/* Reverse of a scatter: gather the adjoints to the root. */
X void __enzyme_rs_mpi_scatter_rev(void *ds, int sn, Dt st, const void *rbuf, void *dr, int rn,
                                    Dt rt, int root, Comm c) {
  int here = rank_of(c) == root, p = size_of(c);
  int inplace = rbuf == IN_PLACE;
  void *zr = NULL, *tmp = NULL;
  if (!inplace && !dr) dr = zr = zeros((size_t)rn * esize(rt));
  if (here) tmp = zeros((size_t)sn * p * esize(st));
  MPI_Gather(inplace ? IN_PLACE : dr, rn, rt, tmp, sn, st, root, c);
  if (here) acc(ds, tmp, sn * p, st, NULL);
  if (!inplace) zero(dr, rn, rt);
  free(tmp);
  free(zr);
}
static int total(const int *counts, const int *displs, int p) {
  int m = 0;
  for (int q = 0; q < p; q++)
    if (displs[q] + counts[q] > m) m = displs[q] + counts[q];
  return m;
}
X void __enzyme_rs_mpi_gatherv_fwd(const void *sbuf, void *ds, int sn, Dt st, void *dr,
                                    const int *rcounts, const int *displs, Dt rt, int root,
                                    Comm c) {
  int here = rank_of(c) == root;
  void *zs = NULL, *zr = NULL;
  if (sbuf != IN_PLACE && !ds) ds = zs = zeros((size_t)sn * esize(st));
  if (here && !dr) dr = zr = zeros((size_t)total(rcounts, displs, size_of(c)) * esize(rt));
  MPI_Gatherv(sbuf == IN_PLACE ? IN_PLACE : ds, sn, st, dr, rcounts, displs, rt, root, c);
  free(zs);
  free(zr);
}
/* Augmented sweep of Gatherv/Scatterv: a copy of the counts and
 * displacements (the reverse sweep runs after the caller's arrays are
 * gone): p counts, then p displacements; freed by the reverse. */
X int *__enzyme_rs_mpi_keep_counts(const int *counts, const int *displs, int root, Comm c) {
  int p = size_of(c);
  int *k = calloc(2 * (size_t)p, sizeof(int));
  if (rank_of(c) == root && counts && displs) {
    memcpy(k, counts, sizeof(int) * p);
    memcpy(k + p, displs, sizeof(int) * p);
  }
  return k;
}
X void __enzyme_rs_mpi_gatherv_rev(const void *sbuf, void *ds, int sn, Dt st, void *dr,
                                    int *kept, const int *unused, Dt rt, int root, Comm c) {
  int me = rank_of(c), here = me == root, p = size_of(c);
  const int *rcounts = kept, *displs = kept + p;
  (void)unused;
  int inplace = sbuf == IN_PLACE;
  void *zr = NULL, *tmp = NULL;
  if (here && !dr) dr = zr = zeros((size_t)total(rcounts, displs, p) * esize(rt));
  if (!inplace) tmp = zeros((size_t)sn * esize(st));
  MPI_Scatterv(dr, rcounts, displs, rt, inplace ? IN_PLACE : tmp, sn, st, root, c);
  if (!inplace) acc(ds, tmp, sn, st, NULL);
  if (here && !zr) {
    for (int q = 0; q < p; q++)
      if (!(inplace && q == me)) zero((char *)dr + (size_t)displs[q] * esize(rt), rcounts[q], rt);
  }
  free(tmp);
  free(zr);
  free(kept);
}
X void __enzyme_rs_mpi_scatterv_fwd(void *ds, const int *scounts, const int *displs, Dt st,
                                     const void *rbuf, void *dr, int rn, Dt rt, int root,
                                     Comm c) {
  int here = rank_of(c) == root;
  void *zs = NULL, *zr = NULL;
  if (here && !ds) ds = zs = zeros((size_t)total(scounts, displs, size_of(c)) * esize(st));
  if (rbuf != IN_PLACE && !dr) dr = zr = zeros((size_t)rn * esize(rt));
  MPI_Scatterv(ds, scounts, displs, st, rbuf == IN_PLACE ? IN_PLACE : dr, rn, rt, root, c);
  free(zs);
  free(zr);
}
X void __enzyme_rs_mpi_scatterv_rev(void *ds, int *kept, const int *unused, Dt st,
                                     const void *rbuf, void *dr, int rn, Dt rt, int root,
                                     Comm c) {
  int here = rank_of(c) == root, p = size_of(c);
  const int *scounts = kept, *displs = kept + p;
  (void)unused;
  int inplace = rbuf == IN_PLACE;
  void *zr = NULL, *tmp = NULL;
  int tot = here ? total(scounts, displs, p) : 0;
  if (!inplace && !dr) dr = zr = zeros((size_t)rn * esize(rt));
  if (here) tmp = zeros((size_t)tot * esize(st));
  MPI_Gatherv(inplace ? IN_PLACE : dr, rn, rt, tmp, scounts, displs, st, root, c);
  if (here) acc(ds, tmp, tot, st, NULL);
  if (!inplace) zero(dr, rn, rt);
  free(tmp);
  free(zr);
  free(kept);
}
X void __enzyme_rs_mpi_allgather_fwd(const void *sbuf, void *ds, int sn, Dt st, void *dr, int rn,
                                      Dt rt, Comm c) {
  void *zs = NULL, *zr = NULL;
  if (sbuf != IN_PLACE && !ds) ds = zs = zeros((size_t)sn * esize(st));
  if (!dr) dr = zr = zeros((size_t)rn * size_of(c) * esize(rt));
  MPI_Allgather(sbuf == IN_PLACE ? IN_PLACE : ds, sn, st, dr, rn, rt, c);
  free(zs);
  free(zr);
}
/* Reverse of an all-gather: each rank's block gets the sum of every
 * rank's adjoint of it (a reduce-scatter). */
X void __enzyme_rs_mpi_allgather_rev(const void *sbuf, void *ds, int sn, Dt st, void *dr, int rn,
                                      Dt rt, Comm c) {
  int me = rank_of(c), p = size_of(c);
  size_t blk = (size_t)rn * esize(rt);
  void *zr = NULL;
  if (!dr) dr = zr = zeros(blk * p);
  void *tmp = zeros(blk);
  MPI_Reduce_scatter_block(dr, tmp, rn, rt, SUM, c);
  if (!zr) memset(dr, 0, blk * p);
  if (sbuf == IN_PLACE) {
    if (!zr) memcpy((char *)dr + me * blk, tmp, blk);
  } else {
    acc(ds, tmp, sn, st, NULL);
  }
  free(tmp);
  free(zr);
}

X void __enzyme_rs_mpi_alltoall_fwd(const void *sbuf, void *ds, int sn, Dt st, void *dr, int rn,
                                     Dt rt, Comm c) {
  int p = size_of(c);
  void *zs = NULL, *zr = NULL;
  if (sbuf != IN_PLACE && !ds) ds = zs = zeros((size_t)sn * p * esize(st));
  if (!dr) dr = zr = zeros((size_t)rn * p * esize(rt));
  MPI_Alltoall(sbuf == IN_PLACE ? IN_PLACE : ds, sn, st, dr, rn, rt, c);
  free(zs);
  free(zr);
}
/* Reverse of an all-to-all: the transposed exchange of the adjoints (an
 * all-to-all again). */
X void __enzyme_rs_mpi_alltoall_rev(const void *sbuf, void *ds, int sn, Dt st, void *dr, int rn,
                                     Dt rt, Comm c) {
  int p = size_of(c);
  void *zr = NULL;
  if (!dr) dr = zr = zeros((size_t)rn * p * esize(rt));
  if (sbuf == IN_PLACE) {
    MPI_Alltoall(IN_PLACE, 0, rt, dr, rn, rt, c);
  } else {
    void *tmp = zeros((size_t)sn * p * esize(st));
    MPI_Alltoall(dr, rn, rt, tmp, sn, st, c);
    acc(ds, tmp, sn * p, st, NULL);
    if (!zr) zero(dr, rn * p, rt);
    free(tmp);
  }
  free(zr);
}

/* All-to-all with counts and displacements per rank. */
X void __enzyme_rs_mpi_alltoallv_fwd(const void *sbuf, void *ds, const int *sc, const int *sd,
                                      Dt st, void *dr, const int *rc, const int *rd, Dt rt,
                                      Comm c) {
  int p = size_of(c), inplace = sbuf == IN_PLACE;
  void *zs = NULL, *zr = NULL;
  if (!inplace && !ds) ds = zs = zeros((size_t)total(sc, sd, p) * esize(st));
  if (!dr) dr = zr = zeros((size_t)total(rc, rd, p) * esize(rt));
  MPI_Alltoallv(inplace ? IN_PLACE : ds, inplace ? rc : sc, inplace ? rd : sd, inplace ? rt : st,
                dr, rc, rd, rt, c);
  free(zs);
  free(zr);
}
/* Augmented sweep of Alltoallv: a copy of the send counts and
 * displacements (zeros for MPI_IN_PLACE), then the receive ones: 4p ints,
 * freed by the reverse. */
X int *__enzyme_rs_mpi_keep_v(const void *sbuf, const int *sc, const int *sd, const int *rc,
                              const int *rd, Comm c) {
  int p = size_of(c);
  int *k = calloc(4 * (size_t)p, sizeof(int));
  if (sbuf != IN_PLACE && sc && sd) {
    memcpy(k, sc, sizeof(int) * p);
    memcpy(k + p, sd, sizeof(int) * p);
  }
  if (rc && rd) {
    memcpy(k + 2 * p, rc, sizeof(int) * p);
    memcpy(k + 3 * p, rd, sizeof(int) * p);
  }
  return k;
}
/* Reverse of an all-to-all-v: the transposed exchange of the adjoints
 * (receive counts become send counts). The adjoints of this rank's send
 * blocks arrive packed and are added block by block, so send blocks that
 * overlap (one element sent to several ranks) sum their adjoints. */
X void __enzyme_rs_mpi_alltoallv_rev(const void *sbuf, void *ds, int *kept, const int *unused1,
                                      Dt st, void *dr, const int *unused2, const int *unused3,
                                      Dt rt, Comm c) {
  int p = size_of(c);
  const int *sc = kept, *sd = kept + p, *rc = kept + 2 * p, *rd = kept + 3 * p;
  (void)unused1;
  (void)unused2;
  (void)unused3;
  void *zr = NULL;
  if (!dr) dr = zr = zeros((size_t)total(rc, rd, p) * esize(rt));
  if (sbuf == IN_PLACE) {
    MPI_Alltoallv(IN_PLACE, rc, rd, rt, dr, rc, rd, rt, c);
  } else {
    int *pd = calloc((size_t)p, sizeof(int)), n = 0;
    for (int q = 0; q < p; q++) {
      pd[q] = n;
      n += sc[q];
    }
    size_t es = esize(st);
    char *tmp = zeros((size_t)n * es);
    MPI_Alltoallv(dr, rc, rd, rt, tmp, sc, pd, st, c);
    for (int q = 0; q < p; q++)
      acc(ds ? (char *)ds + (size_t)sd[q] * es : NULL, tmp + (size_t)pd[q] * es, sc[q], st, NULL);
    if (!zr)
      for (int q = 0; q < p; q++) zero((char *)dr + (size_t)rd[q] * esize(rt), rc[q], rt);
    free(tmp);
    free(pd);
  }
  free(zr);
  free(kept);
}
