// LEVELS: O0
// EXPECT-ERROR: of a number passed by value in reverse mode
// <enzyme/enzyme>: enzyme::Duplicated<double> (a number by value) in
// reverse mode has no place for its derivative: the header refuses it
// when the program is compiled (in forward mode it is a tangent, and
// fine: see cpp_enzyme/enzyme_header.cpp).
#include "check.h"
#include <enzyme/enzyme>
static double cube(double x) { return x * x * x; }
int main() {
  double x = 2, dx = 0;
  enzyme::autodiff<enzyme::Reverse>(cube, enzyme::Duplicated<double>(x, dx));
  CHECK("d/dx", dx, 12, 0);
  CHECK_DONE();
}
