// Enzyme's C++ interface through <enzyme/enzyme>: Reverse and
// ReverseWithPrimal (tuple of the derivatives' tuple, then the primal),
// Forward (the tangent) and ForwardWithPrimal / a Duplicated return
// (primal and tangent), Active / Duplicated (pointer and reference) /
// DuplicatedNoNeed / Const arguments, enzyme::get, a lambda, a Const
// return, checked against analytic values and central differences.
// FLAGS: -std=c++17
#include <enzyme/enzyme>
#include <cmath>
#include "check.h"

static double f(double x, double y) { return std::sin(x) * y + x * x; }
static double norm2(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  return s;
}
static void scale(double &out, double x) { out = 3 * x * x; }
static double cube(double &x) { return x * x * x; }

struct two {
  double a, b;
};
__attribute__((noinline)) double mul2(double a, double b) { return a * b; }

// Writes out[k] = in[k]^2 and returns their sum.
__attribute__((noinline)) double scale_into(double *in, double *out) {
  out[0] = in[0] * in[0];
  out[1] = in[1] * in[1];
  return out[0] + out[1];
}

int main() {
  double x = 0.7, y = -1.3;
  // Reverse: tuple<tuple<dx, dy>>
  auto r = enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active(x), enzyme::Active(y));
  CHECK("reverse dx", enzyme::get<0>(enzyme::get<0>(r)), std::cos(x) * y + 2 * x, 1e-12);
  CHECK("reverse dy", enzyme::get<1>(enzyme::get<0>(r)), std::sin(x), 1e-12);
  CHECK("reverse dx fd", enzyme::get<0>(enzyme::get<0>(r)), FD(x, f(x, y), 1e-6), 1e-6);
  // Structured bindings work on the results.
  auto [ds] = enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active(x), enzyme::Const(y));
  CHECK("reverse const y", std::get<0>(ds), std::cos(x) * y + 2 * x, 1e-12);
  // ReverseWithPrimal: tuple<tuple<d...>, primal>
  auto rp = enzyme::autodiff<enzyme::ReverseWithPrimal>(f, enzyme::Active(x), enzyme::Const(y));
  CHECK("with primal: d", enzyme::get<0>(enzyme::get<0>(rp)), std::cos(x) * y + 2 * x, 1e-12);
  CHECK("with primal: value", enzyme::get<1>(rp), f(x, y), 1e-15);
  // Duplicated pointer, Const integer.
  double v[3] = {1, -2, 0.5}, dv[3] = {0, 0, 0};
  enzyme::autodiff<enzyme::Reverse>(norm2, enzyme::Duplicated<double *>(v, dv), enzyme::Const(3));
  for (int i = 0; i < 3; i++) CHECK("norm2 grad", dv[i], 2 * v[i], 1e-12);
  // Duplicated reference (passed as a pointer), void function.
  double out = 0, dout = 1, dx = 0;
  auto rv = enzyme::autodiff<enzyme::Reverse>(scale, enzyme::Duplicated<double &>(out, dout), enzyme::Active(x));
  CHECK("void fn, active x", enzyme::get<0>(enzyme::get<0>(rv)), 6 * x, 1e-12);
  CHECK("out written", out, 3 * x * x, 1e-15);
  (void)dx;
  // Reference argument through Duplicated<double &>: d cube / dx accumulates into the shadow.
  double c = 1.5, dc = 0;
  enzyme::autodiff<enzyme::Reverse>(cube, enzyme::Duplicated<double &>(c, dc));
  CHECK("cube by reference", dc, 3 * c * c, 1e-12);
  // A Const return: nothing flows from the result.
  double w[2] = {1, 2}, dw[2] = {0, 0};
  enzyme::autodiff<enzyme::Reverse, enzyme::Const<double>>(norm2, enzyme::Duplicated<double *>(w, dw),
                                                           enzyme::Const(2));
  CHECK("const return", dw[0] + dw[1], 0, 0);
  // Forward: tuple<tangent>
  auto t = enzyme::autodiff<enzyme::Forward>(f, enzyme::Duplicated(x, 1.0), enzyme::Const(y));
  CHECK("forward", enzyme::get<0>(t), std::cos(x) * y + 2 * x, 1e-12);
  // ForwardWithPrimal and a Duplicated return: tuple<primal, tangent>
  auto tp = enzyme::autodiff<enzyme::ForwardWithPrimal>(f, enzyme::Const(x), enzyme::Duplicated(y, 1.0));
  CHECK("forward with primal: value", enzyme::get<0>(tp), f(x, y), 1e-15);
  CHECK("forward with primal: tangent", enzyme::get<1>(tp), std::sin(x), 1e-12);
  auto td = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(f, enzyme::Duplicated(x, 2.0),
                                                                          enzyme::Duplicated(y, 1.0));
  CHECK("duplicated return: tangent", enzyme::get<1>(td), 2 * (std::cos(x) * y + 2 * x) + std::sin(x), 1e-12);
  CHECK("duplicated return fd", enzyme::get<1>(td),
        (f(x + 2e-6, y + 1e-6) - f(x - 2e-6, y - 1e-6)) / 2e-6, 1e-6);
  // Forward with a Const return: the primal comes back, the tangents go
  // to the Duplicated arguments' shadows (scale_into writes out).
  double in[2] = {1.5, -2.0}, din[2] = {1.0, 0.5}, so[2] = {0, 0}, dso[2] = {0, 0};
  auto tc = enzyme::autodiff<enzyme::Forward, enzyme::Const<double>>(
      scale_into, enzyme::Duplicated<double *>(in, din), enzyme::Duplicated<double *>(so, dso));
  CHECK("forward, const return: primal", enzyme::get<0>(tc), scale_into(in, so), 1e-15);
  CHECK("forward, const return: tangent of out[0]", dso[0], 2 * in[0] * din[0], 1e-12);
  CHECK("forward, const return: tangent of out[1]", dso[1], 2 * in[1] * din[1], 1e-12);
  // Enzyme's template spelling of the entry point, the result type given
  // (a type with linkage: declared at namespace scope).
  auto [za, zb] = __enzyme_autodiff<two>((void *)mul2, enzyme_out, 3.1, enzyme_out, 2.7);
  CHECK("__enzyme_autodiff<R>: d/da", za, 2.7, 1e-12);
  CHECK("__enzyme_autodiff<R>: d/db", zb, 3.1, 1e-12);
  CHECK("__enzyme_fwddiff<R>", __enzyme_fwddiff<double>((void *)mul2, 3.1, 1.0, 2.7, 0.0), 2.7, 1e-12);
  // A lambda (its captures are constant).
  double k = 2.5;
  auto g = [k](double z) { return k * std::exp(z); };
  auto rl = enzyme::autodiff<enzyme::Reverse>(g, enzyme::Active(0.3));
  CHECK("lambda", enzyme::get<0>(enzyme::get<0>(rl)), k * std::exp(0.3), 1e-12);
  CHECK_DONE();
}
