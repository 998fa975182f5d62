// The entry points kept in local variables and called through them (at
// -O0 the calls go through a load of the variable's slot; the pass makes
// them direct calls), reverse and forward mode, against the analytic
// derivatives and central differences.
#include "check.h"

typedef double (*grad_t)(void *, double, int, double);
typedef double (*tan_t)(void *, double, double, int, double);

static double f(double x, double y) { return sin(x) * y * y + x; }
static double dfdx(double x, double y) { return cos(x) * y * y + 1; }

int main(void) {
  grad_t g = (grad_t)__enzyme_autodiff;
  tan_t t = (tan_t)__enzyme_fwddiff;
  double x = 0.7, y = 1.3;
  CHECK("reverse through a variable", g((void *)f, x, enzyme_const, y), dfdx(x, y), 1e-12);
  CHECK("forward through a variable", t((void *)f, x, 1.0, enzyme_const, y),
        FD(x, f(x, y), 1e-6), 1e-6);
  CHECK_DONE();
}
