// Reverse mode (C++): a virtual call whose target is only known at run time
// (through a base reference, in a function that is not inlined) is not
// supported: the plugin must say so clearly instead of crashing.
// LEVELS: O0 O2
// EXPECT-ERROR: an indirect call (through a function pointer whose target is unknown) has active arguments
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
  printf("%g\n", __enzyme_autodiff((void *)pick, x));
  return 0;
}
