/* Scratch arrays overwritten with different data on every outer iteration
 * (the GMM pattern): the reverse sweep may recompute a scratch element
 * from the store that wrote it, but only where that store is the one the
 * load read. The other kernels must keep the loaded values on the tape: a
 * second writer, a store loop that skips some iterations, a load of a
 * neighbouring element. Checked against central finite differences. */
#include "../check.h"
#include <string.h>

enum { N = 5, D = 4 };

/* GMM's inner loops: xc = x_i - m, q = diag(m) xc + strictly-lower L xc. */
static double gmm_like(const double *x, const double *m, const double *L, int n, int d) {
  double *xc = malloc(sizeof(double) * d), *q = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = x[i * d + j] - m[j];
    for (int j = 0; j < d; j++) q[j] = m[j] * xc[j];
    int li = 0;
    for (int col = 0; col < d; col++)
      for (int row = col + 1; row < d; row++) q[row] += L[li++] * xc[col];
    for (int j = 0; j < d; j++) s += q[j] * q[j] + sin(xc[j]) * xc[j];
  }
  free(xc);
  free(q);
  return s;
}

/* Two writers of t: its loads must come from the tape. */
static double two_writers(const double *x, const double *m, const double *L, int n, int d) {
  double *t = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) t[j] = x[i * d + j] * m[j];
    for (int j = 0; j < d; j++) s += t[j] * t[j];
    for (int j = 0; j < d; j++) t[j] = x[i * d + j] + L[j];
    for (int j = 0; j < d; j++) s += sin(t[j]) * m[j];
  }
  free(t);
  return s;
}

/* The store loop runs on even iterations only: odd iterations read the
 * previous iteration's values, which a recomputation would get wrong. */
static double skipped_store(const double *x, const double *m, const double *L, int n, int d) {
  double *t = malloc(sizeof(double) * d);
  double s = 0;
  (void)L;
  for (int j = 0; j < d; j++) t[j] = m[j];
  for (int i = 0; i < n; i++) {
    if (i % 2 == 0)
      for (int j = 0; j < d; j++) t[j] = x[i * d + j] - m[j];
    for (int j = 0; j < d; j++) s += t[j] * t[j] * x[i * d + j];
  }
  free(t);
  return s;
}

/* Neighbouring elements, and a shorter loop than the store's. */
static double neighbours(const double *x, const double *m, const double *L, int n, int d) {
  double *t = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) t[j] = x[i * d + j] * L[j] + m[j];
    for (int j = 0; j + 1 < d; j++) s += t[j] * t[j + 1];
  }
  free(t);
  return s;
}

static double xs[N * D], ms[D], Ls[D * (D - 1) / 2 + D];
static double dxs[N * D], dms[D], dLs[D * (D - 1) / 2 + D];

static void fill(void) {
  for (int k = 0; k < N * D; k++) xs[k] = 0.3 + 0.17 * k - 0.011 * k * k;
  for (int k = 0; k < D; k++) ms[k] = 0.5 - 0.23 * k;
  for (int k = 0; k < D * (D - 1) / 2 + D; k++) Ls[k] = 0.1 * k - 0.2;
  memset(dxs, 0, sizeof dxs);
  memset(dms, 0, sizeof dms);
  memset(dLs, 0, sizeof dLs);
}

/* Every partial of kernel f against a central difference. */
#define CHECK_KERNEL(f)                                                                 \
  do {                                                                                  \
    fill();                                                                             \
    __enzyme_autodiff((void *)f, enzyme_dup, xs, dxs, enzyme_dup, ms, dms, enzyme_dup, \
                      Ls, dLs, enzyme_const, N, enzyme_const, D);                       \
    char label[64];                                                                     \
    for (int k = 0; k < N * D; k++) {                                                   \
      snprintf(label, sizeof label, #f " dx[%d]", k);                                  \
      CHECK(label, dxs[k], FD(xs[k], f(xs, ms, Ls, N, D), 1e-6), 1e-6);                 \
    }                                                                                   \
    for (int k = 0; k < D; k++) {                                                       \
      snprintf(label, sizeof label, #f " dm[%d]", k);                                  \
      CHECK(label, dms[k], FD(ms[k], f(xs, ms, Ls, N, D), 1e-6), 1e-6);                 \
    }                                                                                   \
    for (int k = 0; k < D * (D - 1) / 2 + D; k++) {                                     \
      snprintf(label, sizeof label, #f " dL[%d]", k);                                  \
      CHECK(label, dLs[k], FD(Ls[k], f(xs, ms, Ls, N, D), 1e-6), 1e-6);                 \
    }                                                                                   \
  } while (0)

int main(void) {
  CHECK_KERNEL(gmm_like);
  CHECK_KERNEL(two_writers);
  CHECK_KERNEL(skipped_store);
  CHECK_KERNEL(neighbours);
  CHECK_DONE();
}
