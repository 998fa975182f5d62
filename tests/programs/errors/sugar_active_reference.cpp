// LEVELS: O0
// EXPECT-ERROR: an active argument is a value
// <enzyme/enzyme>: enzyme::Active of a reference is refused by the header
// when the program is compiled (as in Enzyme), with the user's line in the
// instantiation notes, not by the plugin after optimization.
#include "check.h"
#include <enzyme/enzyme>
static double square_of(const double &x) { return x * x; }
int main() {
  double x = 3;
  auto r = enzyme::autodiff<enzyme::Reverse>(square_of, enzyme::Active<const double &>{x});
  CHECK("d/dx", enzyme::get<0>(enzyme::get<0>(r)), 6, 0);
  CHECK_DONE();
}
