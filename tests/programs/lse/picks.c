// A running selection's last pick recorded (modes/reverse/pickrec.rs):
// max/min loops keep the address of the element picked last, and the
// reverse adds the adjoint once to it. Checked against analytic values
// and central differences: max (`>`: the first of tied maxima), max with
// `>=` (the last of them), min, a float max selected by an integer key,
// an argmax whose value is used, an entry value that is never picked
// (-INFINITY start; n = 0), max and min in one loop, a float max, a
// running max used by other work in the loop (not recorded, still
// right), and logsumexp with the zeroed gradient buffer.
#include "check.h"
#include <math.h>
#include <string.h>

static double vmax(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  return 3.0 * m;
}
static double vmax_ge(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] >= m) m = x[i];
  return 3.0 * m;
}
static double vmin(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = x[i] < m ? x[i] : m;
  return m * m;
}
// The decision compares integer keys; the value picked is a float.
static double bykey(const double *x, const int *key, int n) {
  int best = key[0];
  double v = x[0];
  for (int i = 1; i < n; i++)
    if (key[i] > best) {
      best = key[i];
      v = x[i];
    }
  return 2.0 * v;
}
static double argmax_val(const double *x, int n) {
  double m = -INFINITY;
  int k = -1;
  for (int i = 0; i < n; i++)
    if (x[i] > m) {
      m = x[i];
      k = i;
    }
  return k < 0 ? 5.0 : m * (double)(k + 1);
}
static double range(const double *x, int n) {
  double lo = x[0], hi = x[0];
  for (int i = 1; i < n; i++) {
    if (x[i] < lo) lo = x[i];
    if (x[i] > hi) hi = x[i];
  }
  return hi - 2.0 * lo;
}
static float fmaxf_loop(const float *x, int n) {
  float m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  return m * m;
}
// The running max also feeds a sum in the loop: not recorded.
static double maxsum(const double *x, int n) {
  double m = x[0], s = 0;
  for (int i = 1; i < n; i++) {
    if (x[i] > m) m = x[i];
    s += m;
  }
  return s;
}
static double lse(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  return m + log(s);
}

#define N 9
#define GRAD1(f, x, g, n)                                      \
  do {                                                         \
    for (int i_ = 0; i_ < N; i_++) (g)[i_] = 0;                \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n); \
  } while (0)
__attribute__((noinline)) void grad_lse(const double *x, double *g, int n) {
  memset(g, 0, sizeof(double) * n);
  __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, n);
}

int main(void) {
  // Ties: 4.0 at 2 and 6; -3.0 at 1 and 7.
  double x[N] = {1.0, -3.0, 4.0, 0.5, 2.0, -1.0, 4.0, -3.0, 3.5};
  double g[N];
  GRAD1(vmax, x, g, N);
  for (int i = 0; i < N; i++) CHECK("max", g[i], i == 2 ? 3.0 : 0.0, 0);
  GRAD1(vmax_ge, x, g, N);
  for (int i = 0; i < N; i++) CHECK("max >=", g[i], i == 6 ? 3.0 : 0.0, 0);
  GRAD1(vmin, x, g, N);
  for (int i = 0; i < N; i++) CHECK("min", g[i], i == 1 ? -6.0 : 0.0, 0);
  GRAD1(vmax, x, g, 1);
  for (int i = 0; i < N; i++) CHECK("max n = 1", g[i], i == 0 ? 3.0 : 0.0, 0);
  int key[N] = {3, 1, 2, 9, 0, 9, 4, 8, 7};
  for (int i = 0; i < N; i++) g[i] = 0;
  __enzyme_autodiff((void *)bykey, enzyme_dup, x, g, enzyme_const, key, enzyme_const, N);
  for (int i = 0; i < N; i++) CHECK("by key", g[i], i == 3 ? 2.0 : 0.0, 0);
  GRAD1(argmax_val, x, g, N);
  for (int i = 0; i < N; i++) CHECK("argmax", g[i], i == 2 ? 3.0 : 0.0, 0);
  GRAD1(argmax_val, x, g, 0);
  for (int i = 0; i < N; i++) CHECK("argmax n = 0", g[i], 0.0, 0);
  GRAD1(range, x, g, N);
  for (int i = 0; i < N; i++) CHECK("range", g[i], i == 2 ? 1.0 : i == 1 ? -2.0 : 0.0, 0);
  double y[N] = {0.3, 1.7, -0.2, 2.9, 0.1, 3.3, 1.0, -4.0, 3.1};
  GRAD1(maxsum, y, g, N);
  for (int i = 0; i < N; i++) CHECK("maxsum fd", g[i], FD(y[i], maxsum(y, N), 1e-6), 1e-6);
  GRAD1(vmax, y, g, N);
  for (int i = 0; i < N; i++) CHECK("max fd", g[i], FD(y[i], vmax(y, N), 1e-6), 1e-6);
  GRAD1(vmin, y, g, N);
  for (int i = 0; i < N; i++) CHECK("min fd", g[i], FD(y[i], vmin(y, N), 1e-6), 1e-6);
  GRAD1(range, y, g, N);
  for (int i = 0; i < N; i++) CHECK("range fd", g[i], FD(y[i], range(y, N), 1e-6), 1e-6);
  float xf[N] = {1.0f, -3.0f, 4.0f, 0.5f, 2.0f, -1.0f, 4.5f, -3.0f, 3.5f}, gf[N] = {0};
  __enzyme_autodiff((void *)fmaxf_loop, enzyme_dup, xf, gf, enzyme_const, N);
  for (int i = 0; i < N; i++) CHECK("float max", gf[i], i == 6 ? 9.0 : 0.0, 0);
  grad_lse(y, g, N);
  double m = y[5], s = 0;
  for (int i = 0; i < N; i++) s += exp(y[i] - m);
  for (int i = 0; i < N; i++) {
    CHECK("lse", g[i], exp(y[i] - m) / s, 1e-12);
    CHECK("lse fd", g[i], FD(y[i], lse(y, N), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
