// Self-check mode (-enzyme-check) with correct custom derivatives: a
// registered gradient (reverse mode) and a registered forward derivative
// are checked like any derivative and report no mismatch.
// FLAGS: -fplugin=%plugin -mllvm -enzyme-check -mllvm -enzyme-check-abort
#include "check.h"

__attribute__((noinline)) double cube(double x) { return x * x * x; }
typedef struct { double tape, primal; } aug_t;
static aug_t cube_aug(double x) { aug_t r = {x, x * x * x}; return r; }
static double cube_rev(double x, double d, double tape) { return 3 * tape * tape * d; }
void *__enzyme_register_gradient_cube[] = {(void *)cube, (void *)cube_aug, (void *)cube_rev};
static double cube_fwd(double x, double dx) { return 3 * x * x * dx; }
void *__enzyme_register_derivative_cube[] = {(void *)cube, (void *)cube_fwd};

static double e(double x, double y) { return cube(x) * y + sin(y); }
typedef struct { double dx, dy; } d2;
extern d2 __enzyme_autodiff_d2(void *, ...);

int main(void) {
  double x = 1.1, y = 0.4;
  d2 g = __enzyme_autodiff_d2((void *)e, x, y);
  CHECK("de/dx", g.dx, 3 * x * x * y, 1e-9);
  CHECK("de/dy", g.dy, x * x * x + cos(y), 1e-9);
  double t = __enzyme_fwddiff((void *)e, x, 1.0, y, 1.0);
  CHECK("fwd", t, g.dx + g.dy, 1e-9);
  CHECK_DONE();
}
