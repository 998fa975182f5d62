// Vector reverse mode (enzyme_width 2 and 3) where every lane needs shadow
// pointers of its own built by the one augmented sweep: a callee returning
// one of its pointer arguments (its shadows come back per lane), a global
// written with an active value and read back (a shadow global per lane),
// a heap array of pointers (shadow pointers stored into shadow memory),
// and an accumulator the caller sees (read and written: the primal runs
// once).
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include <stdlib.h>

double gtmp;

__attribute__((noinline)) double *pick(double *a, double *b, int k) { return k ? a : b; }

__attribute__((noinline)) void f(double *x, double *w, double *out, int n) {
  gtmp = x[0] * x[0];
  double **rows = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) rows[i] = pick(x, w, i & 1);
  double s = 0;
  for (int i = 0; i < n; i++) s += rows[i][i] * gtmp;
  free(rows);
  *out += s;
}

static double F(double *x, double *w, int n) {
  double o = 0;
  f(x, w, &o, n);
  return o;
}

int main(void) {
  enum { N = 4 };
  double x[N] = {0.7, -1.2, 0.4, 2.0}, w[N] = {1.5, 0.3, -0.8, 0.9};
  double sum = 0; // sum_i p_i[i]
  for (int i = 0; i < N; i++) sum += (i & 1) ? x[i] : w[i];
  double x0sq = x[0] * x[0];
  double out = 1;
  double dx[2][N] = {{0}}, dw[2][N] = {{0}}, dout[2] = {1, -2};
  __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, x, dx[0], dx[1], enzyme_dup, w, dw[0], dw[1],
                    enzyme_dup, &out, &dout[0], &dout[1], enzyme_const, N);
  CHECK("out once", out, 1 + sum * x0sq, 1e-14);
  const double seed2[2] = {1, -2};
  for (int l = 0; l < 2; l++)
    for (int j = 0; j < N; j++) {
      double wx = (j & 1) ? x0sq : 0, ww = (j & 1) ? 0 : x0sq;
      if (j == 0) wx += 2 * x[0] * sum;
      CHECK("width 2 dx", dx[l][j], seed2[l] * wx, 1e-12);
      CHECK("width 2 dw", dw[l][j], seed2[l] * ww, 1e-12);
    }
  // width 3 and finite differences of lane 0
  double gx[3][N] = {{0}}, gw[3][N] = {{0}}, s3[3] = {0.5, 1, 3}, o3 = 0;
  __enzyme_autodiff((void *)f, enzyme_width, 3, enzyme_dup, x, gx[0], gx[1], gx[2], enzyme_dup, w, gw[0], gw[1],
                    gw[2], enzyme_dup, &o3, &s3[0], &s3[1], &s3[2], enzyme_const, N);
  CHECK("out once (width 3)", o3, sum * x0sq, 1e-14);
  const double seed3[3] = {0.5, 1, 3};
  for (int j = 0; j < N; j++) {
    double xx[N], ww[N];
    for (int k = 0; k < N; k++) xx[k] = x[k], ww[k] = w[k];
    for (int l = 0; l < 3; l++) {
      CHECK("width 3 dx fd", gx[l][j], seed3[l] * FD(xx[j], F(xx, ww, N), 1e-6), 1e-6);
      CHECK("width 3 dw fd", gw[l][j], seed3[l] * FD(ww[j], F(xx, ww, N), 1e-6), 1e-6);
    }
  }
  CHECK_DONE();
}
