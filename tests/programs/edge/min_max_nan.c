// fmin / fmax send the seed to the operand the result is: with a NaN
// operand the result is the other one (fmin(x, NaN) = x), so x's
// derivative is 1 there, not 0; before, fmin(x, NaN) sent it to the NaN
// operand, a derivative 0 for x where the result moves with x. At a tie
// fmax picks x and fmin y, as Enzyme's rules do. Forward, reverse and
// vector forward; the float versions; LLVM's maxnum from a vectorized loop
// (-O2 and above) over an array holding NaNs (missing data).
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include "returns.h"

double mn(double x, double y) { return fmin(x, y) * 3.0; }
double mx(double x, double y) { return fmax(x, y) * 3.0; }
float mnf(float x, float y) { return fminf(x, y) * 3.0f; }
// The largest of the non-NaN entries of v, times the scale.
double max_present(const double *v, int n) {
  double m = -INFINITY;
  for (int i = 0; i < n; i++) m = fmax(m, v[i]);
  return m;
}


// The derivatives of f at (x, y) in every mode against (wx, wy) (a macro:
// the function must be known where __enzyme_* is called).
#define BOTH(what, f, x, y, wx, wy)                                                   \
  do {                                                                                \
    char name[96];                                                                    \
    d2 r = __enzyme_autodiff_d2((void *)f, x, y);                                     \
    snprintf(name, sizeof name, "%s(%g, %g) rev dx", what, x, y);                     \
    CHECK(name, r.a, wx, 0);                                                          \
    snprintf(name, sizeof name, "%s(%g, %g) rev dy", what, x, y);                     \
    CHECK(name, r.b, wy, 0);                                                          \
    snprintf(name, sizeof name, "%s(%g, %g) fwd dx", what, x, y);                     \
    CHECK(name, __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0), wx, 0);                  \
    snprintf(name, sizeof name, "%s(%g, %g) fwd dy", what, x, y);                     \
    CHECK(name, __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0), wy, 0);                  \
    v2 v = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0); \
    snprintf(name, sizeof name, "%s(%g, %g) vfwd", what, x, y);                       \
    CHECK(name, v.d[0] == wx && v.d[1] == wy, 1, 0);                                  \
  } while (0)

int main(void) {
  BOTH("fmin", mn, 1.0, 2.0, 3.0, 0.0);
  BOTH("fmin", mn, 2.0, 1.0, 0.0, 3.0);
  BOTH("fmin", mn, 1.0, 1.0, 0.0, 3.0);
  BOTH("fmin", mn, 1.0, NAN, 3.0, 0.0);
  BOTH("fmin", mn, NAN, 1.0, 0.0, 3.0);
  BOTH("fmax", mx, 1.0, 2.0, 0.0, 3.0);
  BOTH("fmax", mx, 2.0, 1.0, 3.0, 0.0);
  BOTH("fmax", mx, 1.0, 1.0, 3.0, 0.0);
  BOTH("fmax", mx, 1.0, NAN, 3.0, 0.0);
  BOTH("fmax", mx, NAN, 1.0, 0.0, 3.0);
  f2 r = __enzyme_autodiff_f2((void *)mnf, 1.5f, NAN);
  CHECK("fminf(1.5, NaN) rev dx", r.a, 3.0, 0);
  CHECK("fminf(1.5, NaN) rev dy", r.b, 0.0, 0);

  double v[9] = {0.5, NAN, 2.5, -1.0, NAN, 2.25, 0.0, NAN, 1.0}, dv[9] = {0};
  CHECK("max_present", max_present(v, 9), 2.5, 0);
  __enzyme_autodiff((void *)max_present, enzyme_dup, v, dv, enzyme_const, 9);
  for (int i = 0; i < 9; i++) {
    char name[32];
    snprintf(name, sizeof name, "max_present dv[%d]", i);
    CHECK(name, dv[i], i == 2 ? 1.0 : 0.0, 0);
  }
  return check_failures != 0;
}
