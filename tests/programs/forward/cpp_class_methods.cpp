// C++: member functions, references, operator overloading, a static
// wrapper differentiated with the C interface from our header.
#include "check.h"
struct Dual2 {
  double a, b;
  Dual2 operator*(const Dual2 &o) const { return {a * o.a, b * o.b + a}; }
  Dual2 &operator+=(const Dual2 &o) { a += o.a; b += o.b; return *this; }
  double norm() const { return std::sqrt(a * a + b * b); }
};
static double run(double x, double y) {
  Dual2 p{x, y};
  Dual2 q = p * p;
  q += Dual2{y, x};
  return q.norm();
}
static void scale(double &v, double k) { v *= k; }
static double with_ref(double x) { double v = x * x; scale(v, x); return v; }
int main() {
  double x = 0.7, y = 1.3;
  double dx = __enzyme_fwddiff((void *)run, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)run, x, 0.0, y, 1.0);
  CHECK("dx fd", dx, FD(x, run(x, y), 1e-6), 1e-6);
  CHECK("dy fd", dy, FD(y, run(x, y), 1e-6), 1e-6);
  double A = x * x + y, B = y * y + x + x, n = std::sqrt(A * A + B * B);
  CHECK("dx", dx, (A * 2 * x + B * 2) / n, 1e-12);
  CHECK("dy", dy, (A * 1 + B * 2 * y) / n, 1e-12);
  double dr = __enzyme_fwddiff((void *)with_ref, x, 1.0);
  CHECK("ref", dr, 3 * x * x, 1e-12);
  CHECK_DONE();
}
