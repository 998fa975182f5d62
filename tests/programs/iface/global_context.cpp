// Shadows of globals through the C++ interface (<enzyme/enzyme>):
// enzyme::context() makes a set of shadows, enzyme::shadow(ctx, g) is the
// shadow of a global (or a static member) in it, and
// enzyme::autodiff<Mode>(ctx, f, ...) differentiates with those shadows.
#include "check.h"
#include <enzyme/enzyme>
double scale = 2.0;
struct Params {
  static double offset;
};
double Params::offset = 1.0;
double f(double x) { return scale * x * x + Params::offset * x; }
int main() {
  auto ctx = enzyme::context();
  double *ds = enzyme::shadow(ctx, scale);
  double *doff = enzyme::shadow(ctx, Params::offset);
  *ds = 0.0;
  *doff = 0.0;
  auto res = enzyme::autodiff<enzyme::Reverse>(ctx, f, enzyme::Active(3.0));
  CHECK("dx", enzyme::get<0>(enzyme::get<0>(res)), 2 * 2.0 * 3.0 + 1.0, 1e-12);
  CHECK("dscale", *ds, 9.0, 1e-12);
  CHECK("doffset", *doff, 3.0, 1e-12);
  // Forward mode reads the tangents seeded in the context.
  *ds = 1.0;
  *doff = 0.0;
  auto t = enzyme::autodiff<enzyme::Forward>(ctx, f, enzyme::Duplicated<double>(3.0, 0.0));
  CHECK("tangent", enzyme::get<0>(t), 9.0, 1e-12);
  // Another context: its own shadows, zero at first; the first context's
  // shadows are untouched.
  auto other = enzyme::context();
  auto res2 = enzyme::autodiff<enzyme::Reverse>(other, f, enzyme::Active(3.0));
  CHECK("dx again", enzyme::get<0>(enzyme::get<0>(res2)), 13.0, 1e-12);
  CHECK("other dscale", *enzyme::shadow(other, scale), 9.0, 1e-12);
  CHECK("first kept", *ds, 1.0, 0);
  enzyme::zero_shadows(other);
  CHECK("zeroed", *enzyme::shadow(other, scale), 0.0, 0);
  CHECK_DONE();
}
