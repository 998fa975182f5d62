// Reverse mode (C++): static polymorphism (CRTP) and a non-virtual base
// class holding parameters, with protected members and inherited methods.
#include "check.h"
#include <cmath>
template <typename Derived> struct Kernel {
  double eval(double r) const { return static_cast<const Derived *>(this)->impl(r); }
  double sum(const double *r, int n) const {
    double s = 0;
    for (int i = 0; i < n; i++) s += eval(r[i]);
    return s;
  }
};
struct Scaled {
  double scale;

protected:
  double apply(double v) const { return scale * v; }
};
struct Gauss : Kernel<Gauss>, Scaled {
  double width;
  Gauss(double s, double w) : Scaled{s}, width(w) {}
  double impl(double r) const { return apply(std::exp(-r * r / (width * width))); }
};
struct Cubic : Kernel<Cubic>, Scaled {
  explicit Cubic(double s) : Scaled{s} {}
  double impl(double r) const { return apply(r * r * r); }
};
static double f(const double *r, double w, int n) {
  Gauss g(2.0, w);
  Cubic c(0.5);
  return g.sum(r, n) + c.sum(r, n);
}
extern int enzyme_dup, enzyme_out, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
int main() {
  const int n = 4;
  double r[n] = {0.2, -0.7, 1.1, 0.5}, dr[n] = {0};
  double w = 0.8;
  double dw = __enzyme_autodiff((void *)f, enzyme_dup, r, dr, enzyme_out, w, enzyme_const, n);
  double want = 0;
  for (int i = 0; i < n; i++) want += 2.0 * std::exp(-r[i] * r[i] / (w * w)) * 2 * r[i] * r[i] / (w * w * w);
  CHECK("dw analytic", dw, want, 1e-12);
  for (int i = 0; i < n; i++) CHECK("dr fd", dr[i], FD(r[i], f(r, w, n), 1e-6), 1e-6);
  CHECK_DONE();
}
