// C++ in three files: a class hierarchy (shapes.cpp) evaluated by a
// function taking a std::vector (scene.cpp); reverse mode through the
// enzyme::autodiff API with a scalar and forward mode from C++.
#include <enzyme/enzyme.hpp>
#include "check.h"
double scene_area(double scale);
int main() {
  double s = 1.3;
  auto [ds] = enzyme::autodiff<enzyme::Reverse>(scene_area, enzyme::Active(s));
  CHECK("dscene fd", ds, FD(s, scene_area(s), 1e-6), 1e-6);
  double f = enzyme::autodiff<enzyme::Forward>(scene_area, enzyme::Duplicated(s, 1.0));
  CHECK("fwd = rev", f, ds, 1e-12);
  CHECK_DONE();
}
