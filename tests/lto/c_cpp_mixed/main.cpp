// C and C++ mixed: the C++ main differentiates (enzyme::autodiff API) a C
// function (cfun.c) that calls back into a C++ function with extern "C"
// linkage (poly.cpp, a template instantiated there).
#include <enzyme/enzyme.hpp>
#include "check.h"
extern "C" double cfun(double x, double y);
int main() {
  double x = 0.4, y = 1.5;
  auto [dx, dy] = enzyme::autodiff<enzyme::Reverse>(cfun, enzyme::Active(x), enzyme::Active(y));
  CHECK("dx fd", dx, FD(x, cfun(x, y), 1e-6), 1e-6);
  CHECK("dy fd", dy, FD(y, cfun(x, y), 1e-6), 1e-6);
  double t = enzyme::autodiff<enzyme::Forward>(cfun, enzyme::Duplicated(x, 1.0), enzyme::Duplicated(y, 0.0));
  CHECK("fwd dx", t, dx, 1e-12);
  CHECK_DONE();
}
