// The C++ header: enzyme::autodiff<Reverse / ReverseWithPrimal / Forward /
// ForwardWithPrimal> with plain functions, a lambda and a function object;
// Active, Duplicated (pointers and forward scalars) and Const arguments.
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include <enzyme/enzyme.hpp>

static double fd2(double (*g)(double, double), double x, double y, int wrt) {
  double h = 1e-6;
  return wrt == 0 ? (g(x + h, y) - g(x - h, y)) / (2 * h) : (g(x, y + h) - g(x, y - h)) / (2 * h);
}

double f(double x, double y) { return sin(x) * y * y + exp(x * y); }

double dot_scaled(const double *a, double s, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) r += a[i] * a[i] * s;
  return r;
}

struct Poly {
  double c0, c1, c2;
  double operator()(double x) const { return c0 + x * (c1 + x * c2) + sin(c2 * x); }
};

int main() {
  double x = 0.6, y = -1.2;
  // Reverse: two active scalars.
  auto [dx, dy] = enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active(x), enzyme::Active(y));
  CHECK("rev dx", dx, fd2(f, x, y, 0), 1e-6);
  CHECK("rev dy", dy, fd2(f, x, y, 1), 1e-6);
  // Reverse: duplicated pointer, active scalar, const int.
  double a[3] = {0.5, -1.0, 2.0}, da[3] = {0, 0, 0};
  double s = 1.5;
  auto [ds] = enzyme::autodiff<enzyme::Reverse>(dot_scaled, enzyme::Duplicated<const double *>(a, da),
                                                 enzyme::Active(s), enzyme::Const(3));
  CHECK("rev ds", ds, FD(s, dot_scaled(a, s, 3), 1e-6), 1e-6);
  for (int i = 0; i < 3; i++) CHECK("rev da", da[i], FD(a[i], dot_scaled(a, s, 3), 1e-6), 1e-6);
  // Reverse with the primal.
  auto [val, grads] = enzyme::autodiff<enzyme::ReverseWithPrimal>(f, enzyme::Active(x), enzyme::Const(y));
  CHECK("primal", val, f(x, y), 1e-12);
  CHECK("rev+primal dx", std::get<0>(grads), fd2(f, x, y, 0), 1e-6);
  // Forward: scalar tangents.
  double t = enzyme::autodiff<enzyme::Forward>(f, enzyme::Duplicated(x, 1.0), enzyme::Duplicated(y, 0.5));
  CHECK("fwd", t, fd2(f, x, y, 0) + 0.5 * fd2(f, x, y, 1), 1e-6);
  auto [pv, pt] = enzyme::autodiff<enzyme::ForwardWithPrimal>(f, enzyme::Duplicated(x, 0.0), enzyme::Duplicated(y, 1.0));
  CHECK("fwd primal", pv, f(x, y), 1e-12);
  CHECK("fwd+primal", pt, fd2(f, x, y, 1), 1e-6);
  // Forward: pointer shadow.
  double ta[3] = {1, 0, 0};
  double tp = enzyme::autodiff<enzyme::Forward>(dot_scaled, enzyme::Duplicated<const double *>(a, ta),
                                                enzyme::Const(s), enzyme::Const(3));
  CHECK("fwd ptr", tp, FD(a[0], dot_scaled(a, s, 3), 1e-6), 1e-6);
  // A lambda (captures are constant) and a function object.
  double k = 3.0;
  auto lam = [&k](double u, double v) { return k * u * u * v + cos(v); };
  auto [lu, lv] = enzyme::autodiff<enzyme::Reverse>(lam, enzyme::Active(x), enzyme::Active(y));
  CHECK("lambda du", lu, FD(x, lam(x, y), 1e-6), 1e-6);
  CHECK("lambda dv", lv, FD(y, lam(x, y), 1e-6), 1e-6);
  double lt = enzyme::autodiff<enzyme::Forward>(lam, enzyme::Duplicated(x, 1.0), enzyme::Const(y));
  CHECK("lambda fwd", lt, FD(x, lam(x, y), 1e-6), 1e-6);
  Poly p{1.0, -2.0, 0.5};
  auto [pd] = enzyme::autodiff<enzyme::Reverse>(p, enzyme::Active(x));
  CHECK("functor rev", pd, FD(x, p(x), 1e-6), 1e-6);
  double pf = enzyme::autodiff<enzyme::Forward>(p, enzyme::Duplicated(x, 1.0));
  CHECK("functor fwd", pf, FD(x, p(x), 1e-6), 1e-6);
  CHECK_DONE();
}
