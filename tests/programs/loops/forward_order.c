// Reverse loops run in the primal's order (modes/reverse/rev/loops.rs
// `commuting`, cpp/revorder.cc; on by default; lit/reverse/forward_order.c
// also runs this program with ENZYME_RS_FORWARD_REVERSE=0, every loop
// counting down): the reverse of a loop nest
// that writes no memory only adds into shadows, so its iterations may run
// upwards. Checked against analytic values and central differences:
// - a matrix-vector product's inner loop (turned);
// - a dot product of an array with itself, both arguments one buffer
//   (two shadows that are one: every addition lands in the same place);
// - neighbours x[i] x[i+1] (one shadow element added to by two iterations);
// - a branch and a math call in the body; a start offset; a stride of 3;
// - trip counts 0, 1 and 2; values read from the tape (x overwritten);
// - a scalar's adjoint summed over the iterations in a register;
// - a triangular nest (inner bounds from the outer counter), n = 0, 6, 11;
// - matvec's whole nest turns (rows up, each row up);
// - not turned: a loop that stores, a product carried between iterations,
//   a loop counting down in the primal (its reverse already counts up).
#include "check.h"
#include <math.h>
#include <string.h>

static double matvec(const double *A, const double *v, int m) {
  double f = 0;
  for (int i = 0; i < m; i++) {
    double yi = 0;
    for (int j = 0; j < m; j++) yi += A[i * m + j] * v[j];
    f += yi * yi;
  }
  return f;
}
static double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}
static double neigh(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += x[i] * x[i + 1];
  return s;
}
static double branchy(const double *x, int n) {
  double s = 0;
  for (int i = 2; i < n; i++) {
    if (x[i] > 0)
      s += x[i] * x[i] * (double)i;
    else
      s += sin(x[i]);
  }
  return s;
}
static double stride3(const double *x, int n) {
  double s = 0;
  for (int i = 1; i < n; i += 3) s += x[i] * x[i] * x[i];
  return s;
}
static double stores(const double *x, double *t, int n) {
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * (double)(i + 1);
  return s;
}
static double product(const double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; i++) p *= x[i];
  return p;
}
// x is overwritten after the loop: the reverse reads its values taped.
static double later(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  for (int i = 0; i < n; i++) x[i] = 0.5 * s;
  return s;
}
// A triangular nest: the inner loop's bounds read the outer counter. (At
// -O2 GVN carries each shadow element's load into the next iteration and
// the outer body's store into the inner loop's first: it keeps counting
// down.)
static double tri(const double *A, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = 0;
    for (int j = 0; j <= i; j++) r += A[i * 11 + j] * x[j]; // rows of N = 11
    s += r * x[i];
  }
  return s;
}
// a's adjoint is summed in a register across the reverse iterations.
static double scaled(const double *x, double a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a * x[i] * x[i];
  return s;
}
static double down(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = n - 1; i >= 0; i--) s += w[i] * x[i] * x[i];
  return s;
}

#define M 5
#define N 11

int main(void) {
  double A[M * M], v[M], dA[M * M], dv[M];
  for (int k = 0; k < M * M; k++) A[k] = 0.1 * (k % 7) - 0.25;
  for (int k = 0; k < M; k++) v[k] = 0.3 * k - 0.5;
  memset(dA, 0, sizeof dA);
  memset(dv, 0, sizeof dv);
  __enzyme_autodiff((void *)matvec, enzyme_dup, A, dA, enzyme_dup, v, dv, enzyme_const, M);
  for (int i = 0; i < M; i++) {
    double yi = 0;
    for (int j = 0; j < M; j++) yi += A[i * M + j] * v[j];
    for (int j = 0; j < M; j++) CHECK("matvec dA", dA[i * M + j], 2 * yi * v[j], 1e-14);
  }
  for (int j = 0; j < M; j++) {
    double want = 0;
    for (int i = 0; i < M; i++) {
      double yi = 0;
      for (int k = 0; k < M; k++) yi += A[i * M + k] * v[k];
      want += 2 * yi * A[i * M + j];
    }
    CHECK("matvec dv", dv[j], want, 1e-14);
    CHECK("matvec dv fd", dv[j], FD(v[j], matvec(A, v, M), 1e-6), 1e-6);
  }

  double T[N * N], x[N], dx[N], w[N], t[N], dt[N];
  for (int k = 0; k < N * N; k++) T[k] = 0.05 * (k % 11) - 0.2;
  for (int k = 0; k < N; k++) {
    x[k] = 0.37 * k - 1.6;
    w[k] = 0.5 + 0.1 * k;
  }
  // One buffer as both arguments: d/dx_i sum x_i^2 = 2 x_i.
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_dup, x, dx, enzyme_const, N);
  for (int k = 0; k < N; k++) CHECK("dot self", dx[k], 2 * x[k], 1e-15);
  for (int n = 0; n <= 2; n++) {
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, n);
    for (int k = 0; k < N; k++) CHECK("dot short", dx[k], k < n ? w[k] : 0.0, 1e-15);
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)neigh, enzyme_dup, x, dx, enzyme_const, N);
  for (int k = 0; k < N; k++)
    CHECK("neigh", dx[k], (k > 0 ? x[k - 1] : 0.0) + (k + 1 < N ? x[k + 1] : 0.0), 1e-15);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)branchy, enzyme_dup, x, dx, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    double want = k < 2 ? 0.0 : x[k] > 0 ? 2 * x[k] * k : cos(x[k]);
    CHECK("branchy", dx[k], want, 1e-15);
    CHECK("branchy fd", dx[k], FD(x[k], branchy(x, N), 1e-6), 1e-6);
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)stride3, enzyme_dup, x, dx, enzyme_const, N);
  for (int k = 0; k < N; k++) CHECK("stride3", dx[k], k % 3 == 1 ? 3 * x[k] * x[k] : 0.0, 1e-15);
  memset(dx, 0, sizeof dx);
  memset(dt, 0, sizeof dt);
  __enzyme_autodiff((void *)stores, enzyme_dup, x, dx, enzyme_dup, t, dt, enzyme_const, N);
  for (int k = 0; k < N; k++) CHECK("stores", dx[k], 2 * x[k] * (k + 1), 1e-15);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)product, enzyme_dup, x, dx, enzyme_const, 6);
  for (int k = 0; k < N; k++) {
    double want = 0;
    if (k < 6) {
      want = 1;
      for (int j = 0; j < 6; j++)
        if (j != k) want *= x[j];
    }
    CHECK("product", dx[k], want, 1e-14);
  }
  double xl[N];
  memcpy(xl, x, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)later, enzyme_dup, xl, dx, enzyme_const, N);
  // s's adjoint is 1 plus the 0.5 of each of the n overwritten elements'
  // (zero) adjoints: 3 x_i^2.
  for (int k = 0; k < N; k++) CHECK("later", dx[k], 3 * x[k] * x[k], 1e-14);
  for (int n = 0; n <= N; n += N / 2 + 1) {
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)tri, enzyme_const, T, enzyme_dup, x, dx, enzyme_const, n);
    for (int k = 0; k < N; k++) {
      // d/dx_k: sum over i >= k of A[i][k] x_i, plus (k < n) sum_{j<=k} A[k][j] x_j.
      double want = 0;
      for (int i = k; i < n; i++) want += T[i * N + k] * x[i];
      if (k < n)
        for (int j = 0; j <= k; j++) want += T[k * N + j] * x[j];
      CHECK("tri", dx[k], want, 1e-14);
    }
  }
  memset(dx, 0, sizeof dx);
  double da = __enzyme_autodiff((void *)scaled, enzyme_dup, x, dx, 1.7, enzyme_const, N);
  double sq = 0;
  for (int k = 0; k < N; k++) {
    sq += x[k] * x[k];
    CHECK("scaled dx", dx[k], 2 * 1.7 * x[k], 1e-15);
  }
  CHECK("scaled da", da, sq, 1e-14);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)down, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, N);
  for (int k = 0; k < N; k++) CHECK("down", dx[k], 2 * w[k] * x[k], 1e-15);
  return check_failures != 0;
}
