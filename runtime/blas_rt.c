/* Derivatives of BLAS calls (double and single precision, level 1-3), for
 * src/modes/blas.rs, which links this file's bitcode into a module that
 * differentiates BLAS calls and uses the helpers as the custom derivatives
 * of the BLAS declarations (src/modes/reverse/custom.rs and
 * src/modes/forward/custom.rs give the conventions):
 *
 *   __enzyme_rs_blas_fwd_NAME   forward mode: the routine's parameters,
 *                               each float or pointer one followed by its
 *                               tangent (NULL / 0 when it has none); runs
 *                               the tangent, then the primal (void
 *                               routines) or returns {primal, tangent}
 *                               (double) or the tangent alone (single: a
 *                               {float, float} struct is returned as
 *                               <2 x float>; the caller reruns the primal).
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
 * dnrm2, dgemv, and the single precision sdot ... sgemm; dcopy, dswap,
 * dasum and dger and their twins are in runtime/blas/, included by the
 * body). Everything
 * reduces to column-major cores calling the Fortran BLAS (every BLAS
 * library has it): a row-major CBLAS call is the column-major call of the
 * transposed problem. The reverse reads only its tape and the shadows,
 * never primal memory.
 *
 * The body below the precision-independent part is written once for a
 * real type R and included twice by this file itself (double, then
 * float): N(x) names a static of one precision, B(x) its Fortran BLAS
 * routine, CB/FT the exported helpers of the CBLAS / Fortran spelling.
 *
 * Aliasing: an output that overlaps an input where BLAS forbids it (gemv's
 * y and A or x, gemm's C and A or B) or where the result depends on the
 * order of the loop (axpy's x and y overlapping other than exactly) stops
 * the program with an error when that output has a shadow (a derivative
 * would be wrong). Inputs may alias each other (ddot(x, x), gemm(A, A^T))
 * and axpy may take y as x (same pointer, same stride). */
#ifndef BLAS_RT_BODY
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int ONE = 1;

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

/* The bytes [lo, hi) an operand occupies (empty for no elements). */
typedef struct {
  uintptr_t lo, hi;
} Span;

static Span vspan(const void *p, int n, int inc, size_t size) {
  if (!p || n <= 0)
    return (Span){0, 0};
  return (Span){(uintptr_t)p, (uintptr_t)p + (1 + (size_t)(n - 1) * iabs(inc)) * size};
}

static Span mspan(const void *p, int rows, int cols, int ld, size_t size) {
  if (!p || rows <= 0 || cols <= 0)
    return (Span){0, 0};
  return (Span){(uintptr_t)p, (uintptr_t)p + ((size_t)(cols - 1) * ld + rows) * size};
}

/* Stops the program when output span o overlaps input span i. */
static void refuse_overlap(const char *routine, Span o, const char *out, Span i,
                           const char *in) {
  if (o.lo < i.hi && i.lo < o.hi) {
    fprintf(stderr,
            "enzyme-rs: error: BLAS %s: the output %s overlaps the input %s, which BLAS does "
            "not allow; its derivative would be wrong\n",
            routine, out, in);
    fflush(stderr);
    abort();
  }
}

#define BLAS_RT_BODY
#define R double
#define N(x) x##_d
#define B(x) d##x##_
#define CB(kind, stem) __enzyme_rs_blas_##kind##_cblas_d##stem
#define FT(kind, stem) __enzyme_rs_blas_##kind##_d##stem##_
#define ROUTINE(stem) "d" #stem
#define BLAS_RT_DOUBLE 1
#include "blas_rt.c"
#undef R
#undef N
#undef B
#undef CB
#undef FT
#undef ROUTINE
#undef BLAS_RT_DOUBLE
#define R float
#define N(x) x##_s
#define B(x) s##x##_
#define CB(kind, stem) __enzyme_rs_blas_##kind##_cblas_s##stem
#define FT(kind, stem) __enzyme_rs_blas_##kind##_s##stem##_
#define ROUTINE(stem) "s" #stem
#define BLAS_RT_DOUBLE 0
#include "blas_rt.c"

#else /* BLAS_RT_BODY: one precision */

extern void B(gemm)(const char *, const char *, const int *, const int *, const int *,
                    const R *, const R *, const int *, const R *, const int *, const R *, R *,
                    const int *);
extern void B(gemv)(const char *, const int *, const int *, const R *, const R *, const int *,
                    const R *, const int *, const R *, R *, const int *);
extern void B(ger)(const int *, const int *, const R *, const R *, const int *, const R *,
                   const int *, R *, const int *);
extern void B(axpy)(const int *, const R *, const R *, const int *, R *, const int *);
extern R B(dot)(const int *, const R *, const int *, const R *, const int *);
extern void B(scal)(const int *, const R *, R *, const int *);
extern void B(copy)(const int *, const R *, const int *, R *, const int *);
extern R B(nrm2)(const int *, const R *, const int *);
extern void B(swap)(const int *, R *, const int *, R *, const int *);
extern R B(asum)(const int *, const R *, const int *);

typedef struct {
  void *tape;
  R r;
} N(TapeAndResult);
typedef struct {
  R dalpha, dbeta;
} N(TwoAdjoints);
#if BLAS_RT_DOUBLE
typedef struct {
  R primal, tangent;
} N(FwdRet);
#define FWD_RET(p, t) ((N(FwdRet)){(p), (t)})
#else
typedef R N(FwdRet);
#define FWD_RET(p, t) (t)
#endif

static const R N(one) = 1.0, N(zero) = 0.0;

/* x (n elements, stride inc, BLAS order) packed with stride 1. */
static R *N(vpack)(int n, const R *x, int inc) {
  if (n <= 0)
    return NULL;
  R *p = xmalloc((size_t)n * sizeof(R));
  B(copy)(&n, x, &inc, p, &ONE);
  return p;
}

/* A rows x cols column-major matrix with leading dimension ld, packed. */
static R *N(mpack)(int rows, int cols, const R *a, int ld) {
  if (rows <= 0 || cols <= 0)
    return NULL;
  R *p = xmalloc((size_t)rows * cols * sizeof(R));
  for (int j = 0; j < cols; j++)
    memcpy(p + (size_t)j * rows, a + (size_t)j * ld, (size_t)rows * sizeof(R));
  return p;
}

/* x := beta x (exactly zero when beta is 0: x may hold anything then). */
static void N(vscale)(int n, R beta, R *x, int inc) {
  if (n <= 0)
    return;
  if (beta == 0.0) {
    for (int i = 0; i < n; i++)
      x[(size_t)i * iabs(inc)] = 0.0;
  } else if (beta != 1.0) {
    int ainc = iabs(inc);
    B(scal)(&n, &beta, x, &ainc);
  }
}

static void N(mscale)(int rows, int cols, R beta, R *c, int ld) {
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++)
      c[i + (size_t)j * ld] = beta == 0.0 ? 0.0 : beta * c[i + (size_t)j * ld];
}

/* ---------------------------------------------------------------- GEMM */

typedef struct {
  char ta, tb;
  int m, n, k, lda, ldb, ldc;
  R alpha, beta;
  R *a, *b, *c; /* packed op-storage of A, B; C before the call */
} N(GemmTape);

/* Rows and columns of A as stored (op(A) is m x k). */
static int N(a_rows)(char ta, int m, int k) { return is_trans(ta) ? k : m; }
static int N(a_cols)(char ta, int m, int k) { return is_trans(ta) ? m : k; }

static void N(gemm_alias)(char ta, char tb, int m, int n, int k, const R *a, int lda, const R *b,
                          int ldb, const R *c, int ldc);

static void N(gemm_fwd)(char ta, char tb, int m, int n, int k, R alpha, R dalpha,
                     const R *a, const R *da, int lda, const R *b,
                     const R *db, int ldb, R beta, R dbeta, R *c,
                     R *dc, int ldc) {
  if (dc) {
    N(gemm_alias)(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
    if (beta == 0.0) {
      N(mscale)(m, n, 0.0, dc, ldc);
    } else {
      for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
          size_t o = i + (size_t)j * ldc;
          dc[o] = beta * dc[o] + dbeta * c[o];
        }
    }
    if (m > 0 && n > 0 && k > 0) {
      if (da)
        B(gemm)(&ta, &tb, &m, &n, &k, &alpha, da, &lda, b, &ldb, &N(one), dc, &ldc);
      if (db)
        B(gemm)(&ta, &tb, &m, &n, &k, &alpha, a, &lda, db, &ldb, &N(one), dc, &ldc);
      if (dalpha != 0.0)
        B(gemm)(&ta, &tb, &m, &n, &k, &dalpha, a, &lda, b, &ldb, &N(one), dc, &ldc);
    }
  }
  B(gemm)(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
}

static N(GemmTape) *N(gemm_aug)(char ta, char tb, int m, int n, int k, R alpha, const R *a,
                          int lda, const R *b, int ldb, R beta, R *c,
                          const R *dc, int ldc) {
  N(GemmTape) *t = xmalloc(sizeof(N(GemmTape)));
  *t = (N(GemmTape)){ta, tb, m, n, k, lda, ldb, ldc, alpha, beta, NULL, NULL, NULL};
  if (dc) {
    N(gemm_alias)(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
    /* Every adjoint (A, B, alpha) needs both factors. */
    t->a = N(mpack)(N(a_rows)(ta, m, k), N(a_cols)(ta, m, k), a, lda);
    t->b = N(mpack)(N(a_rows)(tb, k, n), N(a_cols)(tb, k, n), b, ldb);
    if (beta != 0.0)
      t->c = N(mpack)(m, n, c, ldc);
  }
  B(gemm)(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
  return t;
}

/* C must not overlap A or B (checked when C has a shadow). */
static void N(gemm_alias)(char ta, char tb, int m, int n, int k, const R *a, int lda, const R *b,
                          int ldb, const R *c, int ldc) {
  Span cs = mspan(c, m, n, ldc, sizeof(R));
  Span as = mspan(a, N(a_rows)(ta, m, k), N(a_cols)(ta, m, k), lda, sizeof(R));
  Span bs = mspan(b, N(a_rows)(tb, k, n), N(a_cols)(tb, k, n), ldb, sizeof(R));
  refuse_overlap(ROUTINE(gemm), cs, "C", as, "A or B");
  refuse_overlap(ROUTINE(gemm), cs, "C", bs, "A or B");
}

/* Sum of x[i,j] * y[i,j] over a rows x cols block (leading dims lx, ly). */
static R N(mdot)(int rows, int cols, const R *x, int lx, const R *y, int ly) {
  R s = 0.0;
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++)
      s += x[i + (size_t)j * lx] * y[i + (size_t)j * ly];
  return s;
}

/* d += alpha * op^-1(g): g is the rows x cols adjoint of op(X); X is stored
 * transposed when trans. */
static void N(add_op)(char trans, int rows, int cols, R alpha, const R *g, R *d,
                   int ld) {
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++) {
      R v = alpha * g[i + (size_t)j * rows];
      if (is_trans(trans))
        d[j + (size_t)i * ld] += v;
      else
        d[i + (size_t)j * ld] += v;
    }
}

/* Adds into da, db (when not NULL); returns the adjoints of alpha, beta;
 * frees the tape. */
static N(TwoAdjoints) N(gemm_rev)(N(GemmTape) *t, R *da, R *db, R *dc, int want_alpha) {
  N(TwoAdjoints) r = {0.0, 0.0};
  int m = t->m, n = t->n, k = t->k;
  if (dc && m > 0 && n > 0) {
    int ar = N(a_rows)(t->ta, m, k), br = N(a_rows)(t->tb, k, n);
    int have_alpha = 0;
    if (k > 0 && (da || (want_alpha && !db))) {
      /* G = dC op(B)^T (m x k): dA += alpha op^-1(G), dalpha = <op(A), G>. */
      R *g = xmalloc((size_t)m * k * sizeof(R));
      char tb = flip(t->tb), n_ = 'N';
      B(gemm)(&n_, &tb, &m, &k, &n, &N(one), dc, &t->ldc, t->b, &br, &N(zero), g, &m);
      if (da)
        N(add_op)(t->ta, m, k, t->alpha, g, da, t->lda);
      if (want_alpha) {
        R s = 0.0;
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
      R *h = xmalloc((size_t)k * n * sizeof(R));
      char ta = flip(t->ta), n_ = 'N';
      B(gemm)(&ta, &n_, &k, &n, &m, &N(one), t->a, &ar, dc, &t->ldc, &N(zero), h, &k);
      N(add_op)(t->tb, k, n, t->alpha, h, db, t->ldb);
      if (want_alpha && !have_alpha) {
        R s = 0.0;
        for (int j = 0; j < n; j++)
          for (int l = 0; l < k; l++)
            s += h[l + (size_t)j * k] *
                 (is_trans(t->tb) ? t->b[j + (size_t)l * br] : t->b[l + (size_t)j * br]);
        r.dalpha = s;
      }
      free(h);
    }
    if (t->c)
      r.dbeta = N(mdot)(m, n, t->c, m, dc, t->ldc);
    N(mscale)(m, n, t->beta, dc, t->ldc);
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

void CB(fwd, gemm)(GEMM_CBLAS_ARGS, R alpha, R dalpha,
                                      const R *a, const R *da, int lda,
                                      const R *b, const R *db, int ldb, R beta,
                                      R dbeta, R *c, R *dc, int ldc) {
  GEMM_NORMALIZE
  if (row)
    N(gemm_fwd)(tb, ta, n, m, k, alpha, dalpha, b, db, ldb, a, da, lda, beta, dbeta, c, dc, ldc);
  else
    N(gemm_fwd)(ta, tb, m, n, k, alpha, dalpha, a, da, lda, b, db, ldb, beta, dbeta, c, dc, ldc);
}

void *CB(aug, gemm)(GEMM_CBLAS_ARGS, R alpha, const R *a,
                                       const R *da, int lda, const R *b,
                                       const R *db, int ldb, R beta, R *c,
                                       R *dc, int ldc) {
  GEMM_NORMALIZE
  (void)da, (void)db;
  if (row)
    return N(gemm_aug)(tb, ta, n, m, k, alpha, b, ldb, a, lda, beta, c, dc, ldc);
  return N(gemm_aug)(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, dc, ldc);
}

N(TwoAdjoints) CB(rev, gemm)(GEMM_CBLAS_ARGS, R alpha, const R *a,
                                             R *da, int lda, const R *b, R *db,
                                             int ldb, R beta, R *c, R *dc,
                                             int ldc, void *tape) {
  (void)order, (void)ta_, (void)tb_, (void)m, (void)n, (void)k, (void)alpha, (void)a;
  (void)lda, (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
  N(GemmTape) *t = tape;
  /* The tape holds the normalized problem: A and B swapped for row major. */
  if (order == 101)
    return N(gemm_rev)(t, db, da, dc, 1);
  return N(gemm_rev)(t, da, db, dc, 1);
}

void FT(fwd, gemm)(const char *ta, const char *dta, const char *tb,
                                 const char *dtb, const int *m, const int *dm, const int *n,
                                 const int *dn, const int *k, const int *dk,
                                 const R *alpha, const R *dalpha, const R *a,
                                 const R *da, const int *lda, const int *dlda,
                                 const R *b, const R *db, const int *ldb,
                                 const int *dldb, const R *beta, const R *dbeta,
                                 R *c, R *dc, const int *ldc, const int *dldc) {
  (void)dta, (void)dtb, (void)dm, (void)dn, (void)dk, (void)dlda, (void)dldb, (void)dldc;
  N(gemm_fwd)(*ta, *tb, *m, *n, *k, *alpha, dalpha ? *dalpha : 0.0, a, da, *lda, b, db, *ldb,
           *beta, dbeta ? *dbeta : 0.0, c, dc, *ldc);
}

void *FT(aug, gemm)(const char *ta, const char *dta, const char *tb,
                                  const char *dtb, const int *m, const int *dm, const int *n,
                                  const int *dn, const int *k, const int *dk,
                                  const R *alpha, const R *dalpha, const R *a,
                                  const R *da, const int *lda, const int *dlda,
                                  const R *b, const R *db, const int *ldb,
                                  const int *dldb, const R *beta, const R *dbeta,
                                  R *c, R *dc, const int *ldc, const int *dldc) {
  (void)dta, (void)dtb, (void)dm, (void)dn, (void)dk, (void)dlda, (void)dldb, (void)dldc;
  (void)dalpha, (void)da, (void)db, (void)dbeta;
  return N(gemm_aug)(*ta, *tb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, dc, *ldc);
}

void FT(rev, gemm)(const char *ta, const char *dta, const char *tb,
                                 const char *dtb, const int *m, const int *dm, const int *n,
                                 const int *dn, const int *k, const int *dk,
                                 const R *alpha, R *dalpha, const R *a,
                                 R *da, const int *lda, const int *dlda, const R *b,
                                 R *db, const int *ldb, const int *dldb,
                                 const R *beta, R *dbeta, R *c, R *dc,
                                 const int *ldc, const int *dldc, void *tape) {
  (void)ta, (void)dta, (void)tb, (void)dtb, (void)m, (void)dm, (void)n, (void)dn, (void)k;
  (void)dk, (void)alpha, (void)a, (void)lda, (void)dlda, (void)b, (void)ldb, (void)dldb;
  (void)beta, (void)c, (void)ldc, (void)dldc;
  N(TwoAdjoints) r = N(gemm_rev)(tape, da, db, dc, dalpha != NULL);
  if (dalpha)
    *dalpha += r.dalpha;
  if (dbeta)
    *dbeta += r.dbeta;
}

/* ---------------------------------------------------------------- GEMV */

typedef struct {
  char t;
  int m, n, lda, incx, incy;
  R alpha, beta;
  R *a, *x, *y; /* packed A (m x n), x, y before the call */
} N(GemvTape);

static int N(gemv_xlen)(char t, int m, int n) { return is_trans(t) ? m : n; }
static int N(gemv_ylen)(char t, int m, int n) { return is_trans(t) ? n : m; }

/* y must not overlap A or x (checked when y has a shadow). */
static void N(gemv_alias)(char t, int m, int n, const R *a, int lda, const R *x, int incx,
                          const R *y, int incy) {
  Span ys = vspan(y, N(gemv_ylen)(t, m, n), incy, sizeof(R));
  refuse_overlap(ROUTINE(gemv), ys, "y", mspan(a, m, n, lda, sizeof(R)), "A");
  refuse_overlap(ROUTINE(gemv), ys, "y", vspan(x, N(gemv_xlen)(t, m, n), incx, sizeof(R)), "x");
}

static void N(gemv_fwd)(char t, int m, int n, R alpha, R dalpha, const R *a,
                     const R *da, int lda, const R *x, const R *dx, int incx,
                     R beta, R dbeta, R *y, R *dy, int incy) {
  int yl = N(gemv_ylen)(t, m, n);
  if (dy && yl > 0) {
    N(gemv_alias)(t, m, n, a, lda, x, incx, y, incy);
    if (beta == 0.0) {
      N(vscale)(yl, 0.0, dy, incy);
    } else {
      N(vscale)(yl, beta, dy, incy);
      if (dbeta != 0.0)
        B(axpy)(&yl, &dbeta, y, &incy, dy, &incy);
    }
    if (m > 0 && n > 0) {
      if (da)
        B(gemv)(&t, &m, &n, &alpha, da, &lda, x, &incx, &N(one), dy, &incy);
      if (dx)
        B(gemv)(&t, &m, &n, &alpha, a, &lda, dx, &incx, &N(one), dy, &incy);
      if (dalpha != 0.0)
        B(gemv)(&t, &m, &n, &dalpha, a, &lda, x, &incx, &N(one), dy, &incy);
    }
  }
  B(gemv)(&t, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy);
}

static N(GemvTape) *N(gemv_aug)(char t, int m, int n, R alpha, const R *a, int lda,
                          const R *x, int incx, R beta, R *y, const R *dy,
                          int incy) {
  N(GemvTape) *g = xmalloc(sizeof(N(GemvTape)));
  *g = (N(GemvTape)){t, m, n, lda, incx, incy, alpha, beta, NULL, NULL, NULL};
  if (dy) {
    N(gemv_alias)(t, m, n, a, lda, x, incx, y, incy);
    g->a = N(mpack)(m, n, a, lda);
    g->x = N(vpack)(N(gemv_xlen)(t, m, n), x, incx);
    if (beta != 0.0)
      g->y = N(vpack)(N(gemv_ylen)(t, m, n), y, incy);
  }
  B(gemv)(&t, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy);
  return g;
}

static N(TwoAdjoints) N(gemv_rev)(N(GemvTape) *g, R *da, R *dx, R *dy, int want_alpha) {
  N(TwoAdjoints) r = {0.0, 0.0};
  int m = g->m, n = g->n, xl = N(gemv_xlen)(g->t, m, n), yl = N(gemv_ylen)(g->t, m, n);
  if (dy && yl > 0) {
    if (xl > 0 && (dx || want_alpha)) {
      /* s = op(A)^T dy: dx += alpha s, dalpha = <x, s>. */
      R *s = xmalloc((size_t)xl * sizeof(R));
      char ft = flip(g->t);
      B(gemv)(&ft, &m, &n, &N(one), g->a, &m, dy, &g->incy, &N(zero), s, &ONE);
      if (dx)
        B(axpy)(&xl, &g->alpha, s, &ONE, dx, &g->incx);
      if (want_alpha)
        r.dalpha = B(dot)(&xl, g->x, &ONE, s, &ONE);
      free(s);
    }
    if (da && xl > 0) {
      /* dA += alpha dy x^T (or x dy^T when transposed). */
      if (is_trans(g->t))
        B(ger)(&m, &n, &g->alpha, g->x, &ONE, dy, &g->incy, da, &g->lda);
      else
        B(ger)(&m, &n, &g->alpha, dy, &g->incy, g->x, &ONE, da, &g->lda);
    }
    if (g->y)
      r.dbeta = B(dot)(&yl, g->y, &ONE, dy, &g->incy);
    N(vscale)(yl, g->beta, dy, g->incy);
  }
  free(g->a);
  free(g->x);
  free(g->y);
  free(g);
  return r;
}

/* Row major: A (m x n, row major) is the column-major n x m matrix A^T. */
void CB(fwd, gemv)(int order, int t_, int m, int n, R alpha,
                                      R dalpha, const R *a, const R *da, int lda,
                                      const R *x, const R *dx, int incx, R beta,
                                      R dbeta, R *y, R *dy, int incy) {
  char t = cblas_trans(t_);
  if (order == 101)
    N(gemv_fwd)(flip(t), n, m, alpha, dalpha, a, da, lda, x, dx, incx, beta, dbeta, y, dy, incy);
  else
    N(gemv_fwd)(t, m, n, alpha, dalpha, a, da, lda, x, dx, incx, beta, dbeta, y, dy, incy);
}

void *CB(aug, gemv)(int order, int t_, int m, int n, R alpha,
                                       const R *a, const R *da, int lda,
                                       const R *x, const R *dx, int incx, R beta,
                                       R *y, R *dy, int incy) {
  (void)da, (void)dx;
  char t = cblas_trans(t_);
  if (order == 101)
    return N(gemv_aug)(flip(t), n, m, alpha, a, lda, x, incx, beta, y, dy, incy);
  return N(gemv_aug)(t, m, n, alpha, a, lda, x, incx, beta, y, dy, incy);
}

N(TwoAdjoints) CB(rev, gemv)(int order, int t_, int m, int n, R alpha,
                                             const R *a, R *da, int lda,
                                             const R *x, R *dx, int incx, R beta,
                                             R *y, R *dy, int incy, void *tape) {
  (void)order, (void)t_, (void)m, (void)n, (void)alpha, (void)a, (void)lda, (void)x;
  (void)incx, (void)beta, (void)y, (void)incy;
  return N(gemv_rev)(tape, da, dx, dy, 1);
}

void FT(fwd, gemv)(const char *t, const char *dt, const int *m, const int *dm,
                                 const int *n, const int *dn, const R *alpha,
                                 const R *dalpha, const R *a, const R *da,
                                 const int *lda, const int *dlda, const R *x,
                                 const R *dx, const int *incx, const int *dincx,
                                 const R *beta, const R *dbeta, R *y, R *dy,
                                 const int *incy, const int *dincy) {
  (void)dt, (void)dm, (void)dn, (void)dlda, (void)dincx, (void)dincy;
  N(gemv_fwd)(*t, *m, *n, *alpha, dalpha ? *dalpha : 0.0, a, da, *lda, x, dx, *incx, *beta,
           dbeta ? *dbeta : 0.0, y, dy, *incy);
}

void *FT(aug, gemv)(const char *t, const char *dt, const int *m, const int *dm,
                                  const int *n, const int *dn, const R *alpha,
                                  const R *dalpha, const R *a, const R *da,
                                  const int *lda, const int *dlda, const R *x,
                                  const R *dx, const int *incx, const int *dincx,
                                  const R *beta, const R *dbeta, R *y,
                                  R *dy, const int *incy, const int *dincy) {
  (void)dt, (void)dm, (void)dn, (void)dalpha, (void)da, (void)dlda, (void)dx, (void)dincx;
  (void)dbeta, (void)dincy;
  return N(gemv_aug)(*t, *m, *n, *alpha, a, *lda, x, *incx, *beta, y, dy, *incy);
}

void FT(rev, gemv)(const char *t, const char *dt, const int *m, const int *dm,
                                 const int *n, const int *dn, const R *alpha,
                                 R *dalpha, const R *a, R *da, const int *lda,
                                 const int *dlda, const R *x, R *dx, const int *incx,
                                 const int *dincx, const R *beta, R *dbeta, R *y,
                                 R *dy, const int *incy, const int *dincy, void *tape) {
  (void)t, (void)dt, (void)m, (void)dm, (void)n, (void)dn, (void)alpha, (void)a, (void)lda;
  (void)dlda, (void)x, (void)incx, (void)dincx, (void)beta, (void)y, (void)incy, (void)dincy;
  N(TwoAdjoints) r = N(gemv_rev)(tape, da, dx, dy, dalpha != NULL);
  if (dalpha)
    *dalpha += r.dalpha;
  if (dbeta)
    *dbeta += r.dbeta;
}

/* ----------------------------------------------------------------- DOT */

typedef struct {
  int n, incx, incy;
  R *x, *y;
} N(DotTape);

static R N(dot_tangent)(int n, const R *x, const R *dx, int incx, const R *y,
                          const R *dy, int incy) {
  R t = 0.0;
  if (dx)
    t += B(dot)(&n, dx, &incx, y, &incy);
  if (dy)
    t += B(dot)(&n, x, &incx, dy, &incy);
  return t;
}

static N(TapeAndResult) N(dot_aug)(int n, const R *x, const R *dx, int incx,
                             const R *y, const R *dy, int incy) {
  N(DotTape) *t = xmalloc(sizeof(N(DotTape)));
  *t = (N(DotTape)){n, incx, incy, dy ? N(vpack)(n, x, incx) : NULL,
                    dx ? N(vpack)(n, y, incy) : NULL};
  return (N(TapeAndResult)){t, B(dot)(&n, x, &incx, y, &incy)};
}

static void N(dot_rev)(N(DotTape) *t, R *dx, R *dy, R dr) {
  if (dx && t->y)
    B(axpy)(&t->n, &dr, t->y, &ONE, dx, &t->incx);
  if (dy && t->x)
    B(axpy)(&t->n, &dr, t->x, &ONE, dy, &t->incy);
  free(t->x);
  free(t->y);
  free(t);
}

N(FwdRet) CB(fwd, dot)(int n, const R *x, const R *dx,
                                              int incx, const R *y, const R *dy,
                                              int incy) {
  return FWD_RET(B(dot)(&n, x, &incx, y, &incy),
                         N(dot_tangent)(n, x, dx, incx, y, dy, incy));
}

N(TapeAndResult) CB(aug, dot)(int n, const R *x, const R *dx,
                                              int incx, const R *y, const R *dy,
                                              int incy) {
  return N(dot_aug)(n, x, dx, incx, y, dy, incy);
}

void CB(rev, dot)(int n, const R *x, R *dx, int incx,
                                     const R *y, R *dy, int incy, R dr,
                                     void *tape) {
  (void)n, (void)x, (void)incx, (void)y, (void)incy;
  N(dot_rev)(tape, dx, dy, dr);
}

N(FwdRet) FT(fwd, dot)(const int *n, const int *dn, const R *x,
                                         const R *dx, const int *incx, const int *dincx,
                                         const R *y, const R *dy, const int *incy,
                                         const int *dincy) {
  (void)dn, (void)dincx, (void)dincy;
  return FWD_RET(B(dot)(n, x, incx, y, incy),
                         N(dot_tangent)(*n, x, dx, *incx, y, dy, *incy));
}

N(TapeAndResult) FT(aug, dot)(const int *n, const int *dn, const R *x,
                                         const R *dx, const int *incx, const int *dincx,
                                         const R *y, const R *dy, const int *incy,
                                         const int *dincy) {
  (void)dn, (void)dincx, (void)dincy;
  return N(dot_aug)(*n, x, dx, *incx, y, dy, *incy);
}

void FT(rev, dot)(const int *n, const int *dn, const R *x, R *dx,
                                const int *incx, const int *dincx, const R *y, R *dy,
                                const int *incy, const int *dincy, R dr, void *tape) {
  (void)n, (void)dn, (void)x, (void)incx, (void)dincx, (void)y, (void)incy, (void)dincy;
  N(dot_rev)(tape, dx, dy, dr);
}

/* ---------------------------------------------------------------- AXPY */

typedef struct {
  int n, incx, incy;
  R a;
  R *x;
} N(AxpyTape);

/* x and y may be the same vector (y := (1 + a) y) but not overlap
 * otherwise (checked when y has a shadow). */
static void N(axpy_alias)(int n, const R *x, int incx, const R *y, int incy) {
  if (x == y && incx == incy)
    return;
  refuse_overlap(ROUTINE(axpy), vspan(y, n, incy, sizeof(R)), "y", vspan(x, n, incx, sizeof(R)),
                 "x");
}

static void N(axpy_fwd)(int n, R a, R da, const R *x, const R *dx, int incx,
                     R *y, R *dy, int incy) {
  if (dy && n > 0) {
    N(axpy_alias)(n, x, incx, y, incy);
    if (dx)
      B(axpy)(&n, &a, dx, &incx, dy, &incy);
    if (da != 0.0)
      B(axpy)(&n, &da, x, &incx, dy, &incy);
  }
  B(axpy)(&n, &a, x, &incx, y, &incy);
}

static N(AxpyTape) *N(axpy_aug)(int n, R a, const R *x, int incx, R *y,
                          const R *dy, int incy, int want_a) {
  if (dy)
    N(axpy_alias)(n, x, incx, y, incy);
  N(AxpyTape) *t = xmalloc(sizeof(N(AxpyTape)));
  *t = (N(AxpyTape)){n, incx, incy, a, dy && want_a ? N(vpack)(n, x, incx) : NULL};
  B(axpy)(&n, &a, x, &incx, y, &incy);
  return t;
}

/* dy is unchanged (y's old value enters with weight 1). */
static R N(axpy_rev)(N(AxpyTape) *t, R *dx, R *dy) {
  R da = 0.0;
  if (dy && t->n > 0) {
    /* da first: dx may be dy (y passed as x). */
    if (t->x)
      da = B(dot)(&t->n, t->x, &ONE, dy, &t->incy);
    if (dx)
      B(axpy)(&t->n, &t->a, dy, &t->incy, dx, &t->incx);
  }
  free(t->x);
  free(t);
  return da;
}

void CB(fwd, axpy)(int n, R a, R da, const R *x,
                                      const R *dx, int incx, R *y, R *dy,
                                      int incy) {
  N(axpy_fwd)(n, a, da, x, dx, incx, y, dy, incy);
}

void *CB(aug, axpy)(int n, R a, const R *x, const R *dx,
                                       int incx, R *y, R *dy, int incy) {
  (void)dx;
  return N(axpy_aug)(n, a, x, incx, y, dy, incy, 1);
}

R CB(rev, axpy)(int n, R a, const R *x, R *dx, int incx,
                                        R *y, R *dy, int incy, void *tape) {
  (void)n, (void)a, (void)x, (void)incx, (void)y, (void)incy;
  return N(axpy_rev)(tape, dx, dy);
}

void FT(fwd, axpy)(const int *n, const int *dn, const R *a,
                                 const R *da, const R *x, const R *dx,
                                 const int *incx, const int *dincx, R *y, R *dy,
                                 const int *incy, const int *dincy) {
  (void)dn, (void)dincx, (void)dincy;
  N(axpy_fwd)(*n, *a, da ? *da : 0.0, x, dx, *incx, y, dy, *incy);
}

void *FT(aug, axpy)(const int *n, const int *dn, const R *a,
                                  const R *da, const R *x, const R *dx,
                                  const int *incx, const int *dincx, R *y, R *dy,
                                  const int *incy, const int *dincy) {
  (void)dn, (void)dx, (void)dincx, (void)dincy;
  return N(axpy_aug)(*n, *a, x, *incx, y, dy, *incy, da != NULL);
}

void FT(rev, axpy)(const int *n, const int *dn, const R *a, R *da,
                                 const R *x, R *dx, const int *incx, const int *dincx,
                                 R *y, R *dy, const int *incy, const int *dincy,
                                 void *tape) {
  (void)n, (void)dn, (void)a, (void)x, (void)incx, (void)dincx, (void)y, (void)incy;
  (void)dincy;
  R r = N(axpy_rev)(tape, dx, dy);
  if (da)
    *da += r;
}

/* ---------------------------------------------------------------- SCAL */

typedef struct {
  int n, inc;
  R a;
  R *x; /* x before the call */
} N(ScalTape);

/* dscal does nothing for inc <= 0 (reference BLAS). */
static void N(scal_fwd)(int n, R a, R da, R *x, R *dx, int inc) {
  if (dx && n > 0 && inc > 0) {
    N(vscale)(n, a, dx, inc);
    if (da != 0.0)
      B(axpy)(&n, &da, x, &inc, dx, &inc);
  }
  B(scal)(&n, &a, x, &inc);
}

static N(ScalTape) *N(scal_aug)(int n, R a, R *x, const R *dx, int inc, int want_a) {
  N(ScalTape) *t = xmalloc(sizeof(N(ScalTape)));
  *t = (N(ScalTape)){n, inc, a, dx && want_a && inc > 0 ? N(vpack)(n, x, inc) : NULL};
  B(scal)(&n, &a, x, &inc);
  return t;
}

static R N(scal_rev)(N(ScalTape) *t, R *dx) {
  R da = 0.0;
  if (dx && t->n > 0 && t->inc > 0) {
    if (t->x)
      da = B(dot)(&t->n, t->x, &ONE, dx, &t->inc);
    N(vscale)(t->n, t->a, dx, t->inc);
  }
  free(t->x);
  free(t);
  return da;
}

void CB(fwd, scal)(int n, R a, R da, R *x, R *dx,
                                      int inc) {
  N(scal_fwd)(n, a, da, x, dx, inc);
}

void *CB(aug, scal)(int n, R a, R *x, R *dx, int inc) {
  return N(scal_aug)(n, a, x, dx, inc, 1);
}

R CB(rev, scal)(int n, R a, R *x, R *dx, int inc,
                                        void *tape) {
  (void)n, (void)a, (void)x, (void)inc;
  return N(scal_rev)(tape, dx);
}

void FT(fwd, scal)(const int *n, const int *dn, const R *a, const R *da,
                                 R *x, R *dx, const int *inc, const int *dinc) {
  (void)dn, (void)dinc;
  N(scal_fwd)(*n, *a, da ? *da : 0.0, x, dx, *inc);
}

void *FT(aug, scal)(const int *n, const int *dn, const R *a,
                                  const R *da, R *x, R *dx, const int *inc,
                                  const int *dinc) {
  (void)dn, (void)dinc;
  return N(scal_aug)(*n, *a, x, dx, *inc, da != NULL);
}

void FT(rev, scal)(const int *n, const int *dn, const R *a, R *da,
                                 R *x, R *dx, const int *inc, const int *dinc,
                                 void *tape) {
  (void)n, (void)dn, (void)a, (void)x, (void)inc, (void)dinc;
  R r = N(scal_rev)(tape, dx);
  if (da)
    *da += r;
}

/* ---------------------------------------------------------------- NRM2 */

typedef struct {
  int n, inc;
  R r;
  R *x;
} N(Nrm2Tape);

static R N(nrm2_tangent)(int n, const R *x, const R *dx, int inc, R r) {
  if (!dx || r == 0.0 || n <= 0)
    return 0.0;
  return B(dot)(&n, x, &inc, dx, &inc) / r;
}

static N(TapeAndResult) N(nrm2_aug)(int n, const R *x, const R *dx, int inc) {
  N(Nrm2Tape) *t = xmalloc(sizeof(N(Nrm2Tape)));
  R r = B(nrm2)(&n, x, &inc);
  *t = (N(Nrm2Tape)){n, inc, r, dx ? N(vpack)(n, x, inc) : NULL};
  return (N(TapeAndResult)){t, r};
}

static void N(nrm2_rev)(N(Nrm2Tape) *t, R *dx, R dr) {
  if (dx && t->x && t->r != 0.0) {
    R s = dr / t->r;
    B(axpy)(&t->n, &s, t->x, &ONE, dx, &t->inc);
  }
  free(t->x);
  free(t);
}

N(FwdRet) CB(fwd, nrm2)(int n, const R *x, const R *dx,
                                               int inc) {
  R r = B(nrm2)(&n, x, &inc);
  return FWD_RET(r, N(nrm2_tangent)(n, x, dx, inc, r));
}

N(TapeAndResult) CB(aug, nrm2)(int n, const R *x, const R *dx,
                                               int inc) {
  return N(nrm2_aug)(n, x, dx, inc);
}

void CB(rev, nrm2)(int n, const R *x, R *dx, int inc, R dr,
                                      void *tape) {
  (void)n, (void)x, (void)inc;
  N(nrm2_rev)(tape, dx, dr);
}

N(FwdRet) FT(fwd, nrm2)(const int *n, const int *dn, const R *x,
                                          const R *dx, const int *inc, const int *dinc) {
  (void)dn, (void)dinc;
  R r = B(nrm2)(n, x, inc);
  return FWD_RET(r, N(nrm2_tangent)(*n, x, dx, *inc, r));
}

N(TapeAndResult) FT(aug, nrm2)(const int *n, const int *dn, const R *x,
                                          const R *dx, const int *inc, const int *dinc) {
  (void)dn, (void)dinc;
  return N(nrm2_aug)(*n, x, dx, *inc);
}

void FT(rev, nrm2)(const int *n, const int *dn, const R *x, R *dx,
                                 const int *inc, const int *dinc, R dr, void *tape) {
  (void)n, (void)dn, (void)x, (void)inc, (void)dinc;
  N(nrm2_rev)(tape, dx, dr);
}

#include "blas/copy_swap_asum.inc"
#include "blas/ger.inc"

#undef FWD_RET
#endif /* BLAS_RT_BODY */
