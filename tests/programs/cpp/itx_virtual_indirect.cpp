// Reverse mode (C++): a virtual call whose target is only known at run time
// (through a base reference, in a function that is not inlined) goes
// through the dispatcher over the address-taken functions of its type.
#include "check.h"
double __enzyme_autodiff(void *, double);
struct Shape {
  virtual ~Shape() {}
  virtual double area(double s) const = 0;
};
struct Square : Shape {
  double area(double s) const override { return s * s; }
};
struct Disk : Shape {
  double area(double s) const override { return M_PI * s * s; }
};
__attribute__((noinline)) static double area_of(const Shape &sh, double s) { return sh.area(s); }
static double pick(double s) {
  Square q;
  Disk d;
  return area_of(s > 0 ? (const Shape &)q : (const Shape &)d, s);
}
int main() {
  double x = 0.5;
  CHECK("square", __enzyme_autodiff((void *)pick, x), 2 * x, 1e-12);
  x = -0.5;
  CHECK("disk", __enzyme_autodiff((void *)pick, x), 2 * M_PI * x, 1e-12);
  CHECK_DONE();
}
