// Derivatives at the points where a libm partial's formula is 0/0 or
// 0 x inf although the function is finite or flat there: sqrt and cbrt at
// 0 (partial 0 there, as Enzyme's sqrt), hypot at the origin, pow with base
// 0 (its exponent partial) or exponent 0 (its base partial), powi with
// n = 0. Before, each of these made a NaN that flowed into every derivative
// downstream, even a derivative with respect to another input whose own
// path is smooth (forward mode multiplies the inf partial by a zero
// tangent). Checked in forward, vector forward, reverse and second-order
// modes, double and float, against analytic values and central differences
// (which agree: each function below is flat or linear in the direction
// checked). Enzyme's Integration/ForwardMode/pow_zero.c asks the same of pow.
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include "returns.h"

double sqrt_plus(double x, double y) { return sqrt(x) + y; }
double norm2(double x, double y) { return sqrt(x * x + y * y) + 3.0 * y * y; }
double abs_by_sqrt(double x) { return sqrt(x * x); }
double cbrt_plus(double x, double y) { return cbrt(x) + 2.0 * y; }
double hyp(double x, double y) { return hypot(x, y) + x; }
double powd(double x, double y) { return pow(x, y); }
double pow_times(double x, double y, double z) { return pow(x, y) * z + z * z; }
float powfl(float x, float y) { return powf(x, y); }
float sqrtfl(float x, float y) { return sqrtf(x) * y + y; }
double powi0(double x) { return __builtin_powi(x, 0) + x; }
double powin(double x, int n) { return __builtin_powi(x, n); }


// First derivatives, used again below for second derivatives.
double d_norm2_x(double x, double y) { return __enzyme_fwddiff((void *)norm2, x, 1.0, y, 0.0); }
double g_abs(double x) { return __enzyme_autodiff((void *)abs_by_sqrt, x); }

int main(void) {
  const double t = 1e-12, h = 1e-6;
  double x = 0.0, y = 1.0, z = 2.0;

  // sqrt at 0: forward with a zero tangent for x, reverse, vector forward.
  CHECK("sqrt+y fwd dy", __enzyme_fwddiff((void *)sqrt_plus, 0.0, 0.0, 1.5, 1.0), 1.0, t);
  d2 r = __enzyme_autodiff_d2((void *)sqrt_plus, 0.0, 1.5);
  CHECK("sqrt+y rev dx", r.a, 0.0, t);
  CHECK("sqrt+y rev dy", r.b, 1.0, t);
  v2 v = __enzyme_fwddiff_v2((void *)sqrt_plus, enzyme_width, 2, 0.0, 1.0, 0.0, 1.5, 0.0, 1.0);
  CHECK("sqrt+y vfwd lane0", v.d[0], 0.0, t);
  CHECK("sqrt+y vfwd lane1", v.d[1], 1.0, t);

  // A norm at the origin plus a smooth term: the y derivative is that
  // term's (0 at y = 0), the x derivative 0 (a subgradient of |.|).
  x = 0.0, y = 0.0;
  r = __enzyme_autodiff_d2((void *)norm2, x, y);
  CHECK("norm rev dx", r.a, 0.0, t);
  CHECK("norm rev dy", r.b, 0.0, t);
  CHECK("norm fwd dx", d_norm2_x(x, y), 0.0, t);
  CHECK("norm fwd dy", __enzyme_fwddiff((void *)norm2, x, 0.0, y, 1.0), 0.0, t);
  y = 0.5;
  r = __enzyme_autodiff_d2((void *)norm2, x, y);
  CHECK("norm rev dy (0,.5)", r.b, 1.0 + 3.0, t);
  CHECK("norm rev dy FD", r.b, FD(y, norm2(x, y), h), 1e-6);
#ifndef __FAST_MATH__ // there sqrt(x * x) is folded to fabs(x), whose slope at +0 is 1
  CHECK("abs by sqrt rev", g_abs(0.0), 0.0, t);
  CHECK("abs by sqrt fwd", __enzyme_fwddiff((void *)abs_by_sqrt, 0.0, 1.0), 0.0, t);
#endif
  CHECK("abs by sqrt rev at 2", g_abs(2.0), 1.0, t);
  CHECK("abs by sqrt rev at -2", g_abs(-2.0), -1.0, t);
  // Second derivatives through the guarded points stay finite.
  CHECK("norm d2/dx2 away", __enzyme_fwddiff((void *)d_norm2_x, 0.6, 1.0, 0.8, 0.0),
        0.8 * 0.8, 1e-10);
  CHECK("abs by sqrt d2 at 0", __enzyme_fwddiff((void *)g_abs, 0.0, 1.0), 0.0, t);

  // cbrt at 0 (its formula out / 3x is 0/0 there).
  CHECK("cbrt+2y fwd dy", __enzyme_fwddiff((void *)cbrt_plus, 0.0, 0.0, 1.0, 1.0), 2.0, t);
  r = __enzyme_autodiff_d2((void *)cbrt_plus, 0.0, 1.0);
  CHECK("cbrt+2y rev dy", r.b, 2.0, t);
  CHECK("cbrt+2y rev dx", r.a, 0.0, t);
  x = 8.0;
  r = __enzyme_autodiff_d2((void *)cbrt_plus, x, 1.0);
  CHECK("cbrt rev dx at 8", r.a, 1.0 / 12.0, 1e-12);

  // hypot at the origin.
  r = __enzyme_autodiff_d2((void *)hyp, 0.0, 0.0);
  CHECK("hypot rev dx", r.a, 1.0, t);
  CHECK("hypot rev dy", r.b, 0.0, t);
  CHECK("hypot fwd dx", __enzyme_fwddiff((void *)hyp, 0.0, 1.0, 0.0, 0.0), 1.0, t);
  x = 3.0, y = 4.0;
  r = __enzyme_autodiff_d2((void *)hyp, x, y);
  CHECK("hypot rev dx (3,4)", r.a, 1.0 + 0.6, 1e-12);
  CHECK("hypot rev dy (3,4) FD", r.b, FD(y, hyp(x, y), h), 1e-6);

  // pow with base 0: exponent partial 0 (0^y = 0 for y > 0).
  CHECK("pow(0,1) fwd dx", __enzyme_fwddiff((void *)powd, 0.0, 1.0, 1.0, 0.0), 1.0, t);
  CHECK("pow(0,1) fwd dy", __enzyme_fwddiff((void *)powd, 0.0, 0.0, 1.0, 1.0), 0.0, t);
  CHECK("pow(0,2) fwd dx", __enzyme_fwddiff((void *)powd, 0.0, 1.0, 2.0, 0.0), 0.0, t);
  r = __enzyme_autodiff_d2((void *)powd, 0.0, 1.0);
  CHECK("pow(0,1) rev dx", r.a, 1.0, t);
  CHECK("pow(0,1) rev dy", r.b, 0.0, t);
  x = 0.0, y = 2.5;
  r = __enzyme_autodiff_d2((void *)powd, x, y);
  CHECK("pow(0,2.5) rev dy FD", r.b, FD(y, powd(x, y), h), 1e-9);
  // pow with exponent 0: base partial 0 (x^0 = 1), even at x = 0.
  r = __enzyme_autodiff_d2((void *)powd, 0.0, 0.0);
  CHECK("pow(0,0) rev dx", r.a, 0.0, t);
  CHECK("pow(0,0) fwd dx", __enzyme_fwddiff((void *)powd, 0.0, 1.0, 0.0, 0.0), 0.0, t);
  x = 2.0, y = 0.0;
  r = __enzyme_autodiff_d2((void *)powd, x, y);
  CHECK("pow(2,0) rev dx", r.a, 0.0, t);
  CHECK("pow(2,0) rev dy", r.b, log(2.0), 1e-12);
  // Away from the guarded points, the usual partials.
  x = 1.7, y = 2.3, z = 0.4;
  d3 r3 = __enzyme_autodiff_d3((void *)pow_times, x, y, z);
  CHECK("pow*z rev dx", r3.a, FD(x, pow_times(x, y, z), h), 1e-6);
  CHECK("pow*z rev dy", r3.b, FD(y, pow_times(x, y, z), h), 1e-6);
  CHECK("pow*z rev dz", r3.c, FD(z, pow_times(x, y, z), h), 1e-6);
  // A zero adjoint of pow's result (z = 0) at base 0 leaves the others finite.
  r3 = __enzyme_autodiff_d3((void *)pow_times, 0.0, 1.0, 0.0);
  CHECK("pow*z at (0,1,0) dx", r3.a, 0.0, t);
  CHECK("pow*z at (0,1,0) dy", r3.b, 0.0, t);
  CHECK("pow*z at (0,1,0) dz", r3.c, 0.0, t);

  // float versions.
  CHECK("powf(0,1) fwd dx", __enzyme_fwddiff_f((void *)powfl, 0.0f, 1.0f, 1.0f, 0.0f), 1.0, 1e-7);
  CHECK("powf(0,1) fwd dy", __enzyme_fwddiff_f((void *)powfl, 0.0f, 0.0f, 1.0f, 1.0f), 0.0, 1e-7);
  f2 rf = __enzyme_autodiff_f2((void *)sqrtfl, 0.0f, 2.0f);
  CHECK("sqrtf*y+y rev dx", rf.a, 0.0, 1e-7);
  CHECK("sqrtf*y+y rev dy", rf.b, 1.0, 1e-7);

  // powi with n = 0, and the usual n.
  CHECK("powi(x,0)+x rev at 0", __enzyme_autodiff((void *)powi0, 0.0), 1.0, t);
  CHECK("powi(x,0)+x fwd at 0", __enzyme_fwddiff((void *)powi0, 0.0, 1.0), 1.0, t);
  CHECK("powi(x,3) rev at 2", __enzyme_autodiff((void *)powin, 2.0, enzyme_const, 3), 12.0, 1e-12);
  CHECK("powi(x,0) rev at 0", __enzyme_autodiff((void *)powin, 0.0, enzyme_const, 0), 0.0, t);
  return check_failures != 0;
}
