// A callee reads memory that its caller overwrites after the call returns
// (before the callee's reverse sweep runs): the callee's reverse must use
// the values it read, not re-read the overwritten memory. Cases: later in
// the caller, in the next loop iteration, by the caller's caller (through
// a middle function), and a global array.
#include "check.h"

__attribute__((noinline)) static double dot3(const double *a) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += a[i] * a[i] * a[i];
  return s;
}

// The caller overwrites a[1..] after reading it through dot3.
double later(double *a) {
  double r = dot3(a);
  for (int i = 1; i < 4; i++) a[i] = a[i] * 0.5 + a[i - 1];
  return r + dot3(a + 1);
}

// Each iteration reads then overwrites the window the next one reads.
double stepping(double *a, int n) {
  double r = 0;
  for (int k = 0; k + 3 <= n; k++) {
    r += dot3(a + k) * (k + 1);
    a[k + 1] = sin(a[k + 1]) + a[k];
  }
  return r;
}

// The middle function does not write; its caller does, after it returns.
__attribute__((noinline)) static double middle(const double *a) { return dot3(a) * 2 + a[0]; }
double outer(double *a) {
  double r = middle(a);
  a[0] = a[1] * a[2];
  a[2] = 3.0;
  return r + middle(a);
}

double g[4];
__attribute__((noinline)) static double gread(void) { return g[0] * g[1] * g[2] + g[3]; }
double globals(double *x) {
  for (int i = 0; i < 4; i++) g[i] = x[i];
  double r = gread();
  g[1] = g[2] * 4;
  return r * gread();
}

#define CHECK_GRAD(fn, ...)                                                  \
  do {                                                                     \
    double a0[6] = { 0.3, -0.7, 0.9, 0.4, 1.1, -0.2 }, a[6], da[6] = { 0 }; \
    for (int i = 0; i < 6; i++) a[i] = a0[i];                              \
    __enzyme_autodiff((void *)fn, enzyme_dup, a, da, ##__VA_ARGS__);        \
    for (int j = 0; j < 6; j++) {                                          \
      double h = 1e-6, p[6], m[6];                                         \
      for (int i = 0; i < 6; i++) p[i] = m[i] = a0[i];                     \
      p[j] += h; m[j] -= h;                                                \
      CHECK(#fn, da[j], (fn(p, ##__VA_ARGS__) - fn(m, ##__VA_ARGS__)) / (2 * h), 1e-6); \
    }                                                                      \
  } while (0)

static double stepping6(double *a) { return stepping(a, 6); }

int main(void) {
  CHECK_GRAD(later);
  CHECK_GRAD(stepping6);
  CHECK_GRAD(outer);
  CHECK_GRAD(globals);
  CHECK_DONE();
}
