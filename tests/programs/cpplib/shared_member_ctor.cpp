// A member helper's constructor (an Eigen `variable_if_dynamic`) is given
// pointers into two different structs: after it, one holds a pointer and
// the other a double. The views holding the pointer are copied by a
// non-trivial copy constructor (a memcpy between its two parameters, at
// -O0) into an object that holds them by value, then read through. The
// copy must take the shadow pointer along: type analysis must not let the
// other struct's double reach the pointer field through the shared
// constructor's parameter.
#include "check.h"
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
struct Dim {
  long v;
  Dim(long x) : v(x) {}
};
struct Weighted {
  Dim n;
  double w;
  Weighted(long k, double w_) : n(k), w(w_) {}
};
struct View {
  Dim r;
  const double *p;
  View(const double *p_, long r_) : r(r_), p(p_) {}
};
struct Tag {
  Tag() {}
  Tag(const Tag &) {}
};
struct MyMap : View {
  Tag t;
  MyMap(const double *p_, long r_) : View(p_, r_) {}
};
struct Prod {
  MyMap a, b;
  Prod(const MyMap &a_, const MyMap &b_) : a(a_), b(b_) {}
};
__attribute__((noinline)) static double dot(const Prod &q, const Weighted &s) {
  double t = 0;
  for (long i = 0; i < q.a.r.v; i++)
    t += q.a.p[i] * q.b.p[i] * q.a.p[i];
  return s.w * t;
}
static double f(const double *x, const double *y, int n) {
  Weighted s(n, 2.0);
  MyMap A(x, n), B(y, n);
  Prod q(A, B);
  return dot(q, s);
}
int main() {
  const int n = 5;
  double x[n], y[n], dx[n] = {0}, dy[n] = {0};
  for (int i = 0; i < n; i++) {
    x[i] = 0.5 + i;
    y[i] = 1.0 - 0.25 * i;
  }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    CHECK("dx", dx[i], 4 * x[i] * y[i], 1e-12);
    CHECK("dy", dy[i], 2 * x[i] * x[i], 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], f(x, y, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
