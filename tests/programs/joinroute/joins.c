// Joins whose predecessor index is recomputed from branch conditions
// (modes/reverse/aug/joinroute.rs) instead of taped: a recursive FFT's
// early return, three- and four-way joins decided by arguments, loaded
// values and comparisons copied to the dominator, joins inside a loop,
// and shapes that must keep the taped index (a condition computed below
// the dominator, a loop with two exits on the way). Every gradient is
// checked against central differences.
#include "../check.h"

#define N 16
static double TW[N];

#include "../fftsort/fft_kernel.h"

double fft_obj(const double *x, int n) {
  double *X = malloc(sizeof(double) * n);
  fft_rec(x, 1, X, n / 2, TW, 1);
  double f = 0;
  for (int k = 0; k < n / 2; k++) f += (k + 1) * (X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1]);
  free(X);
  return f;
}

// Three ways into the join, decided by the argument `mode`; one way runs a
// loop first.
__attribute__((noinline)) static double three_way(const double *x, int n, int mode) {
  double r;
  if (mode == 0) {
    r = x[0] * x[1];
  } else if (mode > 2) {
    r = 1;
    for (int i = 0; i < n; i++) r = r * 0.9 + sin(x[i]);
  } else {
    r = exp(x[2]) * x[3];
  }
  return r * r + x[4];
}
double three_way_all(const double *x, int n) {
  return three_way(x, n, 0) + 2 * three_way(x, n, 1) + 3 * three_way(x, n, 5);
}

// Four ways, decided by loaded values: the comparison of the second level
// reads values loaded above the first branch, and is copied up to it.
__attribute__((noinline)) static double four_way(double *x, int n) {
  double a = x[0], b = x[1];
  double r;
  if (a > 0.1) {
    if (b < 0.4)
      r = a * b;
    else
      r = sqrt(a) * x[5];
  } else {
    if (a + b > 0.2)
      r = cos(b) * x[6];
    else
      r = x[7] * x[7] * x[7];
  }
  x[0] = 0.25 * r; // the loaded value is overwritten after the join
  return r * x[2];
}
double four_way_obj(const double *x, int n) {
  double *y = malloc(sizeof(double) * n);
  double f = 0;
  for (int s = 0; s < 4; s++) {
    for (int i = 0; i < n; i++) y[i] = x[i];
    y[0] = -0.3 + 0.3 * s + x[0] * 0.1;
    y[1] = 0.5 - 0.45 * (s & 1) + x[1] * 0.1;
    f += four_way(y, n) + y[0];
  }
  free(y);
  return f;
}

// A join in every iteration of a loop, decided by the iteration's loads.
double in_loop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) {
    double t;
    if (x[i] > 0) {
      if (i % 3 == 0)
        t = x[i] * x[i + 1];
      else
        t = sin(x[i + 1]);
    } else {
      t = x[i] * 3;
    }
    s += t * s * 0.1 + t;
  }
  return s;
}

// The second condition is computed below the dominator from a product
// made there: the index stays on the tape.
__attribute__((noinline)) static double below(const double *x, int n, int mode) {
  double r;
  if (mode == 1) {
    r = x[0];
  } else {
    double t = x[1] * x[2];
    if (t > 0.05)
      r = t * x[3];
    else
      r = x[4] * x[5];
  }
  return r * r;
}
double below_all(const double *x, int n) { return below(x, n, 1) + below(x, n, 0); }

// A loop with two exits on the way to the join: taped.
__attribute__((noinline)) static double two_exits(const double *x, int n, int mode) {
  double r = 0;
  if (mode > 0) {
    for (int i = 0; i < n; i++) {
      if (x[i] > 0.9) break;
      r += x[i] * x[i];
    }
  } else {
    r = x[1] * 2;
  }
  return r * x[0];
}
double two_exits_all(const double *x, int n) { return two_exits(x, n, 1) + two_exits(x, n, 0); }

static void compare(const char *what, const double *dx, double *fd, double tol) {
  char name[64];
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "%s dx[%d]", what, i);
    CHECK(name, dx[i], fd[i], tol);
  }
}

#define CHECK_ONE(f, x, tol)                                                    \
  do {                                                                          \
    double dx_[N] = {0}, fd_[N];                                                \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx_, enzyme_const, N);          \
    for (int i_ = 0; i_ < N; i_++) fd_[i_] = FD(x[i_], f(x, N), 1e-6);          \
    compare(#f, dx_, fd_, tol);                                                 \
  } while (0)

int main(void) {
  for (int k = 0; k < N / 2; k++) {
    TW[2 * k] = cos(-6.283185307179586 * k / (N / 2));
    TW[2 * k + 1] = sin(-6.283185307179586 * k / (N / 2));
  }
  double x[N];
  for (int i = 0; i < N; i++) x[i] = sin(0.7 * i + 0.2);
  CHECK_ONE(fft_obj, x, 1e-6);
  CHECK_ONE(three_way_all, x, 1e-6);
  CHECK_ONE(four_way_obj, x, 1e-6);
  CHECK_ONE(in_loop, x, 1e-6);
  CHECK_ONE(below_all, x, 1e-6);
  CHECK_ONE(two_exits_all, x, 1e-6);
  CHECK_DONE();
}
