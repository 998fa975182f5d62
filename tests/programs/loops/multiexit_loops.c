/* Loops with several exits (their reverse has several entries, joined in
 * one landing block, modes/reverse/rev/loops.rs; ENZYME_RS_ONE_LOOP_ENTRY=0
 * turns that off): every gradient is checked against
 * central finite differences. The exits depend on the data; the inputs
 * keep every comparison away from its threshold by far more than the
 * step, so the control flow does not change under the differences.
 *
 * - andcond:  while (i < n && x[i] < c): two exits (the counter, the data).
 * - brk:      for loop with a data-dependent break in the middle of its
 *             body (work before and after the break point).
 * - ret:      an early return inside the loop.
 * - three:    three exits: the loop condition and two breaks.
 * - nested:   an inner loop with two exits (insertion sort whose shifts
 *             scale the values: arithmetic, not a move region) inside an
 *             outer loop with a break.
 * - inner_ret: a return from inside an inner loop (its reverse enters
 *             both loops' reverses at once), the inner loop with a
 *             second, data-dependent exit.
 * - stop_at:  the exit choice decides the iteration the reverse starts
 *             in: the same loop stopped at different points. */
#include "../check.h"

enum { N = 12 };

__attribute__((noinline)) static double andcond(const double *x, int n) {
  double s = 0.5;
  int i = 0;
  while (i < n && x[i] < 2.0) {
    s = s * x[i] + sin(x[i]);
    i++;
  }
  return s * s + x[0];
}

__attribute__((noinline)) static double brk(const double *x, int n) {
  double s = 1.0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i] * 0.3;
    if (s > 3.0)
      break;
    s *= 1.0 + 0.1 * x[i];
  }
  return s * x[1];
}

__attribute__((noinline)) static double ret(const double *x, int n) {
  double s = 0.25;
  for (int i = 0; i < n; i++) {
    double t = s * x[i] + cos(x[i]);
    if (t > 2.5)
      return t * x[0] + s;
    s = t;
  }
  return s * s;
}

__attribute__((noinline)) static double three(const double *x, int n) {
  double s = 0.0, p = 1.0;
  int i = 0;
  for (; i < n; i++) {
    if (x[i] > 2.0)
      break;
    s += p * x[i];
    if (s > 2.2)
      break;
    p *= 0.9 + 0.05 * x[i];
  }
  return s * p + (double)i * x[2];
}

__attribute__((noinline)) static double nested(const double *x, int n) {
  double v[N];
  for (int i = 0; i < n; i++)
    v[i] = x[i];
  double acc = 0.0;
  for (int i = 1; i < n; i++) {
    double key = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > key) {
      v[j + 1] = 0.9 * v[j] + 0.05 * key;
      j--;
    }
    v[j + 1] = key;
    acc += v[i] * v[i - 1];
    if (acc > 40.0)
      break;
  }
  double f = acc;
  for (int i = 0; i < n; i++)
    f += (i + 1) * v[i];
  return f;
}

__attribute__((noinline)) static double inner_ret(const double *x, int n) {
  double s = 0.1;
  for (int i = 0; i < n; i++) {
    int j = 0;
    while (j < 3 && x[(i + j) % n] > 0.2) {
      s = s * 0.8 + x[(i + j) % n] * x[i];
      if (s > 6.0)
        return s * x[3];
      j++;
    }
    s += 0.5 * x[i];
  }
  return s;
}

__attribute__((noinline)) static double stop_at(const double *x, int n, double lim) {
  double s = 0.0;
  int i = 0;
  while (i < n && s < lim) {
    s += x[i] * x[i] + 0.1 * s * x[i];
    i++;
  }
  return s;
}

/* The gradient of f at x (the derivative is named at each use: a function
 * pointer only known at run time cannot be differentiated). */
#define CHECK_GRAD(name, f, x, n)                                               \
  do {                                                                          \
    double gr_[N] = {0};                                                        \
    __enzyme_autodiff((void *)f, enzyme_dup, x, gr_, enzyme_const, n);          \
    char label_[64];                                                            \
    for (int k_ = 0; k_ < n; k_++) {                                            \
      snprintf(label_, sizeof label_, "%s d[%d]", name, k_);                    \
      CHECK(label_, gr_[k_], FD(x[k_], f(x, n), 1e-6), 1e-6);                    \
    }                                                                           \
  } while (0)

static double stop_at_3(const double *x, int n) { return stop_at(x, n, 3.0); }
static double stop_at_9(const double *x, int n) { return stop_at(x, n, 9.0); }
static double stop_at_99(const double *x, int n) { return stop_at(x, n, 99.0); }

int main(void) {
  /* Values away from the thresholds: the loops stop at different points
   * for each input set. */
  double sets[3][N] = {
      {0.3, 0.7, 1.1, 0.45, 1.6, 2.9, 0.8, 1.3, 0.25, 0.6, 1.9, 0.35},
      {1.2, 0.4, 0.9, 1.7, 0.55, 0.65, 1.45, 2.6, 0.3, 1.05, 0.75, 1.15},
      {0.15, 0.35, 0.5, 0.62, 0.81, 0.27, 0.44, 0.93, 0.58, 0.21, 0.72, 0.38},
  };
  for (int s = 0; s < 3; s++) {
    double *x = sets[s];
    char name[32];
#define RUN(f)                                                                  \
  do {                                                                          \
    snprintf(name, sizeof name, "%s[%d]", #f, s);                               \
    CHECK_GRAD(name, f, x, N);                                            \
  } while (0)
    RUN(andcond);
    RUN(brk);
    RUN(ret);
    RUN(three);
    RUN(nested);
    RUN(inner_ret);
    RUN(stop_at_3);
    RUN(stop_at_9);
    RUN(stop_at_99);
  }
  CHECK_DONE();
}
