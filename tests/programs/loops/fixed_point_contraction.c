// A contraction in 3 dimensions, z = A tanh(z) + B x, iterated to
// convergence through __enzyme_fixed_point, with the loss reading z*:
// the gradient in x (and in a scalar parameter s scaling A, passed by
// value) must equal the implicit one, B^T (I - A^T D)^-1 ... computed here
// by solving the linear system directly, and central finite differences.
#include "../check.h"
#include <enzyme/fixed_point.h>
#include <stdint.h>
#include <string.h>

#define N 3
static const double A[N][N] = {{0.3, -0.2, 0.1}, {0.1, 0.25, -0.15}, {-0.2, 0.1, 0.35}};
static const double B[N][N] = {{1.0, 0.5, 0.0}, {0.0, 1.0, -0.5}, {0.3, 0.0, 1.0}};

__attribute__((noinline)) static int fp_step(int64_t i, double *z, const double *x, double s) {
  double t[N], diff = 0;
  for (int r = 0; r < N; r++) {
    t[r] = 0;
    for (int c = 0; c < N; c++)
      t[r] += s * A[r][c] * tanh(z[c]) + B[r][c] * x[c];
  }
  for (int r = 0; r < N; r++) {
    diff += fabs(t[r] - z[r]);
    z[r] = t[r];
  }
  return diff > 1e-15 && i < 10000;
}

static double loss(const double *z) { return z[0] * z[0] + 2 * z[1] - z[2] * z[0]; }

static double solve(const double *x, double s) {
  double z[N] = {0, 0, 0};
  __enzyme_fixed_point((void *)fp_step, enzyme_fp_state, z, (int64_t)sizeof z,
                       enzyme_fp_reduction, 1e-28, z, x, s);
  return loss(z);
}

static void fixed(const double *x, double s, double *z) {
  memset(z, 0, N * sizeof(double));
  int64_t i = 0;
  while (fp_step(i++, z, x, s))
    ;
}

/* Solve M y = b (3x3, Gaussian elimination). */
static void lin(double M[N][N], double *b, double *y) {
  for (int c = 0; c < N; c++)
    for (int r = c + 1; r < N; r++) {
      double f = M[r][c] / M[c][c];
      for (int k = c; k < N; k++)
        M[r][k] -= f * M[c][k];
      b[r] -= f * b[c];
    }
  for (int r = N - 1; r >= 0; r--) {
    y[r] = b[r];
    for (int k = r + 1; k < N; k++)
      y[r] -= M[r][k] * y[k];
    y[r] /= M[r][r];
  }
}

int main(void) {
  double x[N] = {0.4, -0.3, 0.8}, dx[N] = {0}, s = 1.2;
  double ds = __enzyme_autodiff((void *)solve, enzyme_dup, x, dx, s);
  // Implicit: w solves (I - J^T) w = zbar, J = s A diag(1 - tanh^2 z);
  // dx = B^T w, ds = w . (A tanh z).
  double z[N];
  fixed(x, s, z);
  double zbar[N] = {2 * z[0] - z[2], 2, -z[0]}, M[N][N], w[N];
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++)
      M[r][c] = (r == c) - s * A[c][r] * (1 - tanh(z[r]) * tanh(z[r]));
  lin(M, zbar, w);
  for (int c = 0; c < N; c++) {
    double want = 0;
    for (int r = 0; r < N; r++)
      want += B[r][c] * w[r];
    CHECK("dx implicit", dx[c], want, 1e-10);
    CHECK("dx fd", dx[c], FD(x[c], solve(x, s), 1e-6), 1e-6);
  }
  double want_s = 0;
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++)
      want_s += w[r] * A[r][c] * tanh(z[c]);
  CHECK("ds implicit", ds, want_s, 1e-10);
  CHECK("ds fd", ds, FD(s, solve(x, s), 1e-6), 1e-6);
  CHECK_DONE();
}
