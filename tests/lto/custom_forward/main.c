// Forward mode with a custom derivative (__enzyme_register_derivative)
// registered in the file that defines the function, called from the
// function differentiated in a third file.
#include "check.h"
double outer(double x);
extern int cube_fwds;
int main(void) {
  double x = 1.3;
  double d = __enzyme_fwddiff((void *)outer, x, 1.0);
  CHECK("custom fwd ran", cube_fwds > 0, 1, 0);
  CHECK("douter", d, cos(x) * 3 * pow(sin(x), 2) + 2 * x, 1e-12);
  CHECK("douter fd", d, FD(x, outer(x), 1e-6), 1e-6);
  CHECK_DONE();
}
