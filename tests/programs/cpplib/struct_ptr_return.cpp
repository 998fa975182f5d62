// Reverse and forward mode (C++): pointers returned inside structs (a
// noinline function returning {double *, int} in registers, a std::pair of
// pointers, and a span-like view struct), so the caller takes the pointer
// out with extractvalue.
#include "check.h"
#include <cmath>
#include <utility>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
struct View {
  double *p;
  long n;
};
__attribute__((noinline)) static View tail(double *x, long n, long k) { return View{x + k, n - k}; }
__attribute__((noinline)) static std::pair<const double *, const double *> ends(const double *x,
                                                                                 long n) {
  return {x, x + n - 1};
}
__attribute__((noinline)) static View scale(View v, double c) {
  for (long i = 0; i < v.n; i++) v.p[i] *= c;
  return v;
}
static double f(double *x, long n) {
  View t = tail(x, n, 1);
  View s = scale(t, 0.5);
  double r = 0;
  for (long i = 0; i < s.n; i++) r += s.p[i] * s.p[i];
  auto e = ends(x, n);
  return r + std::sin(*e.first) * *e.second;
}
static double g(const double *x0, long n) {
  double x[8];
  for (long i = 0; i < n; i++) x[i] = x0[i];
  return f(x, n);
}
int main() {
  const long n = 5;
  double x0[n] = {0.5, 1.2, -0.7, 0.3, 2.0};
  double x[n], dx[n] = {0};
  for (long i = 0; i < n; i++) x[i] = x0[i];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  double xs[n];
  for (long i = 0; i < n; i++) xs[i] = x0[i];
  for (long i = 0; i < n; i++) {
    CHECK("dx fd", dx[i], FD(xs[i], g(xs, n), 1e-6), 1e-6);
    double y[n], ty[n] = {0};
    for (long j = 0; j < n; j++) y[j] = x0[j];
    ty[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, y, ty, enzyme_const, n);
    CHECK("fwd vs rev", t, dx[i], 1e-12);
  }
  CHECK_DONE();
}
