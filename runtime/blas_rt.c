/* Derivatives of BLAS calls (double precision, level 1-3), for
 * src/modes/blas.rs, which links this file's bitcode into a module that
 * differentiates BLAS calls and uses the helpers as the custom derivatives
 * of the BLAS declarations (src/modes/reverse/custom.rs and
 * src/modes/forward/custom.rs give the conventions):
 *
 *   __enzyme_rs_blas_fwd_NAME   forward mode: the routine's parameters,
 *                               each float or pointer one followed by its
 *                               tangent (NULL / 0 when it has none); runs
 *                               the tangent, then the primal (void
 *                               routines) or returns {primal, tangent}.
 *   __enzyme_rs_blas_aug_NAME   augmented forward: the parameters, each
 *                               pointer followed by its shadow; copies
 *                               what the reverse reads onto a tape of its
 *                               own (the primal memory may be overwritten
 *                               before the reverse sweep), runs the primal.
 *   __enzyme_rs_blas_rev_NAME   reverse: the same parameters, the result's
 *                               adjoint (dot, nrm2), the tape; adds the
 *                               adjoints into the shadows with BLAS calls
 *                               on them; returns the adjoints of by-value
 *                               scalars (CBLAS alpha/beta).
 *
 * NAME is cblas_dgemm or dgemm_ (and likewise for ddot, daxpy, dscal,
 * dnrm2, dgemv). Everything reduces to column-major cores calling the
 * Fortran BLAS (every BLAS library has it): a row-major CBLAS call is the
 * column-major call of the transposed problem. The reverse reads only
 * its tape and the shadows, never primal memory. */
#include <stdlib.h>
#include <string.h>

extern void dgemm_(const char *, const char *, const int *, const int *, const int *,
                   const double *, const double *, const int *, const double *, const int *,
                   const double *, double *, const int *);
extern void dgemv_(const char *, const int *, const int *, const double *, const double *,
                   const int *, const double *, const int *, const double *, double *,
                   const int *);
extern void dger_(const int *, const int *, const double *, const double *, const int *,
                  const double *, const int *, double *, const int *);
extern void daxpy_(const int *, const double *, const double *, const int *, double *,
                   const int *);
extern double ddot_(const int *, const double *, const int *, const double *, const int *);
extern void dscal_(const int *, const double *, double *, const int *);
extern void dcopy_(const int *, const double *, const int *, double *, const int *);
extern double dnrm2_(const int *, const double *, const int *);

typedef struct {
  void *tape;
  double r;
} TapeAndResult;
typedef struct {
  double primal, tangent;
} PrimalTangent;
typedef struct {
  double dalpha, dbeta;
} TwoAdjoints;

static const int ONE = 1;
static const double D_ONE = 1.0, D_ZERO = 0.0;

static int is_trans(char c) { return c == 'T' || c == 't' || c == 'C' || c == 'c'; }
static char cblas_trans(int t) { return t == 111 ? 'N' : 'T'; }
static char flip(char t) { return is_trans(t) ? 'N' : 'T'; }
static int iabs(int x) { return x < 0 ? -x : x; }

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    abort();
  return p;
}

/* x (n elements, stride inc, BLAS order) packed with stride 1. */
static double *vpack(int n, const double *x, int inc) {
  if (n <= 0)
    return NULL;
  double *p = xmalloc((size_t)n * sizeof(double));
  dcopy_(&n, x, &inc, p, &ONE);
  return p;
}

/* A rows x cols column-major matrix with leading dimension ld, packed. */
static double *mpack(int rows, int cols, const double *a, int ld) {
  if (rows <= 0 || cols <= 0)
    return NULL;
  double *p = xmalloc((size_t)rows * cols * sizeof(double));
  for (int j = 0; j < cols; j++)
    memcpy(p + (size_t)j * rows, a + (size_t)j * ld, (size_t)rows * sizeof(double));
  return p;
}

/* x := beta x (exactly zero when beta is 0: x may hold anything then). */
static void vscale(int n, double beta, double *x, int inc) {
  if (n <= 0)
    return;
  if (beta == 0.0) {
    for (int i = 0; i < n; i++)
      x[(size_t)i * iabs(inc)] = 0.0;
  } else if (beta != 1.0) {
    int ainc = iabs(inc);
    dscal_(&n, &beta, x, &ainc);
  }
}

static void mscale(int rows, int cols, double beta, double *c, int ld) {
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++)
      c[i + (size_t)j * ld] = beta == 0.0 ? 0.0 : beta * c[i + (size_t)j * ld];
}

/* ---------------------------------------------------------------- GEMM */

typedef struct {
  char ta, tb;
  int m, n, k, lda, ldb, ldc;
  double alpha, beta;
  double *a, *b, *c; /* packed op-storage of A, B; C before the call */
} GemmTape;

/* Rows and columns of A as stored (op(A) is m x k). */
static int a_rows(char ta, int m, int k) { return is_trans(ta) ? k : m; }
static int a_cols(char ta, int m, int k) { return is_trans(ta) ? m : k; }

static void gemm_fwd(char ta, char tb, int m, int n, int k, double alpha, double dalpha,
                     const double *a, const double *da, int lda, const double *b,
                     const double *db, int ldb, double beta, double dbeta, double *c,
                     double *dc, int ldc) {
  if (dc) {
    if (beta == 0.0) {
      mscale(m, n, 0.0, dc, ldc);
    } else {
      for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
          size_t o = i + (size_t)j * ldc;
          dc[o] = beta * dc[o] + dbeta * c[o];
        }
    }
    if (m > 0 && n > 0 && k > 0) {
      if (da)
        dgemm_(&ta, &tb, &m, &n, &k, &alpha, da, &lda, b, &ldb, &D_ONE, dc, &ldc);
      if (db)
        dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, db, &ldb, &D_ONE, dc, &ldc);
      if (dalpha != 0.0)
        dgemm_(&ta, &tb, &m, &n, &k, &dalpha, a, &lda, b, &ldb, &D_ONE, dc, &ldc);
    }
  }
  dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}

static GemmTape *gemm_aug(char ta, char tb, int m, int n, int k, double alpha, const double *a,
                          int lda, const double *b, int ldb, double beta, double *c,
                          const double *dc, int ldc) {
  GemmTape *t = xmalloc(sizeof(GemmTape));
  *t = (GemmTape){ta, tb, m, n, k, lda, ldb, ldc, alpha, beta, NULL, NULL, NULL};
  if (dc) {
    /* Every adjoint (A, B, alpha) needs both factors. */
    t->a = mpack(a_rows(ta, m, k), a_cols(ta, m, k), a, lda);
    t->b = mpack(a_rows(tb, k, n), a_cols(tb, k, n), b, ldb);
    if (beta != 0.0)
      t->c = mpack(m, n, c, ldc);
  }
  dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
  return t;
}

/* Sum of x[i,j] * y[i,j] over a rows x cols block (leading dims lx, ly). */
static double mdot(int rows, int cols, const double *x, int lx, const double *y, int ly) {
  double s = 0.0;
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++)
      s += x[i + (size_t)j * lx] * y[i + (size_t)j * ly];
  return s;
}

/* d += alpha * op^-1(g): g is the rows x cols adjoint of op(X); X is stored
 * transposed when trans. */
static void add_op(char trans, int rows, int cols, double alpha, const double *g, double *d,
                   int ld) {
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++) {
      double v = alpha * g[i + (size_t)j * rows];
      if (is_trans(trans))
        d[j + (size_t)i * ld] += v;
      else
        d[i + (size_t)j * ld] += v;
    }
}

/* Adds into da, db (when not NULL); returns the adjoints of alpha, beta;
 * frees the tape. */
static TwoAdjoints gemm_rev(GemmTape *t, double *da, double *db, double *dc, int want_alpha) {
  TwoAdjoints r = {0.0, 0.0};
  int m = t->m, n = t->n, k = t->k;
  if (dc && m > 0 && n > 0) {
    int ar = a_rows(t->ta, m, k), br = a_rows(t->tb, k, n);
    int have_alpha = 0;
    if (k > 0 && (da || (want_alpha && !db))) {
      /* G = dC op(B)^T (m x k): dA += alpha op^-1(G), dalpha = <op(A), G>. */
      double *g = xmalloc((size_t)m * k * sizeof(double));
      char tb = flip(t->tb), n_ = 'N';
      dgemm_(&n_, &tb, &m, &k, &n, &D_ONE, dc, &t->ldc, t->b, &br, &D_ZERO, g, &m);
      if (da)
        add_op(t->ta, m, k, t->alpha, g, da, t->lda);
      if (want_alpha) {
        double s = 0.0;
        for (int l = 0; l < k; l++)
          for (int i = 0; i < m; i++)
            s += g[i + (size_t)l * m] *
                 (is_trans(t->ta) ? t->a[l + (size_t)i * ar] : t->a[i + (size_t)l * ar]);
        r.dalpha = s;
        have_alpha = 1;
      }
      free(g);
    }
    if (k > 0 && db) {
      /* H = op(A)^T dC (k x n): dB += alpha op^-1(H), dalpha = <op(B), H>. */
      double *h = xmalloc((size_t)k * n * sizeof(double));
      char ta = flip(t->ta), n_ = 'N';
      dgemm_(&ta, &n_, &k, &n, &m, &D_ONE, t->a, &ar, dc, &t->ldc, &D_ZERO, h, &k);
      add_op(t->tb, k, n, t->alpha, h, db, t->ldb);
      if (want_alpha && !have_alpha) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
          for (int l = 0; l < k; l++)
            s += h[l + (size_t)j * k] *
                 (is_trans(t->tb) ? t->b[j + (size_t)l * br] : t->b[l + (size_t)j * br]);
        r.dalpha = s;
      }
      free(h);
    }
    if (t->c)
      r.dbeta = mdot(m, n, t->c, m, dc, t->ldc);
    mscale(m, n, t->beta, dc, t->ldc);
  }
  free(t->a);
  free(t->b);
  free(t->c);
  free(t);
  return r;
}

/* CBLAS: row major is the column-major problem C^T = op(B)^T op(A)^T. */
#define GEMM_CBLAS_ARGS                                                                   \
  int order, int ta_, int tb_, int m, int n, int k
#define GEMM_NORMALIZE                                                                    \
  char ta = cblas_trans(ta_), tb = cblas_trans(tb_);                                      \
  int row = order == 101;

void __enzyme_rs_blas_fwd_cblas_dgemm(GEMM_CBLAS_ARGS, double alpha, double dalpha,
                                      const double *a, const double *da, int lda,
                                      const double *b, const double *db, int ldb, double beta,
                                      double dbeta, double *c, double *dc, int ldc) {
  GEMM_NORMALIZE
  if (row)
    gemm_fwd(tb, ta, n, m, k, alpha, dalpha, b, db, ldb, a, da, lda, beta, dbeta, c, dc, ldc);
  else
    gemm_fwd(ta, tb, m, n, k, alpha, dalpha, a, da, lda, b, db, ldb, beta, dbeta, c, dc, ldc);
}

void *__enzyme_rs_blas_aug_cblas_dgemm(GEMM_CBLAS_ARGS, double alpha, const double *a,
                                       const double *da, int lda, const double *b,
                                       const double *db, int ldb, double beta, double *c,
                                       double *dc, int ldc) {
  GEMM_NORMALIZE
  (void)da, (void)db;
  if (row)
    return gemm_aug(tb, ta, n, m, k, alpha, b, ldb, a, lda, beta, c, dc, ldc);
  return gemm_aug(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, dc, ldc);
}

TwoAdjoints __enzyme_rs_blas_rev_cblas_dgemm(GEMM_CBLAS_ARGS, double alpha, const double *a,
                                             double *da, int lda, const double *b, double *db,
                                             int ldb, double beta, double *c, double *dc,
                                             int ldc, void *tape) {
  (void)order, (void)ta_, (void)tb_, (void)m, (void)n, (void)k, (void)alpha, (void)a;
  (void)lda, (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
  GemmTape *t = tape;
  /* The tape holds the normalized problem: A and B swapped for row major. */
  if (order == 101)
    return gemm_rev(t, db, da, dc, 1);
  return gemm_rev(t, da, db, dc, 1);
}

void __enzyme_rs_blas_fwd_dgemm_(const char *ta, const char *dta, const char *tb,
                                 const char *dtb, const int *m, const int *dm, const int *n,
                                 const int *dn, const int *k, const int *dk,
                                 const double *alpha, const double *dalpha, const double *a,
                                 const double *da, const int *lda, const int *dlda,
                                 const double *b, const double *db, const int *ldb,
                                 const int *dldb, const double *beta, const double *dbeta,
                                 double *c, double *dc, const int *ldc, const int *dldc) {
  (void)dta, (void)dtb, (void)dm, (void)dn, (void)dk, (void)dlda, (void)dldb, (void)dldc;
  gemm_fwd(*ta, *tb, *m, *n, *k, *alpha, dalpha ? *dalpha : 0.0, a, da, *lda, b, db, *ldb,
           *beta, dbeta ? *dbeta : 0.0, c, dc, *ldc);
}

void *__enzyme_rs_blas_aug_dgemm_(const char *ta, const char *dta, const char *tb,
                                  const char *dtb, const int *m, const int *dm, const int *n,
                                  const int *dn, const int *k, const int *dk,
                                  const double *alpha, const double *dalpha, const double *a,
                                  const double *da, const int *lda, const int *dlda,
                                  const double *b, const double *db, const int *ldb,
                                  const int *dldb, const double *beta, const double *dbeta,
                                  double *c, double *dc, const int *ldc, const int *dldc) {
  (void)dta, (void)dtb, (void)dm, (void)dn, (void)dk, (void)dlda, (void)dldb, (void)dldc;
  (void)dalpha, (void)da, (void)db, (void)dbeta;
  return gemm_aug(*ta, *tb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, dc, *ldc);
}

void __enzyme_rs_blas_rev_dgemm_(const char *ta, const char *dta, const char *tb,
                                 const char *dtb, const int *m, const int *dm, const int *n,
                                 const int *dn, const int *k, const int *dk,
                                 const double *alpha, double *dalpha, const double *a,
                                 double *da, const int *lda, const int *dlda, const double *b,
                                 double *db, const int *ldb, const int *dldb,
                                 const double *beta, double *dbeta, double *c, double *dc,
                                 const int *ldc, const int *dldc, void *tape) {
  (void)ta, (void)dta, (void)tb, (void)dtb, (void)m, (void)dm, (void)n, (void)dn, (void)k;
  (void)dk, (void)alpha, (void)a, (void)lda, (void)dlda, (void)b, (void)ldb, (void)dldb;
  (void)beta, (void)c, (void)ldc, (void)dldc;
  TwoAdjoints r = gemm_rev(tape, da, db, dc, dalpha != NULL);
  if (dalpha)
    *dalpha += r.dalpha;
  if (dbeta)
    *dbeta += r.dbeta;
}

/* ---------------------------------------------------------------- GEMV */

typedef struct {
  char t;
  int m, n, lda, incx, incy;
  double alpha, beta;
  double *a, *x, *y; /* packed A (m x n), x, y before the call */
} GemvTape;

static int gemv_xlen(char t, int m, int n) { return is_trans(t) ? m : n; }
static int gemv_ylen(char t, int m, int n) { return is_trans(t) ? n : m; }

static void gemv_fwd(char t, int m, int n, double alpha, double dalpha, const double *a,
                     const double *da, int lda, const double *x, const double *dx, int incx,
                     double beta, double dbeta, double *y, double *dy, int incy) {
  int yl = gemv_ylen(t, m, n);
  if (dy && yl > 0) {
    if (beta == 0.0) {
      vscale(yl, 0.0, dy, incy);
    } else {
      vscale(yl, beta, dy, incy);
      if (dbeta != 0.0)
        daxpy_(&yl, &dbeta, y, &incy, dy, &incy);
    }
    if (m > 0 && n > 0) {
      if (da)
        dgemv_(&t, &m, &n, &alpha, da, &lda, x, &incx, &D_ONE, dy, &incy);
      if (dx)
        dgemv_(&t, &m, &n, &alpha, a, &lda, dx, &incx, &D_ONE, dy, &incy);
      if (dalpha != 0.0)
        dgemv_(&t, &m, &n, &dalpha, a, &lda, x, &incx, &D_ONE, dy, &incy);
    }
  }
  dgemv_(&t, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy);
}

static GemvTape *gemv_aug(char t, int m, int n, double alpha, const double *a, int lda,
                          const double *x, int incx, double beta, double *y, const double *dy,
                          int incy) {
  GemvTape *g = xmalloc(sizeof(GemvTape));
  *g = (GemvTape){t, m, n, lda, incx, incy, alpha, beta, NULL, NULL, NULL};
  if (dy) {
    g->a = mpack(m, n, a, lda);
    g->x = vpack(gemv_xlen(t, m, n), x, incx);
    if (beta != 0.0)
      g->y = vpack(gemv_ylen(t, m, n), y, incy);
  }
  dgemv_(&t, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy);
  return g;
}

static TwoAdjoints gemv_rev(GemvTape *g, double *da, double *dx, double *dy, int want_alpha) {
  TwoAdjoints r = {0.0, 0.0};
  int m = g->m, n = g->n, xl = gemv_xlen(g->t, m, n), yl = gemv_ylen(g->t, m, n);
  if (dy && yl > 0) {
    if (xl > 0 && (dx || want_alpha)) {
      /* s = op(A)^T dy: dx += alpha s, dalpha = <x, s>. */
      double *s = xmalloc((size_t)xl * sizeof(double));
      char ft = flip(g->t);
      dgemv_(&ft, &m, &n, &D_ONE, g->a, &m, dy, &g->incy, &D_ZERO, s, &ONE);
      if (dx)
        daxpy_(&xl, &g->alpha, s, &ONE, dx, &g->incx);
      if (want_alpha)
        r.dalpha = ddot_(&xl, g->x, &ONE, s, &ONE);
      free(s);
    }
    if (da && xl > 0) {
      /* dA += alpha dy x^T (or x dy^T when transposed). */
      if (is_trans(g->t))
        dger_(&m, &n, &g->alpha, g->x, &ONE, dy, &g->incy, da, &g->lda);
      else
        dger_(&m, &n, &g->alpha, dy, &g->incy, g->x, &ONE, da, &g->lda);
    }
    if (g->y)
      r.dbeta = ddot_(&yl, g->y, &ONE, dy, &g->incy);
    vscale(yl, g->beta, dy, g->incy);
  }
  free(g->a);
  free(g->x);
  free(g->y);
  free(g);
  return r;
}

/* Row major: A (m x n, row major) is the column-major n x m matrix A^T. */
void __enzyme_rs_blas_fwd_cblas_dgemv(int order, int t_, int m, int n, double alpha,
                                      double dalpha, const double *a, const double *da, int lda,
                                      const double *x, const double *dx, int incx, double beta,
                                      double dbeta, double *y, double *dy, int incy) {
  char t = cblas_trans(t_);
  if (order == 101)
    gemv_fwd(flip(t), n, m, alpha, dalpha, a, da, lda, x, dx, incx, beta, dbeta, y, dy, incy);
  else
    gemv_fwd(t, m, n, alpha, dalpha, a, da, lda, x, dx, incx, beta, dbeta, y, dy, incy);
}

void *__enzyme_rs_blas_aug_cblas_dgemv(int order, int t_, int m, int n, double alpha,
                                       const double *a, const double *da, int lda,
                                       const double *x, const double *dx, int incx, double beta,
                                       double *y, double *dy, int incy) {
  (void)da, (void)dx;
  char t = cblas_trans(t_);
  if (order == 101)
    return gemv_aug(flip(t), n, m, alpha, a, lda, x, incx, beta, y, dy, incy);
  return gemv_aug(t, m, n, alpha, a, lda, x, incx, beta, y, dy, incy);
}

TwoAdjoints __enzyme_rs_blas_rev_cblas_dgemv(int order, int t_, int m, int n, double alpha,
                                             const double *a, double *da, int lda,
                                             const double *x, double *dx, int incx, double beta,
                                             double *y, double *dy, int incy, void *tape) {
  (void)order, (void)t_, (void)m, (void)n, (void)alpha, (void)a, (void)lda, (void)x;
  (void)incx, (void)beta, (void)y, (void)incy;
  return gemv_rev(tape, da, dx, dy, 1);
}

void __enzyme_rs_blas_fwd_dgemv_(const char *t, const char *dt, const int *m, const int *dm,
                                 const int *n, const int *dn, const double *alpha,
                                 const double *dalpha, const double *a, const double *da,
                                 const int *lda, const int *dlda, const double *x,
                                 const double *dx, const int *incx, const int *dincx,
                                 const double *beta, const double *dbeta, double *y, double *dy,
                                 const int *incy, const int *dincy) {
  (void)dt, (void)dm, (void)dn, (void)dlda, (void)dincx, (void)dincy;
  gemv_fwd(*t, *m, *n, *alpha, dalpha ? *dalpha : 0.0, a, da, *lda, x, dx, *incx, *beta,
           dbeta ? *dbeta : 0.0, y, dy, *incy);
}

void *__enzyme_rs_blas_aug_dgemv_(const char *t, const char *dt, const int *m, const int *dm,
                                  const int *n, const int *dn, const double *alpha,
                                  const double *dalpha, const double *a, const double *da,
                                  const int *lda, const int *dlda, const double *x,
                                  const double *dx, const int *incx, const int *dincx,
                                  const double *beta, const double *dbeta, double *y,
                                  double *dy, const int *incy, const int *dincy) {
  (void)dt, (void)dm, (void)dn, (void)dalpha, (void)da, (void)dlda, (void)dx, (void)dincx;
  (void)dbeta, (void)dincy;
  return gemv_aug(*t, *m, *n, *alpha, a, *lda, x, *incx, *beta, y, dy, *incy);
}

void __enzyme_rs_blas_rev_dgemv_(const char *t, const char *dt, const int *m, const int *dm,
                                 const int *n, const int *dn, const double *alpha,
                                 double *dalpha, const double *a, double *da, const int *lda,
                                 const int *dlda, const double *x, double *dx, const int *incx,
                                 const int *dincx, const double *beta, double *dbeta, double *y,
                                 double *dy, const int *incy, const int *dincy, void *tape) {
  (void)t, (void)dt, (void)m, (void)dm, (void)n, (void)dn, (void)alpha, (void)a, (void)lda;
  (void)dlda, (void)x, (void)incx, (void)dincx, (void)beta, (void)y, (void)incy, (void)dincy;
  TwoAdjoints r = gemv_rev(tape, da, dx, dy, dalpha != NULL);
  if (dalpha)
    *dalpha += r.dalpha;
  if (dbeta)
    *dbeta += r.dbeta;
}

/* ----------------------------------------------------------------- DOT */

typedef struct {
  int n, incx, incy;
  double *x, *y;
} DotTape;

static double dot_tangent(int n, const double *x, const double *dx, int incx, const double *y,
                          const double *dy, int incy) {
  double t = 0.0;
  if (dx)
    t += ddot_(&n, dx, &incx, y, &incy);
  if (dy)
    t += ddot_(&n, x, &incx, dy, &incy);
  return t;
}

static TapeAndResult dot_aug(int n, const double *x, const double *dx, int incx,
                             const double *y, const double *dy, int incy) {
  DotTape *t = xmalloc(sizeof(DotTape));
  *t = (DotTape){n, incx, incy, dy ? vpack(n, x, incx) : NULL, dx ? vpack(n, y, incy) : NULL};
  return (TapeAndResult){t, ddot_(&n, x, &incx, y, &incy)};
}

static void dot_rev(DotTape *t, double *dx, double *dy, double dr) {
  if (dx && t->y)
    daxpy_(&t->n, &dr, t->y, &ONE, dx, &t->incx);
  if (dy && t->x)
    daxpy_(&t->n, &dr, t->x, &ONE, dy, &t->incy);
  free(t->x);
  free(t->y);
  free(t);
}

PrimalTangent __enzyme_rs_blas_fwd_cblas_ddot(int n, const double *x, const double *dx,
                                              int incx, const double *y, const double *dy,
                                              int incy) {
  return (PrimalTangent){ddot_(&n, x, &incx, y, &incy),
                         dot_tangent(n, x, dx, incx, y, dy, incy)};
}

TapeAndResult __enzyme_rs_blas_aug_cblas_ddot(int n, const double *x, const double *dx,
                                              int incx, const double *y, const double *dy,
                                              int incy) {
  return dot_aug(n, x, dx, incx, y, dy, incy);
}

void __enzyme_rs_blas_rev_cblas_ddot(int n, const double *x, double *dx, int incx,
                                     const double *y, double *dy, int incy, double dr,
                                     void *tape) {
  (void)n, (void)x, (void)incx, (void)y, (void)incy;
  dot_rev(tape, dx, dy, dr);
}

PrimalTangent __enzyme_rs_blas_fwd_ddot_(const int *n, const int *dn, const double *x,
                                         const double *dx, const int *incx, const int *dincx,
                                         const double *y, const double *dy, const int *incy,
                                         const int *dincy) {
  (void)dn, (void)dincx, (void)dincy;
  return (PrimalTangent){ddot_(n, x, incx, y, incy),
                         dot_tangent(*n, x, dx, *incx, y, dy, *incy)};
}

TapeAndResult __enzyme_rs_blas_aug_ddot_(const int *n, const int *dn, const double *x,
                                         const double *dx, const int *incx, const int *dincx,
                                         const double *y, const double *dy, const int *incy,
                                         const int *dincy) {
  (void)dn, (void)dincx, (void)dincy;
  return dot_aug(*n, x, dx, *incx, y, dy, *incy);
}

void __enzyme_rs_blas_rev_ddot_(const int *n, const int *dn, const double *x, double *dx,
                                const int *incx, const int *dincx, const double *y, double *dy,
                                const int *incy, const int *dincy, double dr, void *tape) {
  (void)n, (void)dn, (void)x, (void)incx, (void)dincx, (void)y, (void)incy, (void)dincy;
  dot_rev(tape, dx, dy, dr);
}

/* ---------------------------------------------------------------- AXPY */

typedef struct {
  int n, incx, incy;
  double a;
  double *x;
} AxpyTape;

static void axpy_fwd(int n, double a, double da, const double *x, const double *dx, int incx,
                     double *y, double *dy, int incy) {
  if (dy && n > 0) {
    if (dx)
      daxpy_(&n, &a, dx, &incx, dy, &incy);
    if (da != 0.0)
      daxpy_(&n, &da, x, &incx, dy, &incy);
  }
  daxpy_(&n, &a, x, &incx, y, &incy);
}

static AxpyTape *axpy_aug(int n, double a, const double *x, int incx, double *y,
                          const double *dy, int incy, int want_a) {
  AxpyTape *t = xmalloc(sizeof(AxpyTape));
  *t = (AxpyTape){n, incx, incy, a, dy && want_a ? vpack(n, x, incx) : NULL};
  daxpy_(&n, &a, x, &incx, y, &incy);
  return t;
}

/* dy is unchanged (y's old value enters with weight 1). */
static double axpy_rev(AxpyTape *t, double *dx, double *dy) {
  double da = 0.0;
  if (dy && t->n > 0) {
    if (dx)
      daxpy_(&t->n, &t->a, dy, &t->incy, dx, &t->incx);
    if (t->x)
      da = ddot_(&t->n, t->x, &ONE, dy, &t->incy);
  }
  free(t->x);
  free(t);
  return da;
}

void __enzyme_rs_blas_fwd_cblas_daxpy(int n, double a, double da, const double *x,
                                      const double *dx, int incx, double *y, double *dy,
                                      int incy) {
  axpy_fwd(n, a, da, x, dx, incx, y, dy, incy);
}

void *__enzyme_rs_blas_aug_cblas_daxpy(int n, double a, const double *x, const double *dx,
                                       int incx, double *y, double *dy, int incy) {
  (void)dx;
  return axpy_aug(n, a, x, incx, y, dy, incy, 1);
}

double __enzyme_rs_blas_rev_cblas_daxpy(int n, double a, const double *x, double *dx, int incx,
                                        double *y, double *dy, int incy, void *tape) {
  (void)n, (void)a, (void)x, (void)incx, (void)y, (void)incy;
  return axpy_rev(tape, dx, dy);
}

void __enzyme_rs_blas_fwd_daxpy_(const int *n, const int *dn, const double *a,
                                 const double *da, const double *x, const double *dx,
                                 const int *incx, const int *dincx, double *y, double *dy,
                                 const int *incy, const int *dincy) {
  (void)dn, (void)dincx, (void)dincy;
  axpy_fwd(*n, *a, da ? *da : 0.0, x, dx, *incx, y, dy, *incy);
}

void *__enzyme_rs_blas_aug_daxpy_(const int *n, const int *dn, const double *a,
                                  const double *da, const double *x, const double *dx,
                                  const int *incx, const int *dincx, double *y, double *dy,
                                  const int *incy, const int *dincy) {
  (void)dn, (void)dx, (void)dincx, (void)dincy;
  return axpy_aug(*n, *a, x, *incx, y, dy, *incy, da != NULL);
}

void __enzyme_rs_blas_rev_daxpy_(const int *n, const int *dn, const double *a, double *da,
                                 const double *x, double *dx, const int *incx, const int *dincx,
                                 double *y, double *dy, const int *incy, const int *dincy,
                                 void *tape) {
  (void)n, (void)dn, (void)a, (void)x, (void)incx, (void)dincx, (void)y, (void)incy;
  (void)dincy;
  double r = axpy_rev(tape, dx, dy);
  if (da)
    *da += r;
}

/* ---------------------------------------------------------------- SCAL */

typedef struct {
  int n, inc;
  double a;
  double *x; /* x before the call */
} ScalTape;

/* dscal does nothing for inc <= 0 (reference BLAS). */
static void scal_fwd(int n, double a, double da, double *x, double *dx, int inc) {
  if (dx && n > 0 && inc > 0) {
    vscale(n, a, dx, inc);
    if (da != 0.0)
      daxpy_(&n, &da, x, &inc, dx, &inc);
  }
  dscal_(&n, &a, x, &inc);
}

static ScalTape *scal_aug(int n, double a, double *x, const double *dx, int inc, int want_a) {
  ScalTape *t = xmalloc(sizeof(ScalTape));
  *t = (ScalTape){n, inc, a, dx && want_a && inc > 0 ? vpack(n, x, inc) : NULL};
  dscal_(&n, &a, x, &inc);
  return t;
}

static double scal_rev(ScalTape *t, double *dx) {
  double da = 0.0;
  if (dx && t->n > 0 && t->inc > 0) {
    if (t->x)
      da = ddot_(&t->n, t->x, &ONE, dx, &t->inc);
    vscale(t->n, t->a, dx, t->inc);
  }
  free(t->x);
  free(t);
  return da;
}

void __enzyme_rs_blas_fwd_cblas_dscal(int n, double a, double da, double *x, double *dx,
                                      int inc) {
  scal_fwd(n, a, da, x, dx, inc);
}

void *__enzyme_rs_blas_aug_cblas_dscal(int n, double a, double *x, double *dx, int inc) {
  return scal_aug(n, a, x, dx, inc, 1);
}

double __enzyme_rs_blas_rev_cblas_dscal(int n, double a, double *x, double *dx, int inc,
                                        void *tape) {
  (void)n, (void)a, (void)x, (void)inc;
  return scal_rev(tape, dx);
}

void __enzyme_rs_blas_fwd_dscal_(const int *n, const int *dn, const double *a, const double *da,
                                 double *x, double *dx, const int *inc, const int *dinc) {
  (void)dn, (void)dinc;
  scal_fwd(*n, *a, da ? *da : 0.0, x, dx, *inc);
}

void *__enzyme_rs_blas_aug_dscal_(const int *n, const int *dn, const double *a,
                                  const double *da, double *x, double *dx, const int *inc,
                                  const int *dinc) {
  (void)dn, (void)dinc;
  return scal_aug(*n, *a, x, dx, *inc, da != NULL);
}

void __enzyme_rs_blas_rev_dscal_(const int *n, const int *dn, const double *a, double *da,
                                 double *x, double *dx, const int *inc, const int *dinc,
                                 void *tape) {
  (void)n, (void)dn, (void)a, (void)x, (void)inc, (void)dinc;
  double r = scal_rev(tape, dx);
  if (da)
    *da += r;
}

/* ---------------------------------------------------------------- NRM2 */

typedef struct {
  int n, inc;
  double r;
  double *x;
} Nrm2Tape;

static double nrm2_tangent(int n, const double *x, const double *dx, int inc, double r) {
  if (!dx || r == 0.0 || n <= 0)
    return 0.0;
  return ddot_(&n, x, &inc, dx, &inc) / r;
}

static TapeAndResult nrm2_aug(int n, const double *x, const double *dx, int inc) {
  Nrm2Tape *t = xmalloc(sizeof(Nrm2Tape));
  double r = dnrm2_(&n, x, &inc);
  *t = (Nrm2Tape){n, inc, r, dx ? vpack(n, x, inc) : NULL};
  return (TapeAndResult){t, r};
}

static void nrm2_rev(Nrm2Tape *t, double *dx, double dr) {
  if (dx && t->x && t->r != 0.0) {
    double s = dr / t->r;
    daxpy_(&t->n, &s, t->x, &ONE, dx, &t->inc);
  }
  free(t->x);
  free(t);
}

PrimalTangent __enzyme_rs_blas_fwd_cblas_dnrm2(int n, const double *x, const double *dx,
                                               int inc) {
  double r = dnrm2_(&n, x, &inc);
  return (PrimalTangent){r, nrm2_tangent(n, x, dx, inc, r)};
}

TapeAndResult __enzyme_rs_blas_aug_cblas_dnrm2(int n, const double *x, const double *dx,
                                               int inc) {
  return nrm2_aug(n, x, dx, inc);
}

void __enzyme_rs_blas_rev_cblas_dnrm2(int n, const double *x, double *dx, int inc, double dr,
                                      void *tape) {
  (void)n, (void)x, (void)inc;
  nrm2_rev(tape, dx, dr);
}

PrimalTangent __enzyme_rs_blas_fwd_dnrm2_(const int *n, const int *dn, const double *x,
                                          const double *dx, const int *inc, const int *dinc) {
  (void)dn, (void)dinc;
  double r = dnrm2_(n, x, inc);
  return (PrimalTangent){r, nrm2_tangent(*n, x, dx, *inc, r)};
}

TapeAndResult __enzyme_rs_blas_aug_dnrm2_(const int *n, const int *dn, const double *x,
                                          const double *dx, const int *inc, const int *dinc) {
  (void)dn, (void)dinc;
  return nrm2_aug(*n, x, dx, *inc);
}

void __enzyme_rs_blas_rev_dnrm2_(const int *n, const int *dn, const double *x, double *dx,
                                 const int *inc, const int *dinc, double dr, void *tape) {
  (void)n, (void)dn, (void)x, (void)inc, (void)dinc;
  nrm2_rev(tape, dx, dr);
}
