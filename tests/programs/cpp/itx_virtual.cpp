// Reverse mode (C++): classes with virtual methods called on objects whose
// dynamic type is known inside the differentiated function, and through a
// base reference passed to a helper.
#include "check.h"
#include <cmath>
double __enzyme_autodiff(void *, double, double);
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
__attribute__((noinline)) static double area_of(const Shape &sh, double s) { return sh.area(s); }
static double total(double a, double b) {
  Square sq;
  Circle c(0.5);
  return sq.area(a) + c.area(b) * a + area_of(sq, b);
}
int main() {
  double a = 1.2, b = 0.3;
  double da = __enzyme_autodiff((void *)total, a, b);
  double want = 2 * a + M_PI * (0.5 + b) * (0.5 + b);
  CHECK("da analytic", da, want, 1e-12);
  CHECK("da fd", da, FD(a, total(a, b), 1e-6), 1e-6);
  CHECK_DONE();
}
