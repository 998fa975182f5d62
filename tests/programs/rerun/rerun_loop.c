/* Loops the reverse sweep re-runs per iteration instead of taping every
 * inner value (modes/reverse/rerun.rs), and loops it must not re-run.
 * Every partial is checked against a central finite difference.
 *
 * - scratch:     the GMM pattern: per point, scratch arrays written then
 *                read through nested loops; a loop-carried sum.
 * - carried:     a scratch array carried from one point to the next (read
 *                before written): its snapshots must restore it.
 * - overwritten: the loop reads w, which is written after the loop: a
 *                re-run would see the new values, so it is not chosen.
 * - output:      the loop writes the caller's array: not re-run.
 * - two_levels:  the re-run loop holds a loop nest three deep and a call. */
#include "../check.h"
#include <string.h>

enum { N = 6, D = 5 };
#define NL (D * (D - 1) / 2 + D)

static double helper_dot(const double *a, const double *b, int d) {
  double s = 0;
  for (int j = 0; j < d; j++) s += a[j] * b[j];
  return s;
}

static double scratch(const double *x, const double *m, const double *L, int n, int d) {
  double *xc = malloc(sizeof(double) * d), *q = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = x[i * d + j] - m[j];
    for (int j = 0; j < d; j++) q[j] = exp(m[j]) * xc[j];
    int li = d;
    for (int col = 0; col < d; col++)
      for (int row = col + 1; row < d; row++) q[row] += sin(L[li++]) * xc[col] * xc[row];
    for (int j = 0; j < d; j++) s += q[j] * q[j] + cos(xc[j]) * L[j];
  }
  free(xc);
  free(q);
  return s;
}

static double carried(const double *x, const double *m, const double *L, int n, int d) {
  double *t = malloc(sizeof(double) * d);
  double s = 0;
  for (int j = 0; j < d; j++) t[j] = m[j];
  for (int i = 0; i < n; i++) {
    for (int col = 0; col < d; col++) {
      double r = t[col];
      for (int row = 0; row < d; row++) r = sin(r * x[i * d + row] + L[row]);
      s += r;
    }
    for (int j = 0; j < d; j++) t[j] = 0.5 * t[j] + cos(x[i * d + j]) * m[j];
  }
  for (int j = 0; j < d; j++) s += t[j] * t[j];
  free(t);
  return s;
}

static double overwritten(const double *x, const double *m, const double *L, int n, int d) {
  double *w = malloc(sizeof(double) * d), *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int j = 0; j < d; j++) w[j] = m[j] * m[j];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = x[i * d + j] * w[j];
    for (int col = 0; col < d; col++) {
      double r = xc[col];
      for (int row = 0; row < d; row++) r = sin(r * L[row]) + xc[row];
      s += r;
    }
  }
  for (int j = 0; j < d; j++) w[j] = L[j] * 3.0;
  for (int j = 0; j < d; j++) s += w[j] * x[j];
  free(w);
  free(xc);
  return s;
}

double out_buf[N]; /* external: its stores stay */
static double output(const double *x, const double *m, const double *L, int n, int d) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = 0;
    for (int col = 0; col < d; col++) {
      double t = m[col];
      for (int row = 0; row < d; row++) t = sin(t * x[i * d + row] + L[row]);
      r += t;
    }
    out_buf[i] = r;
    s += r * r;
  }
  return s;
}

static double two_levels(const double *x, const double *m, const double *L, int n, int d) {
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = x[i * d + j] - m[j];
    for (int a = 0; a < d; a++)
      for (int b = 0; b < d; b++) {
        double r = xc[a];
        for (int c = 0; c < 3; c++) r = sin(r * L[b] + c);
        s += r * xc[b];
      }
    s += helper_dot(xc, L, d) * exp(0.1 * xc[0]);
  }
  free(xc);
  return s;
}

static double xs[N * D], ms[D], Ls[NL];
static double dxs[N * D], dms[D], dLs[NL];

static void fill(void) {
  for (int k = 0; k < N * D; k++) xs[k] = 0.3 + 0.07 * k - 0.004 * k * k;
  for (int k = 0; k < D; k++) ms[k] = 0.5 - 0.13 * k;
  for (int k = 0; k < NL; k++) Ls[k] = 0.1 * k - 0.2;
  memset(dxs, 0, sizeof dxs);
  memset(dms, 0, sizeof dms);
  memset(dLs, 0, sizeof dLs);
}

#define CHECK_KERNEL(f)                                                                 \
  do {                                                                                  \
    fill();                                                                             \
    double val = f(xs, ms, Ls, N, D);                                                   \
    __enzyme_autodiff((void *)f, enzyme_dup, xs, dxs, enzyme_dup, ms, dms, enzyme_dup, \
                      Ls, dLs, enzyme_const, N, enzyme_const, D);                       \
    char label[64];                                                                     \
    CHECK(#f " inputs unchanged", f(xs, ms, Ls, N, D), val, 1e-12);                     \
    for (int k = 0; k < N * D; k++) {                                                   \
      snprintf(label, sizeof label, #f " dx[%d]", k);                                  \
      CHECK(label, dxs[k], FD(xs[k], f(xs, ms, Ls, N, D), 1e-6), 1e-6);                 \
    }                                                                                   \
    for (int k = 0; k < D; k++) {                                                       \
      snprintf(label, sizeof label, #f " dm[%d]", k);                                  \
      CHECK(label, dms[k], FD(ms[k], f(xs, ms, Ls, N, D), 1e-6), 1e-6);                 \
    }                                                                                   \
    for (int k = 0; k < NL; k++) {                                                      \
      snprintf(label, sizeof label, #f " dL[%d]", k);                                  \
      CHECK(label, dLs[k], FD(Ls[k], f(xs, ms, Ls, N, D), 1e-6), 1e-6);                 \
    }                                                                                   \
  } while (0)

int main(void) {
  CHECK_KERNEL(scratch);
  CHECK_KERNEL(carried);
  CHECK_KERNEL(overwritten);
  CHECK_KERNEL(output);
  CHECK_KERNEL(two_levels);
  CHECK_DONE();
}
