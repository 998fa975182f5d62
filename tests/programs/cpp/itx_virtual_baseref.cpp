// Reverse mode (C++): a virtual method called through a base reference in a
// helper that is inlined: at -O1 and above LLVM resolves the call (the
// object's vtable is known), so the derivative sees direct calls; at -O0
// the call stays indirect and goes through the dispatcher.
#include "check.h"
#include <cmath>
struct Grad2 {
  double da, db;
};
Grad2 __enzyme_autodiff(void *, double, double);
struct Shape {
  virtual ~Shape() {}
  virtual double area(double s) const = 0;
};
struct Square : Shape {
  double area(double s) const override { return s * s; }
};
struct Circle : Shape {
  double r0;
  explicit Circle(double r) : r0(r) {}
  double area(double s) const override { return M_PI * (r0 + s) * (r0 + s); }
};
static inline double area_of(const Shape &sh, double s) { return sh.area(s); }
static double total(double a, double b) {
  Square sq;
  Circle c(0.5);
  return sq.area(a) + c.area(b) * a + area_of(sq, b);
}
int main() {
  double a = 1.2, b = 0.3;
  Grad2 g = __enzyme_autodiff((void *)total, a, b);
  double da = g.da;
  double want = 2 * a + M_PI * (0.5 + b) * (0.5 + b);
  double db = M_PI * 2 * (0.5 + b) * a + 2 * b;
  CHECK("da analytic", da, want, 1e-12);
  CHECK("da fd", da, FD(a, total(a, b), 1e-6), 1e-6);
  CHECK("db analytic", g.db, db, 1e-12);
  CHECK("db fd", g.db, FD(b, total(a, b), 1e-6), 1e-6);
  CHECK_DONE();
}
