/* Shared by the BLAS programs: the reference CBLAS / Fortran BLAS
 * prototypes (declared here, as users often do, instead of <cblas.h>) and
 * a gradient check against central finite differences. */
#ifndef ENZYME_RS_BLAS_TEST_H
#define ENZYME_RS_BLAS_TEST_H
#include "check.h"
#include <string.h>

enum { RowMajor = 101, ColMajor = 102 };
enum { NoTrans = 111, Trans = 112 };
double cblas_ddot(int n, const double *x, int incx, const double *y, int incy);
void cblas_daxpy(int n, double a, const double *x, int incx, double *y, int incy);
void cblas_dscal(int n, double a, double *x, int incx);
double cblas_dnrm2(int n, const double *x, int incx);
void cblas_dgemv(int order, int trans, int m, int n, double alpha, const double *a, int lda,
                 const double *x, int incx, double beta, double *y, int incy);
void cblas_dgemm(int order, int ta, int tb, int m, int n, int k, double alpha, const double *a,
                 int lda, const double *b, int ldb, double beta, double *c, int ldc);
double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy);
void daxpy_(const int *n, const double *a, const double *x, const int *incx, double *y,
            const int *incy);
void dscal_(const int *n, const double *a, double *x, const int *incx);
double dnrm2_(const int *n, const double *x, const int *incx);
void dgemv_(const char *t, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc);

float cblas_sdot(int n, const float *x, int incx, const float *y, int incy);
void cblas_saxpy(int n, float a, const float *x, int incx, float *y, int incy);
void cblas_sscal(int n, float a, float *x, int incx);
float cblas_snrm2(int n, const float *x, int incx);
void cblas_sgemv(int order, int trans, int m, int n, float alpha, const float *a, int lda,
                 const float *x, int incx, float beta, float *y, int incy);
void cblas_sgemm(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a,
                 int lda, const float *b, int ldb, float beta, float *c, int ldc);
float sdot_(const int *n, const float *x, const int *incx, const float *y, const int *incy);
void saxpy_(const int *n, const float *a, const float *x, const int *incx, float *y,
            const int *incy);
void sscal_(const int *n, const float *a, float *x, const int *incx);
float snrm2_(const int *n, const float *x, const int *incx);
void sgemv_(const char *t, const int *m, const int *n, const float *alpha, const float *a,
            const int *lda, const float *x, const int *incx, const float *beta, float *y,
            const int *incy);
void sgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const float *alpha, const float *a, const int *lda, const float *b,
            const int *ldb, const float *beta, float *c, const int *ldc);

static void fillf(float *x, int n, double seed) {
  for (int i = 0; i < n; i++)
    x[i] = (float)(sin(seed + 0.7 * i) + 0.1 * i);
}

static void fill(double *x, int n, double seed) {
  for (int i = 0; i < n; i++)
    x[i] = sin(seed + 0.7 * i) + 0.1 * i;
}

/* Each element of array X (n of them): gradient G[i] against a central
 * finite difference of the expression LOSS. */
#define CHECK_GRAD(label, X, G, n, LOSS)                                        \
  do {                                                                          \
    for (int i_ = 0; i_ < (n); i_++) {                                          \
      char nm_[96];                                                             \
      snprintf(nm_, sizeof nm_, "%s[%d]", (label), i_);                         \
      CHECK(nm_, (G)[i_], FD((X)[i_], (LOSS), 1e-6), 1e-6);                     \
    }                                                                           \
  } while (0)

/* Single precision: the losses sum in double, the finite difference
 * steps a float input by FH (float resolution makes 1e-6 useless) and the
 * comparison allows FTOL. */
#define FH 1e-2
#define FTOL 2e-3
#define CHECK_GRADF(label, X, G, n, LOSS)                                       \
  do {                                                                          \
    for (int i_ = 0; i_ < (n); i_++) {                                          \
      char nm_[96];                                                             \
      snprintf(nm_, sizeof nm_, "%s[%d]", (label), i_);                         \
      CHECK(nm_, (G)[i_], FD((X)[i_], (LOSS), FH), FTOL);                       \
    }                                                                           \
  } while (0)

/* Directional derivative of LOSS along the tangents: perturb every
 * input by h * its tangent. */
static double dirsum(double *x, const double *t, int n, double h) {
  for (int i = 0; i < n; i++)
    x[i] += h * t[i];
  return 0.0;
}
#endif
