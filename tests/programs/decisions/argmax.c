// Running selections: max (logsumexp), min written with the kept value on
// the true side, and argmax picking a weight. Their reverse adds the
// carried adjoint only where the decision picked x[i] (decisions.rs guards
// that add with a branch); every gradient is checked analytically and
// against finite differences.
#include "../check.h"

static double lse(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  return m + log(s);
}

static double minv(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = (x[i] >= m) ? m : x[i];
  return m * m;
}

static double argmax_w(const double *x, const double *w, int n) {
  int k = 0;
  double best = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > best) {
      best = x[i];
      k = i;
    }
  return best * w[k] + x[n - 1];
}

static void init(double *x, int n, int seed) {
  for (int i = 0; i < n; i++) x[i] = sin(1.3 * i + seed) * 2.0 + 0.001 * i;
}

int main(void) {
  int sizes[] = {1, 2, 9, 64, 300};
  for (int si = 0; si < 5; si++) {
    int n = sizes[si];
    double x[300], w[300], dx[300] = {0}, dy[300] = {0}, dz[300] = {0};
    init(x, n, si);
    for (int i = 0; i < n; i++) w[i] = 1.0 + 0.1 * i;
    __enzyme_autodiff((void *)lse, enzyme_dup, x, dx, enzyme_const, n);
    __enzyme_autodiff((void *)minv, enzyme_dup, x, dy, enzyme_const, n);
    __enzyme_autodiff((void *)argmax_w, enzyme_dup, x, dz, enzyme_const, w, enzyme_const, n);
    double m = x[0], s = 0, mn = x[0];
    int k = 0, kmin = 0;
    for (int i = 1; i < n; i++) {
      if (x[i] > m) m = x[i], k = i;
      if (!(x[i] >= mn)) mn = x[i], kmin = i;
    }
    for (int i = 0; i < n; i++) s += exp(x[i] - m);
    char name[64];
    for (int i = 0; i < n; i++) {
      snprintf(name, sizeof name, "n=%d lse dx[%d]", n, i);
      CHECK(name, dx[i], exp(x[i] - m) / s, 1e-12);
      snprintf(name, sizeof name, "n=%d min dx[%d]", n, i);
      CHECK(name, dy[i], i == kmin ? 2.0 * mn : 0.0, 1e-12);
      snprintf(name, sizeof name, "n=%d argmax dx[%d]", n, i);
      CHECK(name, dz[i], (i == k ? w[k] : 0.0) + (i == n - 1 ? 1.0 : 0.0), 1e-12);
    }
    for (int i = 0; i < n; i += 7) {
      snprintf(name, sizeof name, "n=%d lse fd[%d]", n, i);
      CHECK(name, dx[i], FD(x[i], lse(x, n), 1e-6), 1e-6);
      snprintf(name, sizeof name, "n=%d min fd[%d]", n, i);
      CHECK(name, dy[i], FD(x[i], minv(x, n), 1e-6), 1e-6);
      snprintf(name, sizeof name, "n=%d argmax fd[%d]", n, i);
      CHECK(name, dz[i], FD(x[i], argmax_w(x, w, n), 1e-6), 1e-6);
    }
  }
  CHECK_DONE();
}
