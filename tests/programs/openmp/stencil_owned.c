// FLAGS: -fopenmp
// THREADS: 1 2 4
// Neighbour accesses x[i-2..i+2] in two worksharing loops of one region
// (same bounds), restrict arrays and a shared scalar: adjoints are added
// plainly inside each thread's chunk and atomically where chunks meet.
// Then two read-only arrays that overlap at an offset (b = a + 1, not
// restrict): every adjoint atomic. Small sizes repeated many times put
// most elements near chunk borders.
#include "check.h"
#define N 300

double stencil(const double *restrict x, double *restrict y, double c, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 2; i < n - 2; i++)
      y[i] = x[i - 2] + c * x[i - 1] * x[i + 1] + x[i + 2] * x[i + 2] - x[i];
#pragma omp for reduction(+ : s)
    for (int i = 2; i < n - 2; i++) s += y[i] * y[i] + x[i + 1];
  }
  return s;
}

void overlap(const double *a, const double *b, double *out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) out[i] = a[i] * b[i] + b[i];
}

static double stencil_ref(double *x, double c, int n) {
  double y[N], s = 0;
  for (int i = 2; i < n - 2; i++)
    y[i] = x[i - 2] + c * x[i - 1] * x[i + 1] + x[i + 2] * x[i + 2] - x[i];
  for (int i = 2; i < n - 2; i++) s += y[i] * y[i] + x[i + 1];
  return s;
}

static void check_stencil(int n, int reps, int verbose) {
  double x[N], dx[N], y[N], dy[N], c = 0.7;
  for (int i = 0; i < n; i++) x[i] = sin(0.3 * i) + 0.001 * i;
  for (int r = 0; r < reps; r++) {
    for (int i = 0; i < n; i++) dx[i] = y[i] = dy[i] = 0;
    double dc = __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy, c,
                                  enzyme_const, n);
    int bad = 0;
    for (int k = 0; k < n; k++) {
      double fd = FD(x[k], stencil_ref(x, c, n), 1e-5);
      if (!close_enough(dx[k], fd, 1e-6) || verbose) {
        CHECK("dx", dx[k], fd, 1e-6);
        bad++;
      }
      if (bad > 3) break;
    }
    double fdc = FD(c, stencil_ref(x, c, n), 1e-5);
    if (!close_enough(dc, fdc, 1e-6) || verbose) CHECK("dc", dc, fdc, 1e-6);
    if (bad) break;
  }
}

static void check_overlap(int n, int reps) {
  double a[N + 1], da[N + 1], out[N], dout[N];
  for (int i = 0; i <= n; i++) a[i] = cos(0.2 * i);
  for (int r = 0; r < reps; r++) {
    for (int i = 0; i <= n; i++) da[i] = 0;
    for (int i = 0; i < n; i++) dout[i] = 1.0 + 0.01 * i;
    __enzyme_autodiff((void *)overlap, enzyme_dup, a, da, enzyme_dup, a + 1, da + 1, enzyme_dup,
                      out, dout, enzyme_const, n);
    /* out[i] = a[i] a[i+1] + a[i+1] */
    int bad = 0;
    for (int k = 0; k <= n && bad < 3; k++) {
      double want = 0;
      if (k < n) want += (1.0 + 0.01 * k) * a[k + 1];
      if (k >= 1) want += (1.0 + 0.01 * (k - 1)) * (a[k - 1] + 1);
      if (!close_enough(da[k], want, 1e-12) || (r == 0 && k % 50 == 0)) {
        CHECK("da", da[k], want, 1e-12);
        if (!close_enough(da[k], want, 1e-12)) bad++;
      }
    }
    if (bad) break;
  }
}

int main(void) {
  check_stencil(N, 1, 1);
  check_stencil(9, 300, 0);
  check_stencil(14, 300, 0);
  check_overlap(N, 1);
  check_overlap(7, 500);
  CHECK_DONE();
}
